import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromeTraceReader } from '../../formats/chrome-trace';
import type { Profile } from '../../model/profile';
import type { KinetoTraceWriter } from './kineto-writer';

let dir: string | null = null;
let seq = 0;

/** Writes a generated trace to a temporary `.pt.trace.json` file and reads it with the Chrome-trace reader. */
export async function readGenerated(w: KinetoTraceWriter, name = 'run'): Promise<Profile> {
  return chromeTraceReader.read(writeGenerated(w, name));
}

/** The path of a temporary file holding the generated trace. */
export function writeGenerated(w: KinetoTraceWriter, name = 'run'): string {
  dir ??= mkdtempSync(join(tmpdir(), 'dmv-'));
  const path = join(dir, `${name}-${seq++}.pt.trace.json`);
  writeFileSync(path, w.toJson());
  return path;
}

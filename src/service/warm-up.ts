/**
 * Start-up warm-up of an analysis worker: tiny profiles of the hot readers (warm-profiles.ts) are read, derived and
 * drawn as a super graph, so V8 compiles those paths before the user's first open; then the code
 * compiled so far is saved as the bundle's code cache (code-cache.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readProfile } from '../analysis/formats';
import { zlib } from '../analysis/formats/io/zlib';
import { superGraphData } from '../analysis/graph/super-graph-data';
import { Profile } from '../analysis/model/profile';
import type { WarmReport } from './analysis-service';
import { currentCodeCache } from './code-cache';
import { deriveData } from './derived-data';
import { shared } from './shared-memory';
import { WARM_PROFILES, WarmBytes, type WarmFile, type WarmProfile } from './warm-profiles';

export async function warmUp(): Promise<WarmReport> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-warm-'));
  try {
    for (const [name, profile] of Object.entries(WARM_PROFILES)) {
      const path = writeWarmProfile(dir, name, profile);
      // A reader that rejects a warm-up file must not stop the others from warming.
      const p = await readProfile(path).catch(() => undefined);
      if (!p) continue;
      const copy = new Profile(shared(p.toTransferable().data));
      deriveData(copy, copy.primaryMetric);
      superGraphData(copy, name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cache = currentCodeCache();
  // Store the code compiled so far (the readers and analyses just run) for the next start.
  if (cache && cache.state !== 'accepted') cache.save();
  return { ms: performance.now() - started, codeCache: cache?.state ?? 'none' };
}

/** Writes a warm-up profile (a file, or a folder of files) into `dir`; returns its path. */
export function writeWarmProfile(dir: string, name: string, profile: WarmProfile): string {
  const path = join(dir, name);
  const contents = (file: WarmFile) =>
    typeof file === 'string' ? file : zlib().gunzipSync(Buffer.from(file.gzipBase64, 'base64'));
  if (typeof profile === 'string' || profile instanceof WarmBytes) writeFileSync(path, contents(profile));
  else {
    for (const [rel, file] of Object.entries(profile)) {
      mkdirSync(dirname(join(path, rel)), { recursive: true });
      writeFileSync(join(path, rel), contents(file));
    }
  }
  return path;
}

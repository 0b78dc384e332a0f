import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder and a function writing files into it (returning each file's path). */
export function tempFileWriter(prefix: string): {
  dir: string;
  write: (name: string, content: string | Uint8Array) => string;
} {
  const dir = mkdtempSync(join(tmpdir(), `hpc-lens-${prefix}-`));
  return {
    dir,
    write(name, content) {
      const p = join(dir, name);
      writeFileSync(p, content);
      return p;
    },
  };
}

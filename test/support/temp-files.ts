import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder and a function writing text files into it (returning each file's path). */
export function tempFileWriter(prefix: string): { dir: string; write: (name: string, text: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), `hpc-lens-${prefix}-`));
  return {
    dir,
    write(name, text) {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    },
  };
}

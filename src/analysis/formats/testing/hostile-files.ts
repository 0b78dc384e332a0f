/**
 * Hostile profiles that the CLI's hostile-input tests (src/cli/hostile-inputs.test.ts) and the
 * extension-host test of Open Profile… both feed to the readers: each writer puts its file into a
 * folder and returns its path. Every one must be refused with one clean line naming the file.
 */
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A folded stack of one line of `mib` MiB (over the 16 MiB maxLineLength), written 1 MiB at a time. */
export async function writeLongLineFolded(dir: string, mib: number): Promise<string> {
  const path = join(dir, 'long-line.folded');
  const out = createWriteStream(path);
  out.write('main;solve;');
  const block = Buffer.alloc(1 << 20, 'x');
  for (let n = 0; n < mib; n++) if (!out.write(block)) await new Promise<void>(resolve => out.once('drain', resolve));
  await new Promise<void>(resolve => out.end(' 1\n', () => resolve()));
  return path;
}

/** Folded stacks whose counts of 1e308 add up beyond the largest finite double. */
export function writeHugeCountsFolded(dir: string): string {
  const path = join(dir, 'huge-counts.folded');
  writeFileSync(path, 'main;a 1e308\nmain;b 1e308\n');
  return path;
}

/**
 * A gprof report whose call graph holds a line of terminal escapes (a window-title change, a
 * screen clear, a colour) and 500 more characters: the error must quote it escaped and cut.
 */
export function writeEscapeGprof(dir: string): string {
  const path = join(dir, 'escape.gprof');
  writeFileSync(
    path,
    [
      'Flat profile:',
      '',
      'Each sample counts as 0.01 seconds.',
      '  %   cumulative   self              self     total',
      ' time   seconds   seconds    calls  ms/call  ms/call  name',
      '100.00      0.01     0.01        1    10.00    10.00  main',
      '',
      '\t\t     Call graph (explanation follows)',
      '',
      'index % time    self  children    called     name',
      '[1]    100.0    0.01    0.00       1         main [1]',
      `\x1b]0;owned\x07\x1b[2J\x1b[1;31m${'!'.repeat(500)} garbage`,
      '-----------------------------------------------',
    ].join('\n') + '\n',
  );
  return path;
}

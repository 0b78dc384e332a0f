import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir`, as sorted paths relative to it (tests and benchmarks compare folders of summaries). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
  };
  walk(dir);
  return out.sort();
}

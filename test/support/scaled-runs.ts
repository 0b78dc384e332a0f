import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Scaled copies of a Caliper json-split profile: runs of the same program, each with its sample
 * counts and times multiplied by a factor (`{ fast: 1, slow: 2 }` writes `fast.json` and `slow.json`
 * into `folder`). The ensemble and comparison tests read them as real files.
 */
export function writeScaledRuns(sample: string, folder: string, factors: Record<string, number>): void {
  const doc = JSON.parse(readFileSync(sample, 'utf8')) as { columns: string[]; data: number[][] };
  const scaled = ['count', 'sum#time.duration'].map(c => doc.columns.indexOf(c)).filter(i => i >= 0);
  mkdirSync(folder, { recursive: true });
  for (const [name, f] of Object.entries(factors)) {
    const data = doc.data.map(row => row.map((v, i) => (scaled.includes(i) ? v * f : v)));
    writeFileSync(join(folder, `${name}.json`), JSON.stringify({ ...doc, data }));
  }
}

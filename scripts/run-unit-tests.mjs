// Runs every unit test (`*.test.ts`, beside the code) with Node's built-in test runner through tsx.
// Node 20's `--test` does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['src', 'scripts', 'webview-ui/src', 'test/unit'];
const skip = new Set(['node_modules', 'dist', '.cache', 'build']);

function find(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (skip.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) find(p, out);
    else if (/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = roots
  .flatMap(r => find(r, []))
  .filter(f => filter.length === 0 || filter.some(x => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no unit test files found');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);

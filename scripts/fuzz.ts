/**
 * `npm run fuzz`: mutates the project's fixtures and samples (and ../shared/data when present) for
 * every reader and runs each damaged input through `hpc-lens inspect --json` in a child process
 * under CPU and memory limits. Fails on any crash (stack trace, internal error, abnormal exit),
 * timeout (> 10 s CPU), > 2 GB resident memory, non-clean error (not one line naming the file and
 * a reason, or control characters in it) or non-finite number in the report. Seeded: the same
 * `--seed`, `--format` and `--count` give the same inputs.
 *
 *   npm run fuzz -- [--seed N] [--count N] [--format ID[,ID…]] [--case K[,K…]] [--jobs N]
 *                   [--work DIR] [--shared DIR|none] [--quiet]
 */
import { resolve } from 'node:path';
import { runFuzz, summaryTable } from './fuzz/fuzz-run';
import { REPO_ROOT } from './fuzz/seed-corpus';

const USAGE = `usage: npm run fuzz -- [--seed N] [--count N] [--format ID[,ID…]] [--case K[,K…]] [--jobs N] [--work DIR] [--shared DIR|none] [--quiet]
  --seed    seed of the mutations (default 1)
  --count   cases per format (default 100)
  --format  reader ids to fuzz (default: all; hpc-lens inspect prints a file's format)
  --case    only these case indices (to reproduce a failure)
  --jobs    parallel runs (default: half the cores)
  --work    work directory (default .cache/fuzz); failing inputs are kept in its failures/
  --shared  the shared data folder, or none (default ../shared/data when present)
  --quiet   print only the failing cases`;

async function main(argv: string[]): Promise<number> {
  const flags = new Map<string, string>();
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') {
      console.log(USAGE);
      return 0;
    }
    if (a === '--quiet') {
      quiet = true;
      continue;
    }
    const m = /^--(seed|count|format|case|jobs|work|shared)(?:=(.*))?$/.exec(a);
    const value = m?.[2] ?? argv[++i];
    if (!m || value === undefined) {
      console.error(`fuzz: bad argument ${a}\n${USAGE}`);
      return 2;
    }
    flags.set(m[1]!, value);
  }
  const int = (name: string, fallback: number) => {
    const v = Number(flags.get(name) ?? fallback);
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} needs a non-negative integer`);
    return v;
  };
  const list = (name: string) => flags.get(name)?.split(',').filter(Boolean);
  const shared = flags.get('shared');
  const started = Date.now();
  const summary = await runFuzz({
    seed: int('seed', 1),
    count: int('count', 100),
    formats: list('format'),
    cases: list('case')?.map(Number),
    jobs: flags.has('jobs') ? Math.max(1, int('jobs', 1)) : undefined,
    workDir: resolve(flags.get('work') ?? resolve(REPO_ROOT, '.cache', 'fuzz')),
    sharedData: shared === 'none' ? null : shared ? resolve(shared) : undefined,
    // --quiet prints only the failing cases, as they happen.
    onCase: (c, r) => {
      const passed = r.verdict === 'read' || r.verdict === 'rejected';
      if (quiet && passed) return;
      console.log(
        `${r.verdict.padEnd(10)} ${c.format} #${c.index} ${r.cpuSeconds.toFixed(2)} s ${Math.round(r.rssBytes / 1e6)} MB  ${c.description}${passed ? '' : `\n           ${r.detail}`}`,
      );
    },
  });
  console.log(`\nfuzz: seed ${summary.seed}, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  console.log(summaryTable(summary));
  if (summary.harnessErrors.length) {
    console.log(`\n${summary.harnessErrors.length} case(s) the fuzzer could not write (a fuzzer bug):`);
    for (const e of summary.harnessErrors) console.log(`  ${e}`);
  }
  if (summary.failures.length || summary.harnessErrors.length) {
    if (summary.failures.length) console.log(`\n${summary.failures.length} failing input(s):`);
    for (const f of summary.failures)
      console.log(`  ${f.verdict} ${f.format} #${f.index}: ${f.description}\n    ${f.detail}\n    kept in ${f.kept}`);
    return 1;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  code => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`fuzz: ${(e as Error).stack ?? e}`);
    process.exitCode = 2;
  },
);

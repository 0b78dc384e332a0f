/**
 * `npm run fuzz`: mutates the project's fixtures and samples (and ../shared/data when present) for
 * every reader and runs each damaged input through `hpc-lens inspect --json` — in a long-lived pooled
 * child that runs the CLI's code in-process, under CPU and memory limits enforced from outside; a
 * failing input is read again in a fresh `hpc-lens inspect --json` process, whose verdict counts. Fails on any crash (stack trace, internal error, abnormal exit),
 * timeout (> 10 s CPU), > 2 GB resident memory, non-clean error (not one line naming the file and
 * a reason, or control characters in it) or non-finite number in the report. Seeded: the same
 * `--seed`, `--format` and `--count` give the same inputs.
 *
 *   npm run fuzz -- [--seed N] [--count N] [--format ID[,ID…]] [--case K[,K…]] [--jobs N]
 *                   [--work DIR] [--shared DIR|none] [--max-seed-mb N] [--summary FILE] [--fresh] [--quiet]
 */
import { join, resolve } from 'node:path';
import { runFuzz, summaryTable } from './fuzz/fuzz-run';
import { REPO_ROOT } from './fuzz/seed-corpus';

const USAGE = `usage: npm run fuzz -- [--seed N] [--count N] [--format ID[,ID…]] [--case K[,K…]] [--jobs N] [--work DIR]
                       [--shared DIR|none] [--max-seed-mb N] [--summary FILE] [--fresh] [--quiet]
  --seed    seed of the mutations (default 1)
  --count   cases per format (default 100)
  --format  reader ids to fuzz (default: all; hpc-lens inspect prints a file's format)
  --case    only these case indices (to reproduce a failure)
  --jobs    parallel runs (default: half the cores)
  --work    work directory (default .cache/fuzz); failing inputs are kept in its failures/
  --shared  the shared data folder, or none (default ../shared/data when present)
  --max-seed-mb  shared-data seeds larger than this many MiB are left out (default 8): each
            mutation copies its seed; every format keeps its fixtures and generated seeds
  --summary file rewritten with the summary table after each finished format
            (default WORK/summary.md)
  --fresh   read every input in a fresh hpc-lens process (slow; checks the pooled children)
  --quiet   print only the failing cases`;

async function main(argv: string[]): Promise<number> {
  const flags = new Map<string, string>();
  let quiet = false;
  let fresh = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') {
      console.log(USAGE);
      return 0;
    }
    if (a === '--quiet' || a === '--fresh') {
      if (a === '--quiet') quiet = true;
      else fresh = true;
      continue;
    }
    const m = /^--(seed|count|format|case|jobs|work|shared|max-seed-mb|summary)(?:=(.*))?$/.exec(a);
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
  const workDir = resolve(flags.get('work') ?? resolve(REPO_ROOT, '.cache', 'fuzz'));
  const maxSeedMiB = Number(flags.get('max-seed-mb') ?? 8);
  if (!(maxSeedMiB > 0)) throw new Error('--max-seed-mb needs a positive number');
  const summary = await runFuzz({
    seed: int('seed', 1),
    count: int('count', 100),
    formats: list('format'),
    cases: list('case')?.map(Number),
    jobs: flags.has('jobs') ? Math.max(1, int('jobs', 1)) : undefined,
    workDir,
    sharedData: shared === 'none' ? null : shared ? resolve(shared) : undefined,
    maxSeedBytes: maxSeedMiB * 2 ** 20,
    summaryFile: resolve(flags.get('summary') ?? join(workDir, 'summary.md')),
    fresh,
    onNote: note => console.log(`confirmed  ${note}`),
    onFormatDone: s =>
      console.log(`done       ${s.format}: ${s.inputs} inputs, ${((Date.now() - started) / 1000).toFixed(0)} s so far`),
    // --quiet prints only the failing cases, as they happen.
    onCase: (c, r) => {
      const passed = r.verdict === 'read' || r.verdict === 'rejected';
      if (quiet && passed) return;
      console.log(
        `${r.verdict.padEnd(10)} ${c.format} #${c.index} ${r.cpuSeconds.toFixed(2)} s ${Math.round(r.rssBytes / 1e6)} MB  ${c.description}${passed ? '' : `\n           ${r.detail}`}`,
      );
    },
  });
  const cpu = process.cpuUsage();
  console.log(
    `\nfuzz: seed ${summary.seed}, ${((Date.now() - started) / 1000).toFixed(0)} s wall, runner ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU, ` +
      `${summary.childrenStarted} pooled child(ren) started, ${summary.confirmations.length} input(s) re-read in a fresh process\n`,
  );
  console.log(summaryTable(summary));
  if (summary.harnessErrors.length) {
    console.log(`\n${summary.harnessErrors.length} case(s) the fuzzer could not write (a fuzzer bug):`);
    for (const e of summary.harnessErrors) console.log(`  ${e}`);
  }
  if (summary.failures.length || summary.harnessErrors.length) {
    if (summary.failures.length) console.log(`\n${summary.failures.length} failing input(s):`);
    for (const f of summary.failures)
      console.log(
        `  ${f.verdict} ${f.format} #${f.index}: ${f.description}\n    ${f.detail}\n    kept in ${f.kept}\n    ${f.reproduce}`,
      );
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

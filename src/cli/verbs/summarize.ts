import { parseShard, summarizeRuns, type Shard } from '../../analysis/ensemble/summary-store';
import { parseArgs, UsageError, type Verb } from '../verb';

export const summarizeVerb: Verb = {
  usage: `usage: hpc-lens summarize [--out DIR] [--shard I/N] PATH...

Writes a run summary (.hlsum: the run's calling-context tree, per-node totals of every metric,
per-rank values of the heavy call sites, metadata) for every profile the PATHs name (files,
folders searched by content, globs). Opening summaries as an ensemble never re-reads a profile.
  --out DIR    write the summaries under DIR, mirroring the runs' paths (default: beside
               each profile, as PROFILE.hlsum)
  --shard I/N  summarise only every N-th run starting at run I (0 ≤ I < N), so a Slurm job
               array summarises a study in parallel:
                 sbatch --array=0-63 --wrap \\
                   'hpc-lens summarize --shard $SLURM_ARRAY_TASK_ID/64 --out summaries runs/'
A run whose summary is current (same profile path, size, modification time and reader
version) is skipped, so a rerun does only what is missing. Progress goes to stderr, one line
per run. A run that cannot be read is listed and the others go on; the exit code is then 2.
Prints one JSON line on stdout: {"runs", "written", "current", "failed": [{"path", "reason"}],
"profileBytes", "summaryBytes"}.`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { valued: ['out', 'shard'] });
    if (positional.length === 0) throw new UsageError('summarize needs at least one PATH');
    let shard: Shard | undefined;
    if (flags.has('shard')) {
      try {
        shard = parseShard(String(flags.get('shard')));
      } catch (e) {
        throw new UsageError(e instanceof Error ? e.message : String(e));
      }
    }
    const out = flags.has('out') ? String(flags.get('out')) : undefined;
    const report = await summarizeRuns(positional, {
      ...(out ? { out } : {}),
      ...(shard ? { shard } : {}),
      onRun: (done, total, run) =>
        io.err(
          `[${done}/${total}] ${run.outcome === 'failed' ? `FAILED ${run.path}: ${run.reason}` : `${run.outcome.padEnd(7)} ${run.summary}`}\n`,
        ),
    });
    for (const e of report.errors) io.err(`hpc-lens summarize: skipped ${e.path}: ${e.reason}\n`);
    if (report.found === 0) throw new Error(`no profiles found in ${positional.join(', ')}`);
    const failed = report.runs.filter(r => r.outcome === 'failed');
    const sum = (f: (r: (typeof report.runs)[number]) => number | undefined) =>
      report.runs.reduce((s, r) => s + (f(r) ?? 0), 0);
    io.out(
      JSON.stringify({
        runs: report.runs.length,
        written: report.runs.filter(r => r.outcome === 'written').length,
        current: report.runs.filter(r => r.outcome === 'current').length,
        failed: failed.map(r => ({ path: r.path, reason: r.reason })),
        profileBytes: sum(r => (r.outcome === 'failed' ? 0 : r.profileBytes)),
        summaryBytes: sum(r => r.summaryBytes),
      }) + '\n',
    );
    if (failed.length) {
      io.err(`hpc-lens summarize: ${failed.length} of ${report.runs.length} runs failed:\n`);
      for (const r of failed) io.err(`  ${r.path}: ${r.reason}\n`);
      return 2;
    }
    return 0;
  },
};

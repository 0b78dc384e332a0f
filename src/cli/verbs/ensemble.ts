import { computeNodeStatistics } from '../../analysis/ensemble/node-statistics';
import { EnsembleProfile } from '../../analysis/ensemble/ensemble-profile';
import { projectionData } from '../../analysis/ensemble/projection-data';
import { MAX_CLUSTERS, MIN_CLUSTERS } from '../../service/ensemble-state';
import { openRuns } from '../../analysis/ensemble/summary-store';
import { parseArgs, UsageError, type Verb } from '../verb';

export const ensembleVerb: Verb = {
  usage: `usage: hpc-lens ensemble --json [--metric NAME] [--by inclusive|exclusive] [--clusters K] PATH...

Reads the runs of an ensemble (profiles, folders, globs, or run summaries from
hpc-lens summarize; a current summary is read instead of its profile) and prints the union
of their calling-context trees as one JSON object:
{ "metric", "runs": [names], "nodes": [{"path": [names], "min", "median", "max", "mean", "runs": n}] }
Per-run values are each run's mean over its ranks; statistics are over the n runs where the
node exists. Warnings (runs left out, summaries rebuilt) go to stderr.
  --json     required: the output is JSON
  --metric   metric by name (default: the first run's primary metric)
  --by       inclusive (default) or exclusive values
  --clusters K  also print the runs' parameter projection (CallFlow §2.11: MDS of the run
             parameters and runtimes) with k-means clusters, K from ${MIN_CLUSTERS} to ${MAX_CLUSTERS}, as
             "projection": {"k", "features", "points": [{"run", "x", "y", "cluster"}]};
             refused with the reason when there are too few runs for K clusters`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json'], valued: ['metric', 'by', 'clusters'] });
    if (!flags.has('json')) throw new UsageError('ensemble prints JSON only: pass --json');
    let clusters: number | undefined;
    if (flags.has('clusters')) {
      const raw = String(flags.get('clusters'));
      clusters = Number(raw);
      if (!/^\d+$/.test(raw) || clusters < MIN_CLUSTERS || clusters > MAX_CLUSTERS)
        throw new UsageError(
          `--clusters ${raw}: the projection's clusters are a whole number from ${MIN_CLUSTERS} to ${MAX_CLUSTERS}`,
        );
    }
    const by = flags.get('by') ?? 'inclusive';
    if (by !== 'inclusive' && by !== 'exclusive') throw new UsageError('--by is inclusive or exclusive');
    if (positional.length === 0) throw new UsageError('ensemble needs at least one PATH');
    const opened = await openRuns(positional, { log: m => io.err(`hpc-lens ensemble: ${m}\n`) });
    for (const e of opened.errors) io.err(`hpc-lens ensemble: ${e.name} could not be read: ${e.reason}\n`);
    const metric = flags.has('metric') ? String(flags.get('metric')) : undefined;
    const ep = new EnsembleProfile(opened.runs, {
      path: opened.folder,
      errors: opened.errors,
      ...(metric ? { metric } : {}),
    });
    const e = ep.ensemble;
    if (metric && e.metric.name !== metric) throw new Error(`the runs share no metric "${metric}"`);
    for (const w of ep.profile.warnings) if (!/could not be read/.test(w)) io.err(`hpc-lens ensemble: ${w}\n`);
    const stats = computeNodeStatistics(e, by);
    const nodes = [];
    for (let u = 0; u < e.size; u++)
      nodes.push({
        path: e.tree.path(u),
        min: stats.min[u]!,
        median: stats.median[u]!,
        max: stats.max[u]!,
        mean: stats.mean[u]!,
        runs: stats.present[u]!,
      });
    let projection: object | undefined;
    if (clusters !== undefined) {
      const p = projectionData(e, 'parameters', null, clusters);
      if (p.unavailable) throw new Error(`--clusters ${clusters}: ${p.unavailable}`);
      projection = {
        k: p.k,
        features: p.features,
        points: p.points.map(pt => ({ run: e.runs[pt.run]!.name, x: pt.x, y: pt.y, cluster: pt.cluster })),
      };
    }
    io.out(
      JSON.stringify({
        metric: e.metric.name,
        runs: e.runs.map(r => r.name),
        nodes,
        ...(projection ? { projection } : {}),
      }) + '\n',
    );
    return 0;
  },
};

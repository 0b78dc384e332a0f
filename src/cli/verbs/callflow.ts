import { readProfile } from '../../analysis/formats';
import { parseThresholdPercent, guardHeadline } from '../../analysis/graph/callflow-filter-settings';
import { summaryOf } from '../../analysis/graph/callflow-summary';
import { superGraphData } from '../../analysis/graph/super-graph-data';
import { parseArgs, UsageError, type Verb } from '../verb';

export const callflowVerb: Verb = {
  usage: `usage: hpc-lens callflow --json [--threshold F] [--by inclusive|exclusive] PATH

Prints the CallFlow super graph the Sankey panel would draw for a profile, as one JSON object:
{ "metric", "threshold", "functions": {"total", "kept"}, "nodes": {"total", "folded"},
  "supernodes": [{"id", "name", "module", "inclusive", "exclusive"}],
  "links": [{"source", "target", "value"}] }   (values summed over ranks and threads)
  --json       required: the output is JSON
  --threshold  filter threshold in percent of the total, 0–100 (default 0.1, as the setting
               hpcLens.callflow.filterThreshold); "threshold" in the output is in percent too
  --by         what the threshold applies to: inclusive (default) or exclusive time`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json'], valued: ['threshold', 'by'] });
    if (!flags.has('json')) throw new UsageError('callflow prints JSON only: pass --json');
    let threshold: number | undefined;
    if (flags.has('threshold')) {
      const percent = parseThresholdPercent(String(flags.get('threshold')));
      if (percent === null) throw new UsageError('--threshold needs a percentage between 0 and 100');
      threshold = percent / 100;
    }
    const by = flags.get('by') ?? 'inclusive';
    if (by !== 'inclusive' && by !== 'exclusive') throw new UsageError('--by is inclusive or exclusive');
    if (positional.length !== 1) throw new UsageError('callflow reads exactly one PATH');
    const profile = await readProfile(positional[0]!);
    const data = superGraphData(profile, profile.path, {
      filter: { ...(threshold !== undefined ? { threshold } : {}), by },
    });
    const guard = guardHeadline(data.guard);
    if (guard) io.err(`hpc-lens callflow: ${guard}\n`);
    io.out(JSON.stringify(summaryOf(data)) + '\n');
    return 0;
  },
};

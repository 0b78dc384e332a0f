import { readProfile } from '../../analysis/formats';
import type { Profile } from '../../analysis/model/profile';
import { summarizeProfile, summaryToJson, summaryToMarkdown } from '../../analysis/stats/summary-export';
import { parseArgs, UsageError, type Verb } from '../verb';

/** The metric a verb uses: `--metric NAME` (by name or label), else the profile's primary metric. */
export function metricNamed(profile: Profile, name: string | true | undefined): number {
  if (name === undefined || name === true) return profile.primaryMetric;
  const m = profile.metrics.findIndex(d => d.name === name || d.label === name);
  if (m < 0)
    throw new UsageError(
      `${profile.path} has no metric "${name}" (it has ${profile.metrics.map(d => d.name).join(', ')})`,
    );
  return m;
}

export const summaryVerb: Verb = {
  usage: `usage: hpc-lens summary [--json] [--metric NAME] PATH

Prints what HPC Lens: Export Summary… writes for a profile or trace: the hot path, top lines, top
functions and load imbalance (over comparable contexts), as Markdown, or with --json as one object:
{ "hotPath": [{"name", "file", "line", "inclusive", "exclusive"}],
  "topLines": [{"file", "line", "inclusive", "exclusive"}],
  "topFunctions": [{"name", "file", "line", "inclusive", "exclusive"}],
  "imbalance": [{"function", "maxOverMean", "share", "contextKind", "maxContext"}] }
Values are raw, in the metric's unit, summed over contexts; shares are fractions of the total.
  --json     print JSON
  --metric   the metric by name or label (default: the profile's primary metric)`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json'], valued: ['metric'] });
    if (positional.length !== 1) throw new UsageError('summary reads exactly one PATH');
    const profile = await readProfile(positional[0]!);
    const s = summarizeProfile(profile, metricNamed(profile, flags.get('metric')));
    io.out(flags.has('json') ? JSON.stringify(summaryToJson(s)) + '\n' : summaryToMarkdown(s));
    return 0;
  },
};

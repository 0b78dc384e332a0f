import { readProfile } from '../../analysis/formats';
import { functionsByDelta } from '../../analysis/graph/diff-lists';
import { diffSummaryToMarkdown, summarizeDiff } from '../../analysis/graph/diff-summary-export';
import { diffProfiles } from '../../analysis/graph/profile-diff';
import { parseArgs, UsageError, type Verb } from '../verb';
import { metricNamed } from './summary';

/** `hpc-lens diff --json`: exactly these keys. */
export interface DiffJson {
  metric: string;
  base: { path: string; total: number };
  compare: { path: string; total: number };
  functions: { name: string; base: number; compare: number; delta: number }[];
}

export const diffVerb: Verb = {
  usage: `usage: hpc-lens diff [--json] [--metric NAME] BASE COMPARE

Compares two runs as HPC Lens: Compare Two Profiles… does (calling contexts matched; values are
means over each run's contexts, so runs with different rank counts compare). Prints the exported
comparison as Markdown, or with --json one object:
{ "metric", "base": {"path", "total"}, "compare": {"path", "total"},
  "functions": [{"name", "base", "compare", "delta"}] }
with every function's exclusive value, largest |delta| first (delta = compare − base).
  --json     print JSON
  --metric   the metric by name or label (default: the compared run's primary metric)`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json'], valued: ['metric'] });
    if (positional.length !== 2) throw new UsageError('diff reads exactly two paths: BASE COMPARE');
    const [base, compare] = await Promise.all(positional.map(p => readProfile(p)));
    const metric = compare!.metrics[metricNamed(compare!, flags.get('metric'))]!.name;
    if (!flags.has('json')) {
      io.out(diffSummaryToMarkdown(summarizeDiff(base!, compare!, metric)));
      return 0;
    }
    const d = diffProfiles(base!, compare!, metric);
    const out: DiffJson = {
      metric: d.metric.name,
      base: { path: base!.path, total: d.baselineTotal },
      compare: { path: compare!.path, total: d.comparisonTotal },
      functions: functionsByDelta(d).map(f => ({
        name: f.name,
        base: f.baseline,
        compare: f.comparison,
        delta: f.delta,
      })),
    };
    io.out(JSON.stringify(out) + '\n');
    return 0;
  },
};

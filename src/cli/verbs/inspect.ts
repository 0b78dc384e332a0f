import { escapeControl } from '../../analysis/errors/escape-control';
import { readProfile, sampleFile } from '../../analysis/formats';
import { fromFileSystemError } from '../../analysis/formats/io/fs-errors';
import { systemClaiming } from '../../service/systems';
import { inspectReport } from '../../analysis/stats/inspect-report';
import { Profile } from '../../analysis/model/profile';
import { formatValue } from '../../analysis/stats/format';
import { rootHotPaths } from '../../analysis/stats/hot-path';
import { shareOf } from '../../analysis/stats/share';
import { topIndices } from '../../analysis/stats/top-k';
import { parseArgs, UsageError, type Verb } from '../verb';

export const inspectVerb: Verb = {
  usage: `usage: hpc-lens inspect [--json] [--top N] [--all-nodes] PATH

Reads a profile (format detected from its content) and prints what was read. Files an analysis
system claims by content are shown as the profile the editor gets for them (memory samples: format
memaxes or perf-mem; a ROSS/CODES run folder: its event handlers per PE — hpc-lens pdes prints the
run itself).
  --json       print one JSON object (schema in the README)
  --top N      number of hottest nodes listed in the text report (default 15)
  --all-nodes  list every node in the JSON (by default trees above 5000 nodes list the
               5000 heaviest and their ancestors)`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json', 'all-nodes'], valued: ['top'] });
    const top = flags.has('top') ? Number(flags.get('top')) : 15;
    if (!Number.isInteger(top) || top < 0) throw new UsageError('--top needs a non-negative integer');
    if (positional.length !== 1) throw new UsageError('inspect reads exactly one PATH');
    const profile = await readForInspection(positional[0]!);
    if (flags.has('json'))
      io.out(
        JSON.stringify(inspectReport(profile, { maxNodes: flags.has('all-nodes') ? Infinity : undefined })) + '\n',
      );
    else io.out(textReport(profile, top));
    return 0;
  },
};

/**
 * The profile of a file as the editor would get it: a system's editor profile when a system claims
 * the file by content (the same detection as Open Profile…), else the profile its reader makes.
 */
async function readForInspection(path: string): Promise<Profile> {
  let sample;
  try {
    sample = await sampleFile(path);
  } catch (e) {
    throw fromFileSystemError(e, path);
  }
  if (!systemClaiming(sample)) return readProfile(path);
  const { LocalAnalysisService } = await import('../../service/local-analysis-service');
  const opened = await new LocalAnalysisService().open({ path });
  const profile = new Profile(opened.data);
  if (opened.childIndex) profile.tree.adoptChildIndex(opened.childIndex);
  return profile;
}

/** Most steps of the hot path the text report lists (and deepest indentation). */
const HOT_PATH_LINES = 40;

function textReport(profile: Profile, top: number): string {
  const m = profile.primaryMetric;
  const metric = profile.metrics[m]!;
  const total = profile.total(m);
  const tree = profile.tree;
  const lines: string[] = [];
  lines.push(`${profile.path}`);
  lines.push(`  format    ${profile.format}`);
  lines.push(`  nodes     ${tree.size} (${tree.roots().length} root${tree.roots().length === 1 ? '' : 's'})`);
  lines.push(
    `  contexts  ${profile.contextCount} (${profile.contexts
      .slice(0, 4)
      .map(c => c.label)
      .join(', ')}${profile.contextCount > 4 ? ', …' : ''})`,
  );
  lines.push(
    `  metrics   ${profile.metrics.map((d, i) => `${d.name}${d.unit ? ` [${d.unit}]` : ''} (${d.kind})${i === m ? ' *' : ''}`).join(', ')}`,
  );
  lines.push(`  total     ${formatValue(total, metric.unit)} ${metric.name}`);
  const meta = Object.entries(profile.metadata);
  if (meta.length) {
    lines.push('  metadata');
    for (const [k, v] of meta.slice(0, 12))
      lines.push(`    ${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`.slice(0, 120));
    if (meta.length > 12) lines.push(`    … ${meta.length - 12} more`);
  }
  for (const w of profile.warnings) lines.push(`  warning   ${w}`);
  lines.push('', `Hot path (${metric.name}, inclusive):`);
  const hotPath = rootHotPaths(profile, m)[0] ?? [];
  // A path thousands of calls deep (deep recursion) is shown by its first and last steps.
  const shown =
    hotPath.length > HOT_PATH_LINES
      ? [...hotPath.slice(0, HOT_PATH_LINES / 2), null, ...hotPath.slice(-HOT_PATH_LINES / 2)]
      : hotPath;
  for (const step of shown) {
    if (!step) {
      lines.push(`         … ${hotPath.length - HOT_PATH_LINES} more steps`);
      continue;
    }
    const indent = Math.min(step.depth, HOT_PATH_LINES);
    lines.push(
      `  ${(100 * step.share).toFixed(1).padStart(5)}%  ${'  '.repeat(indent)}${tree.name(step.node)}${location(profile, step.node)}`,
    );
  }
  if (top > 0) {
    lines.push('', `Top ${top} by exclusive ${metric.name}:`);
    const excl = profile.exclusiveTotals(m);
    for (const node of topIndices(excl, top, i => excl[i] !== 0)) {
      const share = shareOf(excl[node]!, total);
      lines.push(
        `  ${(100 * share).toFixed(1).padStart(5)}%  ${formatValue(excl[node]!, metric.unit).padStart(10)}  ${tree.name(node)}${location(profile, node)}`,
      );
    }
  }
  // Names, paths and metadata come from the file: no control character reaches the terminal.
  return lines.map(l => escapeControl(l)).join('\n') + '\n';
}

function location(profile: Profile, node: number): string {
  const f = profile.tree.file(node);
  if (!f) return '';
  const l = profile.tree.line(node);
  return `  (${f}${l ? `:${l}` : ''})`;
}

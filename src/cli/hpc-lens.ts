/**
 * `hpc-lens`: the analysis library on the command line, for terminals, CI jobs and clusters.
 *
 *   hpc-lens inspect [--json] [--top N] PATH
 */
import { readProfile } from '../analysis/formats';
import { ProfileReadError } from '../analysis/formats/reader';
import { inspectReport } from '../analysis/inspect';
import type { Profile } from '../analysis/model/profile';
import { formatValue } from '../analysis/stats/format';
import { rootHotPaths } from '../analysis/stats/hot-path';
import { topIndices } from '../analysis/stats/top-k';

const USAGE = `usage: hpc-lens inspect [--json] [--top N] [--all-nodes] PATH

Reads a profile (format detected from its content) and prints what was read.
  --json     print one JSON object (schema in the README)
  --top N    number of hottest nodes listed in the text report (default 15)
  --all-nodes  list every node in the JSON (by default trees above 5000 nodes list the
             5000 heaviest and their ancestors)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  if (command !== 'inspect') {
    console.error(`hpc-lens: unknown command "${command}"\n${USAGE}`);
    return 2;
  }
  let json = false;
  let allNodes = false;
  let top = 15;
  const paths: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--json') json = true;
    else if (a === '--all-nodes') allNodes = true;
    else if (a === '--top') {
      top = Number(rest[++i]);
      if (!Number.isInteger(top) || top < 0) {
        console.error('hpc-lens: --top needs a non-negative integer');
        return 2;
      }
    } else if (a.startsWith('-')) {
      console.error(`hpc-lens: unknown option ${a}\n${USAGE}`);
      return 2;
    } else paths.push(a);
  }
  if (paths.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  try {
    const profile = await readProfile(paths[0]!);
    if (json)
      process.stdout.write(
        JSON.stringify(inspectReport(profile, { maxNodes: allNodes ? Infinity : undefined })) + '\n',
      );
    else process.stdout.write(textReport(profile, top));
    return 0;
  } catch (e) {
    console.error(`hpc-lens: ${e instanceof ProfileReadError ? e.message : ((e as Error).stack ?? e)}`);
    return 1;
  }
}

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
  for (const step of rootHotPaths(profile, m)[0] ?? []) {
    lines.push(
      `  ${(100 * step.share).toFixed(1).padStart(5)}%  ${'  '.repeat(step.depth)}${tree.name(step.node)}${location(profile, step.node)}`,
    );
  }
  if (top > 0) {
    lines.push('', `Top ${top} by exclusive ${metric.name}:`);
    const excl = profile.exclusiveTotals(m);
    for (const node of topIndices(excl, top, i => excl[i] !== 0)) {
      const share = total > 0 ? excl[node]! / total : 0;
      lines.push(
        `  ${(100 * share).toFixed(1).padStart(5)}%  ${formatValue(excl[node]!, metric.unit).padStart(10)}  ${tree.name(node)}${location(profile, node)}`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

function location(profile: Profile, node: number): string {
  const f = profile.tree.file(node);
  if (!f) return '';
  const l = profile.tree.line(node);
  return `  (${f}${l ? `:${l}` : ''})`;
}

main(process.argv.slice(2)).then(code => {
  process.exitCode = code;
});

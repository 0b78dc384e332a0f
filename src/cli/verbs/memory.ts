import { readMemoryDataset } from '../../analysis/formats/memory/memory-dataset';
import { prepareMemoryAnalysis } from '../../analysis/memory/memory-analysis';
import { memorySummary, type MemorySummary } from '../../analysis/memory/memory-summary';
import { formatCycles } from '../../analysis/memory/source-costs';
import { formatShare } from '../../analysis/stats/format';
import { parseArgs, UsageError, type Verb } from '../verb';

export const memoryVerb: Verb = {
  usage: `usage: hpc-lens memory [--json] [--topology FILE] PATH

Reads memory-access samples (a MemAxes or Mitos CSV file, perf script memory samples, or a MemAxes
run folder holding data/<samples> with hardware.xml beside it) and summarises the whole file:
samples and cycles, serving levels, top variables and lines by cycles, samples per PU and
per-depth imbalance over the machine topology.
  --json           print one JSON object (schema in the README)
  --topology FILE  the machine: MemAxes hardware.xml, hwloc XML (lstopo --of xml) or lscpu -p
                   (default: hardware.xml beside the samples or beside their data/ folder)`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json'], valued: ['topology'] });
    if (positional.length !== 1) throw new UsageError('memory reads exactly one PATH');
    const topology = flags.get('topology');
    const dataset = await readMemoryDataset(positional[0]!, {
      topology: typeof topology === 'string' ? topology : undefined,
    });
    const analysis = prepareMemoryAnalysis(dataset.samples, dataset.machine);
    for (const w of analysis.warnings) io.err(`hpc-lens memory: warning: ${w}\n`);
    const summary = memorySummary(analysis);
    io.out(
      flags.has('json')
        ? JSON.stringify(summary) + '\n'
        : textReport(summary, dataset.samples.path, dataset.topologyPath),
    );
    return 0;
  },
};

function textReport(s: MemorySummary, path: string, topologyPath: string | null): string {
  const lines: string[] = [];
  const share = (v: number, total: number) => formatShare(total > 0 ? v / total : 0).padStart(6);
  lines.push(path);
  lines.push(`  samples   ${s.samples} (${formatCycles(s.cycles)})`);
  lines.push(
    `  levels    ${Object.entries(s.levels)
      .map(([k, v]) => `${k} ${v}`)
      .join(' · ')}`,
  );
  const t = s.topology;
  lines.push(
    topologyPath
      ? `  topology  ${topologyPath}: ${t.numa} NUMA, ${t.l3} L3, ${t.l2} L2, ${t.l1} L1, ${t.pu} PUs`
      : '  topology  none (give --topology FILE for the hardware views)',
  );
  lines.push('', 'Top variables by cycles:');
  for (const v of s.topVariables)
    lines.push(
      `  ${share(v.cycles, s.cycles)}  ${formatCycles(v.cycles).padStart(11)}  ${String(v.samples).padStart(7)}  ${v.name}`,
    );
  lines.push('', 'Top lines by cycles:');
  for (const l of s.topLines)
    lines.push(
      `  ${share(l.cycles, s.cycles)}  ${formatCycles(l.cycles).padStart(11)}  ${String(l.samples).padStart(7)}  ${l.file}:${l.line}`,
    );
  if (s.imbalance.length) {
    lines.push('', 'Imbalance of samples per resource (I = max |s − μ| / σ):');
    for (const d of s.imbalance)
      lines.push(
        `  ${d.depth.padEnd(5)} I ${d.I.toFixed(2).padStart(5)}  CV ${d.cv.toFixed(2)}  max/mean ${d.maxOverMean.toFixed(2)}  Gini ${d.gini.toFixed(2)}  ${d.extreme ?? '(all equal)'}`,
      );
  }
  return lines.join('\n') + '\n';
}

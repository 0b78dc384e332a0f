import { readPdesRun } from '../../analysis/formats/ross/pdes-run-reader';
import { resolvePdesAnalysisOptions, type PdesAnalysisOptions } from '../../analysis/pdes/analysis-options';
import { pdesReportAnalyses } from '../../analysis/pdes/pdes-analysis';
import { pdesReport, type PdesReport } from '../../analysis/pdes/pdes-report';
import type { PdesRun } from '../../analysis/pdes/model/pdes-run';
import { parseArgs, UsageError, type Verb } from '../verb';

export const pdesVerb: Verb = {
  usage: `usage: hpc-lens pdes [--json] [options] DIR

Reads a ROSS / CODES output folder (ross.csv, *-gvt.bin, *-rt.bin, *-analysis-lps.bin,
*-evtrace.bin, ross_all_lp_stats/, CODES lp-io/, packet-latency/, router-timing/) or one ROSS
stats file, and prints its PDES summary: entities, event and rollback totals, samples per
sampling mode, the event trace and PE-to-PE communication, behaviour clusters and change points
(the PDES panel's analyses, with the hpcLens.pdes.* defaults), and dragonfly link counts.
  --json              print one JSON object (schema in the README; fields are absent when the folder lacks the file)
  --level L           entities clustered: pe, kp (default) or lp
  --axis A            time axis: gvt (default), rt or vt
  --metrics M,…       metrics clustered and segmented together (default secondary_rollbacks)
  --clustering C      k-means (default), pam or complete-linkage
  --k N               clusters (default 3)
  --distance D        euclidean (default), dtw or twed`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, {
      boolean: ['json'],
      valued: ['level', 'axis', 'metrics', 'clustering', 'k', 'distance'],
    });
    if (positional.length !== 1) throw new UsageError('pdes reads exactly one DIR');
    const options = analysisOptions(flags);
    const run = await readPdesRun(positional[0]!);
    let analyses: ReturnType<typeof pdesReportAnalyses>;
    try {
      analyses = pdesReportAnalyses(run, options);
    } catch (e) {
      // A metric the run's entities do not have (the only option checked against the run).
      if (e instanceof RangeError) throw new UsageError(`--metrics: ${e.message}`);
      throw e;
    }
    const report = await pdesReport(run, analyses);
    if (flags.has('json')) io.out(JSON.stringify(report) + '\n');
    else io.out(textReport(run, report));
    for (const w of run.warnings) io.err(`warning: ${w}\n`);
    return 0;
  },
};

/** The analysis options the flags set, checked like the settings (a bad value is a usage error). */
function analysisOptions(flags: Map<string, string | true>): Partial<PdesAnalysisOptions> {
  const text = (name: string) => {
    const v = flags.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const options: Partial<PdesAnalysisOptions> = {};
  if (text('level')) options.level = text('level') as PdesAnalysisOptions['level'];
  if (text('axis')) options.timeAxis = text('axis') as PdesAnalysisOptions['timeAxis'];
  if (text('metrics'))
    options.clusterMetrics = text('metrics')!
      .split(',')
      .map(m => m.trim())
      .filter(Boolean);
  if (text('clustering')) options.clustering = text('clustering') as PdesAnalysisOptions['clustering'];
  if (text('k')) options.clusters = Number(text('k'));
  if (text('distance')) options.distance = text('distance') as PdesAnalysisOptions['distance'];
  try {
    resolvePdesAnalysisOptions(options);
  } catch (e) {
    throw new UsageError(
      (e as Error).message.replace(/^hpcLens\.pdes\.(\w+)/, (_, key: string) => `--${FLAG_OF[key] ?? key}`),
    );
  }
  return options;
}

const FLAG_OF: Record<string, string> = { timeAxis: 'axis', clusterMetrics: 'metrics', clusters: 'k' };

function textReport(run: PdesRun, r: PdesReport): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [run.path, `  format    ross-codes (${run.command?.program || 'ROSS'})`];
  lines.push(`  entities  ${n(r.entities.pe)} PEs, ${n(r.entities.kp)} KPs, ${n(r.entities.lp)} LPs`);
  if (r.totals)
    lines.push(
      `  totals    ${n(r.totals.eventsProcessed)} events processed, ${n(r.totals.rollbacks)} rollbacks ` +
        `(${n(r.totals.primaryRollbacks)} primary, ${n(r.totals.secondaryRollbacks)} secondary)`,
    );
  if (r.samples)
    lines.push(
      `  samples   ${Object.entries(r.samples)
        .map(([mode, ticks]) => `${n(ticks)} ${mode.toUpperCase()}`)
        .join(', ')}`,
    );
  if (r.eventTrace)
    lines.push(
      `  trace     ${n(r.eventTrace.events)} events` +
        (r.eventTrace.sameProcessShare !== undefined
          ? `, ${(100 * r.eventTrace.sameProcessShare).toFixed(1)} % within a PE`
          : ''),
    );
  if (r.clusters)
    lines.push(`  clusters  ${r.clusters.map((c, i) => `${i}: ${n(c.members.length)}`).join(', ')} entities`);
  if (r.changePoints)
    lines.push(
      `  segments  ${r.changePoints.length ? `new segments at samples ${r.changePoints.join(', ')}` : 'one (no change point)'}`,
    );
  if (r.links)
    lines.push(
      `  links     ${n(r.links.total)} (${n(r.links.byType.CN)} CN, ${n(r.links.byType.L)} L, ${n(r.links.byType.G)} G)`,
    );
  if (r.communication) {
    lines.push('', 'Events sent, PE (row) to PE (column):');
    const width = Math.max(...r.communication.matrix.flat().map(v => n(v).length), 4);
    lines.push('        ' + r.communication.matrix.map((_, j) => `PE ${j}`.padStart(width)).join(' '));
    r.communication.matrix.forEach((row, i) =>
      lines.push(`  ${`PE ${i}`.padEnd(6)}${row.map(v => n(v).padStart(width)).join(' ')}`),
    );
  }
  return lines.join('\n') + '\n';
}

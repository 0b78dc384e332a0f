import { readPdesRun } from '../../analysis/formats/ross/pdes-run-reader';
import { pdesReport, type PdesReport } from '../../analysis/pdes/pdes-report';
import type { PdesRun } from '../../analysis/pdes/pdes-run';
import { parseArgs, UsageError, type Verb } from '../verb';

export const pdesVerb: Verb = {
  name: 'pdes',
  synopsis: 'pdes [--json] DIR',
  usage: `usage: hpc-lens pdes [--json] DIR

Reads a ROSS / CODES output folder (ross.csv, *-gvt.bin, *-rt.bin, *-analysis-lps.bin,
*-evtrace.bin, ross_all_lp_stats/, CODES lp-io/, packet-latency/, router-timing/) or one ROSS
stats file, and prints its PDES summary: entities, event and rollback totals, samples per
sampling mode, the event trace and PE-to-PE communication, and dragonfly link counts.
  --json  print one JSON object (schema in the README; fields are absent when the folder lacks the file)`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json'] });
    if (positional.length !== 1) throw new UsageError('pdes reads exactly one DIR');
    const run = await readPdesRun(positional[0]!);
    const report = await pdesReport(run);
    if (flags.has('json')) io.out(JSON.stringify(report) + '\n');
    else io.out(textReport(run, report));
    for (const w of run.warnings) io.err(`warning: ${w}\n`);
    return 0;
  },
};

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

import { formatValue } from '../stats/format';
import type { TraceAnalysis } from './analyze-trace';

/** `hpc-lens analyze-trace --json`: exactly these keys (times in seconds, segment bounds from the trace origin). */
export interface AnalyzeTraceReport {
  samplingPeriod: number | null;
  threads: number;
  runTime: number;
  clusters: { members: string[]; representative: string }[];
  loops: { name: string; file: string | null; line: number | null; iterations: number; accepted: boolean }[];
  significant: {
    path: string[];
    name: string;
    file: string | null;
    line: number | null;
    class: 'computation' | 'wait' | 'sync';
    imbalance: number;
    wait: number;
    maxCluster: number;
  }[];
  segments: { start: number | null; end: number | null; diagnosis: string; projectedSaving: number }[];
}

const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : null);

/** The CLI's JSON view of an analysis (the same analysis the editor's views show). */
export function analyzeTraceReport(a: TraceAnalysis): AnalyzeTraceReport {
  const laneName = (l: number) => a.lanes[l]!.name;
  return {
    samplingPeriod: a.samplingPeriod,
    threads: a.lanes.length,
    runTime: a.runTime,
    clusters: a.clusters.map(c => ({ members: c.members.map(laneName), representative: laneName(c.representative) })),
    loops: a.loops.map(l => ({
      name: l.name,
      file: l.file,
      line: l.line,
      iterations: l.iterations,
      accepted: l.accepted,
    })),
    significant: a.significant.map(s => ({
      path: s.path,
      name: s.name,
      file: s.file,
      line: s.line,
      class: s.class,
      imbalance: s.imbalance,
      wait: s.wait,
      maxCluster: s.maxCluster,
    })),
    segments: a.segments.map(s => ({
      start: seconds(s.startNs),
      end: seconds(s.endNs),
      diagnosis: s.diagnosis,
      projectedSaving: s.projectedSaving,
    })),
  };
}

/** A readable report for terminals. */
export function analyzeTraceText(a: TraceAnalysis, path: string): string {
  const s = (v: number) => formatValue(v, 's');
  const pct = (v: number) => `${((100 * v) / a.runTime).toFixed(2)} %`;
  const lines: string[] = [path];
  lines.push(
    `  ${a.lanes.length} lane${a.lanes.length === 1 ? '' : 's'} analysed, run time ${s(a.runTime)}, ` +
      (a.samplingPeriod === null ? 'instrumented (no sampling period)' : `sampling period ${s(a.samplingPeriod)}`),
  );
  lines.push('', `Clusters (${a.clusters.length}):`);
  a.clusters.forEach((c, k) => {
    const names = c.members.map(l => a.lanes[l]!.name);
    const shown = names.length > 8 ? `${names.slice(0, 8).join(', ')}, … (${names.length})` : names.join(', ');
    lines.push(`  #${k} ${a.roles[c.role]!.name}: ${shown}; representative ${a.lanes[c.representative]!.name}`);
  });
  lines.push('', 'Loops:');
  if (!a.loops.length) lines.push('  none found');
  for (const l of a.loops.slice(0, 20)) {
    const where = l.file ? ` (${l.file.split(/[\\/]/).pop()}${l.line ? `:${l.line}` : ''})` : '';
    lines.push(
      `  ${l.name}${where}: ${l.iterations} iteration${l.iterations === 1 ? '' : 's'} ${l.accepted ? 'accepted' : 'rejected (profile node)'}, ${(100 * l.share).toFixed(1)} % of the run`,
    );
  }
  lines.push('', `Significant call paths (${a.significant.length}):`);
  for (const p of a.significant.slice(0, 30))
    lines.push(
      `  ${p.class.padEnd(11)} imb ${s(p.imbalance).padStart(9)} (${pct(p.imbalance)})  wait ${s(p.wait).padStart(9)}  ${p.path.join(' › ')}`,
    );
  lines.push('', `Inefficient segments (${a.segments.length}):`);
  for (const g of a.segments.slice(0, 30))
    lines.push(
      `  ${s(g.startNs / 1e9)}–${s(g.endNs / 1e9)}: saving ${s(g.projectedSaving)} (${pct(g.projectedSaving)}). ${g.diagnosis}`,
    );
  if (a.notes.length) lines.push('', 'Notes:', ...a.notes.map(n => `  ${n}`));
  return lines.join('\n') + '\n';
}

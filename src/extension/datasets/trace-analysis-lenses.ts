import * as vscode from 'vscode';
import { formatSeconds } from '../../analysis/stats/format';
import type { PathView, TraceAnalysisView } from '../../analysis/timeseries/model/trace-analysis-view';
import type { LineLens } from './dataset';

/** Command of a lens click: the Trace Analysis panel with that path selected. */
export const REVEAL_TRACE_ANALYSIS_PATH = 'hpcLens.revealTraceAnalysisPath';

const percent = (v: number, runTime: number) => `${runTime > 0 ? ((100 * v) / runTime).toFixed(1) : '0'} % of run`;

/** `max in cluster {8–15}`, or `max on rank 3` for a one-lane cluster. */
function maxWhere(p: PathView, view: TraceAnalysisView): string {
  const c = view.clusters[p.maxCluster];
  if (!c) return p.maxLane ? vscode.l10n.t('max on {0}', p.maxLane) : '';
  return c.size === 1 ? vscode.l10n.t('max on {0}', c.label.short) : vscode.l10n.t('max in cluster {0}', c.label.short);
}

/** The lens title of the significant paths at one call site (one per iteration they occur in). */
export function callSiteLensTitle(paths: readonly PathView[], view: TraceAnalysisView): string {
  const top = paths.reduce((a, b) => (b.saving > a.saving ? b : a));
  const parts: string[] = [];
  if (top.byImbalance || !top.byWait)
    parts.push(
      vscode.l10n.t('imbalance {0} ({1})', formatSeconds(top.imbalance), percent(top.imbalance, view.runTime)),
    );
  if (top.byWait)
    parts.push(vscode.l10n.t('waiting {0} ({1})', formatSeconds(top.wait), percent(top.wait, view.runTime)));
  parts.push(top.class);
  const where = maxWhere(top, view);
  if (where) parts.push(where);
  if (paths.length > 1) {
    const total = paths.reduce((s, p) => s + p.saving, 0);
    parts.push(vscode.l10n.t('{0} paths, {1} in all', paths.length, formatSeconds(total)));
  }
  return `$(pulse) ${parts.join(' · ')}`;
}

function tooltip(paths: readonly PathView[], view: TraceAnalysisView): string {
  const top = paths.reduce((a, b) => (b.saving > a.saving ? b : a));
  const seg = view.segments[top.segment];
  const lines = [
    vscode.l10n.t('Trace analysis: {0}', top.path.join(' › ')),
    vscode.l10n.t(
      'min {0} · avg {1} · max {2} ({3}) over the lanes',
      formatSeconds(top.min),
      formatSeconds(top.avg),
      formatSeconds(top.max),
      top.maxLane ?? '–',
    ),
  ];
  if (seg) lines.push(seg.diagnosis);
  return lines.join('\n\n');
}

/** The lenses of an analysis, by recorded file: one per call site (file and line) of a significant path. */
export function traceAnalysisLenses(view: TraceAnalysisView): Map<string, LineLens[]> {
  const sites = new Map<string, PathView[]>();
  for (const p of view.paths) {
    if (!p.file || !p.line) continue;
    const key = `${p.file}\u0000${p.line}`;
    const list = sites.get(key);
    if (list) list.push(p);
    else sites.set(key, [p]);
  }
  const out = new Map<string, LineLens[]>();
  for (const paths of sites.values()) {
    const top = paths.reduce((a, b) => (b.saving > a.saving ? b : a));
    const list = out.get(top.file!) ?? [];
    const detail = tooltip(paths, view);
    list.push({
      line: top.line!,
      detail,
      content: {
        title: callSiteLensTitle(paths, view),
        tooltip: `${detail}\n\n${vscode.l10n.t('Click to show it in the Trace Analysis panel.')}`,
        command: REVEAL_TRACE_ANALYSIS_PATH,
        arguments: [top.index],
      },
    });
    out.set(top.file!, list);
  }
  return out;
}

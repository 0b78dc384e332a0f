import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatSeconds } from '../../analysis/stats/format';
import type { PathView, TraceAnalysisView } from '../../analysis/timeseries/model/trace-analysis-view';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import { AnalysisTreeProvider, type AnalysisEntry } from './analysis-tree';

export const TRACE_ANALYSIS_VIEW = 'hpcLens.traceAnalysis';

const CLASS_ICON: Record<PathView['class'], string> = {
  computation: 'symbol-operator',
  wait: 'watch',
  sync: 'sync',
};

function siteLabel(p: PathView): string {
  return p.file ? `${p.name} · ${path.basename(p.file)}${p.line ? `:${p.line}` : ''}` : p.name;
}

function pathRow(p: PathView, v: TraceAnalysisView): AnalysisEntry {
  const seg = v.segments[p.segment];
  return {
    label: p.iteration !== null ? vscode.l10n.t('iteration {0}', p.iteration + 1) : p.path.join(' › '),
    description: vscode.l10n.t('saves {0} · {1}', formatSeconds(p.saving), p.class),
    tooltip:
      `**${p.path.join(' › ')}**\n\n` +
      vscode.l10n.t(
        'imbalance {0} · waiting {1} · min {2} · avg {3} · max {4} ({5})',
        formatSeconds(p.imbalance),
        formatSeconds(p.wait),
        formatSeconds(p.min),
        formatSeconds(p.avg),
        formatSeconds(p.max),
        p.maxLane ?? '–',
      ) +
      (seg ? `\n\n${seg.diagnosis}` : ''),
    location: p.file ? { file: p.file, line: p.line, name: p.name } : null,
    icon: CLASS_ICON[p.class],
  };
}

/**
 * The significant call paths of the active trace's analysis by what fixing them would save (Table
 * 1's loss: imbalance + waiting), one row per call site; a site met in several iterations lists
 * them below it. A click opens the line.
 */
export function traceAnalysisRows(ds: Dataset): AnalysisEntry[] {
  const v = ds.traceAnalysis;
  if (!v) return [];
  const sites = new Map<string, PathView[]>();
  for (const p of v.paths) {
    const key = p.file ? `${p.file}:${p.line}:${p.name}` : p.path.join('\u0000');
    const list = sites.get(key);
    if (list) list.push(p);
    else sites.set(key, [p]);
  }
  const rows = [...sites.values()].map(paths => {
    const total = paths.reduce((s, p) => s + p.saving, 0);
    const top = paths.reduce((a, b) => (b.saving > a.saving ? b : a));
    const share = v.runTime > 0 ? ((100 * total) / v.runTime).toFixed(1) : '0';
    const row: AnalysisEntry = {
      ...pathRow(top, v),
      label: siteLabel(top),
      description: vscode.l10n.t('saves {0} ({1} % of run) · {2}', formatSeconds(total), share, top.class),
      ...(paths.length > 1 ? { children: paths.map(p => pathRow(p, v)) } : {}),
    };
    return { row, total };
  });
  return rows.sort((a, b) => b.total - a.total).map(r => r.row);
}

/** Sites met in several iterations open collapsed: a long loop lists many. */
class TraceAnalysisTreeProvider extends AnalysisTreeProvider {
  override getTreeItem(e: AnalysisEntry): vscode.TreeItem {
    const item = super.getTreeItem(e);
    if (e.children?.length) item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
    return item;
  }
}

/** Registers the Trace Analysis view; its rows follow the active dataset and the analyses that arrive for it. */
export function registerTraceAnalysisView(profiles: DatasetManager): {
  provider: AnalysisTreeProvider;
  disposables: vscode.Disposable[];
} {
  const provider = new TraceAnalysisTreeProvider(profiles, traceAnalysisRows);
  const view = vscode.window.createTreeView(TRACE_ANALYSIS_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  let subs: vscode.Disposable[] = [];
  const follow = (d: Dataset | undefined) => {
    subs.forEach(s => s.dispose());
    subs = d ? [...new Set([d, d.wholeRun])].map(x => x.onDidChangeOverlays(() => provider.refresh())) : [];
  };
  follow(profiles.active);
  const describe = () => {
    const v = profiles.active?.traceAnalysis;
    view.message = v
      ? v.paths.length
        ? undefined
        : vscode.l10n.t('The analysis found no significant imbalance or waiting.')
      : vscode.l10n.t('Run HPC Lens: Analyse Trace to list where time is lost to imbalance and waiting.');
  };
  describe();
  return {
    provider,
    disposables: [
      provider,
      view,
      profiles.onDidChange(follow),
      provider.onDidRefresh(describe),
      { dispose: () => subs.forEach(s => s.dispose()) },
    ],
  };
}

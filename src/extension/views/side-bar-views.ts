import * as path from 'node:path';
import * as vscode from 'vscode';
import { contextNoun } from '../../analysis/model/context';
import type { Profile } from '../../analysis/model/profile';
import { formatShare, formatValue } from '../../analysis/stats/format';
import type { HotPath } from '../../analysis/stats/hot-path';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import type { SideBarLists } from '../../service/derived-data';
import { AnalysisTreeProvider, type AnalysisEntry } from './analysis-tree';

/** View ids, kept in step with package.json by the integration tests. */
export const SideBarView = {
  hotPaths: 'hpcLens.hotPaths',
  topLines: 'hpcLens.topLines',
  topFunctions: 'hpcLens.topFunctions',
  imbalance: 'hpcLens.imbalance',
} as const;
export type SideBarViewId = (typeof SideBarView)[keyof typeof SideBarView];

function nodeLocation(p: Profile, node: number): AnalysisEntry['location'] {
  const file = p.tree.file(node);
  return file ? { file, line: p.tree.line(node), name: p.tree.name(node) } : null;
}

function where(file: string | null, line: number | null): string {
  return file ? `\n\n${file}${line ? `:${line}` : ''}` : '';
}

function metricOf(lp: Dataset) {
  return lp.metricDescriptor;
}

/** hpcviewer's hot path from each heavy root, one expanded chain per root. */
function hotPaths(lp: Dataset, s: SideBarLists): AnalysisEntry[] {
  const p = lp.profile;
  const { unit, label } = metricOf(lp);
  const chain = (path: HotPath, k: number): AnalysisEntry[] => {
    const step = path[k];
    if (!step) return [];
    const name = p.tree.name(step.node);
    return [
      {
        label: name,
        description: `${formatShare(step.share)} · ${formatValue(step.inclusive, unit)}`,
        tooltip: `**${name}**: ${formatValue(step.inclusive, unit)} inclusive (${formatShare(step.share)}), ${formatValue(step.exclusive, unit)} exclusive ${label}${where(p.tree.file(step.node), p.tree.line(step.node))}`,
        location: nodeLocation(p, step.node),
        icon: k === path.length - 1 ? 'flame' : 'arrow-small-right',
        children: chain(path, k + 1),
      },
    ];
  };
  return s.hotPaths.flatMap(path => chain(path, 0));
}

function lines(lp: Dataset, s: SideBarLists): AnalysisEntry[] {
  const p = lp.profile;
  const { unit } = metricOf(lp);
  return s.topLines.map(e => ({
    label: `${path.basename(e.file)}:${e.line}`,
    description: `${formatShare(e.share)} · ${formatValue(e.exclusive, unit)}${e.calls > 0 ? ` · calls ${formatValue(e.calls, unit)}` : ''}`,
    tooltip:
      `**${e.file}:${e.line}**\n\n${formatValue(e.exclusive, unit)} on this line, ${formatValue(e.calls, unit)} in calls made from it` +
      (p.contextCount > 1
        ? `\n\nper ${contextNoun(p.contexts)}: min ${formatValue(e.contexts.min, unit)} · mean ${formatValue(e.contexts.mean, unit)} · max ${formatValue(e.contexts.max, unit)} (${p.contexts[e.contexts.maxContext]!.label})`
        : ''),
    location: { file: e.file, line: e.line, name: `${path.basename(e.file)}:${e.line}` },
    icon: 'symbol-number',
  }));
}

function functions(lp: Dataset, s: SideBarLists): AnalysisEntry[] {
  const { unit } = metricOf(lp);
  return s.topFunctions.map(e => ({
    label: e.name,
    description: `${formatShare(e.share)} · ${formatValue(e.exclusive, unit)}`,
    tooltip: `**${e.name}**: ${formatValue(e.exclusive, unit)} exclusive, ${formatValue(e.inclusive, unit)} inclusive${where(e.file, e.line)}`,
    location: e.file ? { file: e.file, line: e.line, name: e.name } : null,
    icon: 'symbol-function',
  }));
}

/**
 * Functions ranked by max/mean of their inclusive value across ranks. By function, not by call-tree
 * node: threads and ranks often reach the same function along different paths (a thread's entry
 * point vs main), and per node each path then looks idle on all but one rank.
 */
function imbalance(lp: Dataset, s: SideBarLists): AnalysisEntry[] {
  const p = lp.profile;
  if (p.contextCount < 2) return [];
  const { unit } = metricOf(lp);
  return s.imbalance.map((e, k) => {
    const frame = s.imbalanceFrames[k]!;
    return {
      label: e.name,
      description: `${e.imbalance.toFixed(2)}× · max on ${p.contexts[e.maxContext]!.label}`,
      tooltip:
        `**${e.name}**: max/mean ${e.imbalance.toFixed(2)}× over ${p.contextCount} ${contextNoun(p.contexts)}\n\nmin ${formatValue(e.min, unit)} · mean ${formatValue(e.mean, unit)} · max ${formatValue(e.max, unit)} (${p.contexts[e.maxContext]!.label}) · ${formatShare(e.share)} of the total` +
        (frame >= 0 ? where(p.tree.file(frame), p.tree.line(frame)) : ''),
      location: frame >= 0 ? nodeLocation(p, frame) : null,
      icon: 'warning',
    };
  });
}

/** The analysis views of the side bar: each view's data provider and its tree view (which reveals and selects rows). */
export interface SideBarViews {
  providers: Map<SideBarViewId, AnalysisTreeProvider>;
  views: Map<SideBarViewId, vscode.TreeView<AnalysisEntry>>;
  disposables: vscode.Disposable[];
}

/** Registers the four analysis views of the HPC Lens side bar. */
export function registerSideBarViews(profiles: DatasetManager): SideBarViews {
  const views: [SideBarViewId, (lp: Dataset, s: SideBarLists) => AnalysisEntry[]][] = [
    [SideBarView.hotPaths, hotPaths],
    [SideBarView.topLines, lines],
    [SideBarView.topFunctions, functions],
    [SideBarView.imbalance, imbalance],
  ];
  const providers = new Map<SideBarViewId, AnalysisTreeProvider>();
  // The lists come with the overlays' derivation; a changed setting recomputes them in the service.
  for (const [id, format] of views)
    providers.set(id, new AnalysisTreeProvider(profiles, async ds => format(ds, await ds.sideBarLists())));
  const treeViews = new Map<SideBarViewId, vscode.TreeView<AnalysisEntry>>();
  for (const [id, provider] of providers)
    treeViews.set(
      id,
      vscode.window.createTreeView(id, { treeDataProvider: provider, showCollapseAll: id === SideBarView.hotPaths }),
    );
  return { providers, views: treeViews, disposables: [...providers.values(), ...treeViews.values()] };
}

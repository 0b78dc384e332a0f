import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CallTree } from '../../analysis/model/call-tree';
import { DataMovementKind } from '../../analysis/model/trace';
import {
  deviceLabel,
  directionSummary,
  type DataMovementSite,
  type DirectionTotals,
} from '../../analysis/stats/data-movement-sites';
import { formatBytes, formatCount, formatSeconds } from '../../analysis/stats/format';
import type { DatasetManager } from '../datasets/dataset-manager';
import type { Dataset } from '../datasets/dataset';
import type { DmvFlag } from '../../analysis/dmv/flags';
import { FLAG_LABELS } from '../../shared/dmv-protocol';
import { AnalysisTreeProvider, type AnalysisEntry } from './analysis-tree';
import { markdownText as esc } from './markdown-text';

export const DATA_MOVEMENT_VIEW = 'hpcLens.dataMovement';
/** Context key that shows the view: the active dataset has copies. */
const HAS_DATA_MOVEMENT = 'hpcLens.hasDataMovement';

const LIST_LENGTH = 50;
/** Frames of a call path shown in its row (the tooltip has all of them). */
const PATH_FRAMES = 3;

function siteLabel(s: DataMovementSite): string {
  return s.file ? `${path.basename(s.file)}:${s.line}` : s.name;
}

function sizeRange(d: DirectionTotals): string {
  return d.minBytes === d.maxBytes
    ? vscode.l10n.t('each {0}', formatBytes(d.minBytes))
    : vscode.l10n.t('{0} … {1} each', formatBytes(d.minBytes), formatBytes(d.maxBytes));
}

function directionRow(s: DataMovementSite, d: DirectionTotals, location: AnalysisEntry['location']): AnalysisEntry {
  return {
    label: d.label,
    description: directionSummary(d).slice(d.label.length + 1),
    tooltip:
      vscode.l10n.t(
        '**{0}** from {1}: {2} × ({3}), {4} in {5}',
        d.label,
        esc(siteLabel(s)),
        d.count,
        sizeRange(d),
        formatBytes(d.bytes),
        formatSeconds(d.durationNs * 1e-9),
      ) +
      (d.bandwidth !== null ? vscode.l10n.t(', {0}/s achieved', formatBytes(d.bandwidth)) : '') +
      vscode.l10n.t('\n\ndevices: {0}', d.devices.map(x => esc(deviceLabel(x))).join(', ')),
    location,
    icon:
      d.kind === DataMovementKind.HostToDevice
        ? 'arrow-right'
        : d.kind === DataMovementKind.DeviceToHost
          ? 'arrow-left'
          : d.kind === DataMovementKind.Memset
            ? 'symbol-constant'
            : 'arrow-swap',
  };
}

/** The frame of a copy's call path that is the site (its line, or its function for a site without one). */
function siteFrame(tree: CallTree, s: DataMovementSite, copyNode: number): number {
  for (let n = copyNode; n >= 0; n = tree.parent(n)) {
    if (s.file ? tree.file(n) === s.file && tree.line(n) === s.line : tree.name(n) === s.name) return n;
  }
  return s.node;
}

/** The frames above a path's site frame, outermost first, and the nearest of them with a location (where a click on the path leads). */
function callers(tree: CallTree, frame: number): { frames: string[]; caller: number } {
  const frames: string[] = [];
  let caller = -1;
  for (let n = tree.parent(frame); n >= 0; n = tree.parent(n)) {
    frames.push(tree.name(n));
    if (caller < 0 && tree.file(n) !== null) caller = n;
  }
  return { frames: frames.reverse(), caller };
}

function siteEntry(lp: Dataset, s: DataMovementSite): AnalysisEntry {
  const tree = lp.profile.tree;
  const location: AnalysisEntry['location'] = s.file ? { file: s.file, line: s.line, name: s.name } : null;
  const dominant = s.directions[0]!;
  const more = s.directions.length - 1;
  const paths: AnalysisEntry[] = s.paths.map(p => {
    const frame = siteFrame(tree, s, p.node);
    const { frames, caller } = callers(tree, frame);
    const shown = frames.length > PATH_FRAMES ? ['…', ...frames.slice(-PATH_FRAMES)] : frames;
    const below = tree.path(p.node).slice(frames.length + 1);
    return {
      label: [...shown, s.name].join(' › '),
      description: `${formatBytes(p.bytes)} · ${p.count}×`,
      tooltip:
        `**${vscode.l10n.t('Issuing call path')}** (${
          p.count === 1
            ? vscode.l10n.t(
                '{0} in {1} operation, {2}',
                formatBytes(p.bytes),
                p.count,
                formatSeconds(p.durationNs * 1e-9),
              )
            : vscode.l10n.t(
                '{0} in {1} operations, {2}',
                formatBytes(p.bytes),
                p.count,
                formatSeconds(p.durationNs * 1e-9),
              )
        })\n\n` +
        [...frames.map(esc), `**${esc(s.name)}**${s.file ? ` (${esc(siteLabel(s))})` : ''}`, ...below.map(esc)]
          .map(f => `- ${f}`)
          .join('\n'),
      location: caller >= 0 ? { file: tree.file(caller)!, line: tree.line(caller), name: tree.name(caller) } : location,
      icon: 'call-incoming',
    };
  });
  return {
    label: siteLabel(s),
    description: `${dominant.label} ${formatBytes(dominant.bytes)} · ${dominant.count}×${more ? ` · ${vscode.l10n.t('+{0} more', more)}` : ''}`,
    tooltip:
      `${vscode.l10n.t('**{0}** in {1}', esc(siteLabel(s)), esc(s.name))}${s.file ? `\n\n${esc(s.file)}:${s.line}` : vscode.l10n.t(' (no source location on the call path: grouped by the launching function)')}\n\n` +
      s.directions.map(d => `- ${directionSummary(d)} (${sizeRange(d)})`).join('\n'),
    location,
    icon: 'arrow-swap',
    children: [...s.directions.map(d => directionRow(s, d, location)), ...paths],
  };
}

/** The icon that marks the flags' group (and tells it from the sites). */
export const FLAGS_ICON = 'warning';

/**
 * A flag's Markdown tooltip. Names and paths come from the trace (a kernel or file may contain `*`,
 * `_`, `<`…), so every one is escaped: only our own emphasis is Markdown.
 */
export function flagTooltip(f: DmvFlag): string {
  const where = f.file
    ? esc(`${f.file}${f.line !== null ? `:${f.line}` : ''}`)
    : vscode.l10n.t('{0} (no source line)', esc(f.name));
  const span = `${formatSeconds(f.start * 1e-9)} – ${formatSeconds(f.end * 1e-9)}`;
  return `${vscode.l10n.t('**{0}** at {1}', esc(FLAG_LABELS[f.kind]), where)}\n\n${esc(f.message)}\n\n${span}`;
}

function flagEntry(f: DmvFlag): AnalysisEntry {
  const site = f.file ? `${path.basename(f.file)}${f.line !== null ? `:${f.line}` : ''}` : f.name;
  const amount =
    f.kind === 'uvm-fault-storm'
      ? vscode.l10n.t('{0} faults', formatCount(f.count))
      : `${formatCount(f.count)}× · ${formatBytes(f.bytes)}`;
  return {
    label: vscode.l10n.t('{0} · {1}', FLAG_LABELS[f.kind], site),
    description: amount,
    tooltip: flagTooltip(f),
    location: f.file ? { file: f.file, line: f.line, name: f.name } : null,
    icon: FLAGS_ICON,
  };
}

/**
 * The flags first (the anti-patterns DMV found, each on its issuing line), then the issuing sites.
 * Flags that cannot be computed (bad category rules) leave the sites alone.
 */
async function dataMovementRows(ds: Dataset): Promise<AnalysisEntry[]> {
  if (!ds.profile.trace?.dataMovement.kind.length && !ds.profile.trace?.pageFaults?.start.length) return [];
  const [sites, flags] = await Promise.all([ds.dataMovementSites(), ds.dataMovementFlags().catch(() => [])]);
  const rows = sites.sites.slice(0, LIST_LENGTH).map(s => siteEntry(ds, s));
  if (flags.length === 0) return rows;
  const kinds = [...new Set(flags.map(f => FLAG_LABELS[f.kind].toLowerCase()))];
  return [
    {
      label: vscode.l10n.t('{0} data-movement flags', flags.length),
      description: kinds.join(', '),
      tooltip: vscode.l10n.t(
        'Data-movement anti-patterns found in the trace, on the lines that issue them. Show Data Movement draws them on the clock.',
      ),
      location: null,
      icon: FLAGS_ICON,
      children: flags.map(flagEntry),
    },
    ...rows,
  ];
}

/** The flags and the first site open expanded, the other sites collapsed: a trace can issue copies from many places. */
class DataMovementTreeProvider extends AnalysisTreeProvider {
  override getTreeItem(e: AnalysisEntry): vscode.TreeItem {
    const item = super.getTreeItem(e);
    const firstSite = this.entries.findIndex(r => r.icon !== FLAGS_ICON);
    const i = this.entries.indexOf(e);
    if (e.children?.length && i >= 0 && i !== firstSite && e.icon !== FLAGS_ICON)
      item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
    return item;
  }
}

/**
 * The Data Movement view: copies grouped by the source line (or, without one, the function) that
 * issues them, most bytes first; under each, its directions and the call paths that issue the most
 * bytes. Shown only while the active dataset has data movement; a click opens the line.
 */
export function registerDataMovementView(profiles: DatasetManager): {
  provider: AnalysisTreeProvider;
  disposables: vscode.Disposable[];
} {
  const provider = new DataMovementTreeProvider(profiles, dataMovementRows);
  const setContext = () =>
    void vscode.commands.executeCommand('setContext', HAS_DATA_MOVEMENT, provider.entries.length > 0);
  setContext();
  return {
    provider,
    disposables: [
      provider,
      provider.onDidRefresh(setContext),
      vscode.window.createTreeView(DATA_MOVEMENT_VIEW, { treeDataProvider: provider, showCollapseAll: true }),
    ],
  };
}

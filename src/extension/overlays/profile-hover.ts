import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DmvFlag } from '../../analysis/dmv/flags';
import type { LineCost } from '../../analysis/model/aggregates';
import { findFunctionDefinition } from '../../analysis/source/function-definitions';
import { callersCallees, type CallEdge } from '../../analysis/stats/callers-callees';
import { formatBytes, formatSeconds, formatShare, formatValue } from '../../analysis/stats/format';
import { dataMovementFrom, nodeSetValues, type DataMovementByKind } from '../../analysis/stats/line-details';
import { md } from '../../analysis/stats/summary-export';
import { FLAG_LABELS } from '../../shared/dmv-protocol';
import type { Dataset, HoverSubject } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import { overlaysEnabled } from '../settings';
import { cachedFunctionTotals } from './overlay-cache';
import { SOURCE_CHANGED, type DocumentLines, type SourceEdits } from './source-edits';
import { code } from './spread-markdown';

/** Callers and callees listed per hover; the rest are counted. */
const EDGES_SHOWN = 5;
/** Where the profile's costs sit in one file: lines by profiled number and function definitions by 0-based document line. */
interface FileIndex {
  version: number;
  map: DocumentLines;
  lines: Map<number, LineCost>;
  definitions: Map<number, number>;
}

/**
 * The hover on a profiled line or function definition: every metric (inclusive and exclusive,
 * with shares), how the cost spreads (over ranks, or over runs for an ensemble: the dataset's own
 * section), top callers and callees, and the bytes copied from there when the profile has a trace.
 * Per file, the line and definition index is built on first hover and kept per (dataset, metric,
 * document version). Lines are looked up through SourceEdits, so the hover follows the user's
 * edits; when the file no longer matches the profile, a hover on line 1 says why the overlays are gone.
 */
export class ProfileHoverProvider implements vscode.HoverProvider {
  private readonly index = new WeakMap<Dataset, Map<string, FileIndex>>();

  constructor(
    private readonly datasets: DatasetManager,
    private readonly edits: SourceEdits,
  ) {}

  async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
    const ds = this.datasets.active;
    if (!ds || !overlaysEnabled()) return undefined;
    if (pos.line === 0 && ds.overlayFor(doc.uri) && this.edits.staleReason(doc.uri)) {
      return new vscode.Hover(
        new vscode.MarkdownString(
          `**HPC Lens:** ${vscode.l10n.t(
            '{0} ({1}): most of the lines it measured in this file were edited or replaced, so its overlays are hidden here. Undo the changes or revert the file to see them again.',
            SOURCE_CHANGED,
            md(ds.name),
          )}`,
        ),
      );
    }
    const ix = this.fileIndex(ds, doc);
    const subject = ix ? this.subjectAt(ds, ix, pos.line) : undefined;
    const wordRange = doc.getWordRangeAtPosition(pos);
    const word = wordRange ? doc.getText(wordRange) : undefined;
    const flags = subject?.kind === 'line' ? ds.lineFlags(doc.uri, subject.line) : [];
    const text = await ds.hover({ subject, fileName: path.basename(doc.uri.fsPath), word, flags });
    // A trace analysis's significant call site on this line: what its CodeLens says, in full.
    const map = this.edits.linesOf(doc);
    const sites = map ? ds.lineLenses(doc.uri).filter(l => l.detail && map.current(l.line) === pos.line) : [];
    if (!text && !sites.length) return undefined;
    const out = text ?? new vscode.MarkdownString();
    for (const s of sites)
      out.appendMarkdown(`${out.value ? '\n\n---\n\n' : ''}${s.detail!.split('\n\n').map(md).join('\n\n')}`);
    return new vscode.Hover(out, subject || sites.length ? doc.lineAt(pos.line).range : wordRange);
  }

  private fileIndex(ds: Dataset, doc: vscode.TextDocument): FileIndex | undefined {
    const overlay = ds.overlayFor(doc.uri);
    const map = this.edits.linesOf(doc);
    if (!overlay || !map) return undefined;
    let perFile = this.index.get(ds);
    if (!perFile) this.index.set(ds, (perFile = new Map()));
    const key = `${ds.metric}|${doc.uri.toString()}`;
    const cached = perFile.get(key);
    if (cached && cached.version === doc.version && cached.map === map) return cached;
    const lines = new Map(overlay.lines.map(l => [l.line, l]));
    const definitions = new Map<number, number>();
    const text = doc.getText();
    for (const fn of overlay.functions) {
      // The line the CodeLens sits on (code-lens.ts places it the same way).
      const near = fn.near !== null ? map.current(fn.near) : undefined;
      let line = findFunctionDefinition(text, ds.functions.names[fn.index]!, near);
      if (line < 0) line = near ?? -1;
      if (line >= 0 && !definitions.has(line)) definitions.set(line, fn.index);
    }
    const ix = { version: doc.version, map, lines, definitions };
    perFile.set(key, ix);
    return ix;
  }

  private subjectAt(ds: Dataset, ix: FileIndex, line0: number): HoverSubject | undefined {
    const fn = ix.definitions.get(line0);
    if (fn !== undefined) return { kind: 'function', fn };
    const profiled = ix.map.profiled(line0);
    const lc = profiled === undefined ? undefined : ix.lines.get(profiled);
    if (!lc || lc.nodes.length === 0) return undefined;
    const owner = ds.functions.functionOfNode[lc.nodes[0]!]!;
    return { kind: 'line', line: lc.line, at: line0 + 1, nodes: lc.nodes, owner };
  }
}

/** The hover's Markdown, or undefined when the subject carries no cost and moves no data. */
export async function hoverMarkdown(
  ds: Dataset,
  subject: HoverSubject,
  fileName: string,
  flags: readonly DmvFlag[] = [],
): Promise<vscode.MarkdownString | undefined> {
  const p = ds.profile;
  const m = ds.metric;
  const fnName = (f: number) => (f >= 0 ? ds.functions.names[f]! : undefined);

  // Per metric: inclusive and exclusive of the line's nodes or of the function.
  const rows = p.metrics.map((desc, k) => {
    const total = ds.metricTotals[k] ?? 0;
    let v: { inclusive: number; exclusive: number };
    if (subject.kind === 'line') v = nodeSetValues(p, k, subject.nodes);
    else {
      const t = cachedFunctionTotals(p, k);
      const f = t.names.indexOf(ds.functions.names[subject.fn]!);
      v = f < 0 ? { inclusive: 0, exclusive: 0 } : { inclusive: t.inclusive[f]!, exclusive: t.exclusive[f]! };
    }
    return { desc, k, total, ...v };
  });
  const dm = p.trace?.dataMovement;
  const moved =
    dm && dm.kind.length > 0
      ? dataMovementFrom(dm, p.tree, new Set(subject.kind === 'line' ? subject.nodes : functionNodes(ds, subject.fn)))
      : [];
  if (rows.every(r => r.inclusive === 0 && r.exclusive === 0) && moved.length === 0) return undefined;

  const out = new vscode.MarkdownString();
  const owner = subject.kind === 'line' ? fnName(subject.owner) : fnName(subject.fn)!;
  out.appendMarkdown(
    subject.kind === 'line'
      ? `**${md(fileName)}:${subject.at}**${owner ? ` ${vscode.l10n.t('in {0}', code(owner))}` : ''}${subject.at !== subject.line ? ` · ${vscode.l10n.t('line {0} in the profile', subject.line)}` : ''}`
      : `**${code(owner!)}** · ${vscode.l10n.t('function')}`,
  );
  out.appendMarkdown('\n\n');

  // The metric table: the selected metric first and in bold.
  const share = (v: number, total: number) => (total > 0 ? formatShare(v / total) : '–');
  const shareHeading = vscode.l10n.t('share');
  out.appendMarkdown(
    `| ${vscode.l10n.t('metric')} | ${vscode.l10n.t('inclusive')} | ${shareHeading} | ${vscode.l10n.t('exclusive')} | ${shareHeading} |\n|:--|--:|--:|--:|--:|\n`,
  );
  for (const r of [rows[m]!, ...rows.filter(r => r.k !== m)]) {
    const b = (s: string) => (r.k === m ? `**${s}**` : s);
    out.appendMarkdown(
      `| ${b(md(r.desc.label))} | ${b(formatValue(r.inclusive, r.desc.unit))} | ${share(r.inclusive, r.total)} | ${formatValue(r.exclusive, r.desc.unit)} | ${share(r.exclusive, r.total)} |\n`,
    );
  }
  out.appendMarkdown('\n');

  // How the cost spreads: over ranks, or over runs (the dataset's own section).
  out.appendMarkdown(await ds.hoverSpread(subject));

  // Callers and callees of the function (for a line: of the function it belongs to).
  const f = subject.kind === 'line' ? subject.owner : subject.fn;
  const cc = f >= 0 ? callersCallees(p, m, f, ds.functions) : null;
  if (cc && (cc.callers.length || cc.callees.length)) {
    const list = (edges: CallEdge[], fromLine: number | null) => {
      const shown = edges.slice(0, EDGES_SHOWN).map(e => {
        const here = fromLine !== null && e.callLines.includes(fromLine) ? ` ${vscode.l10n.t('← this line')}` : '';
        const calls = e.calls !== null ? `, ${vscode.l10n.t('{0} calls', formatValue(e.calls, 'count'))}` : '';
        return `${code(e.name)} ${formatShare(e.share)}${calls}${here}`;
      });
      if (edges.length > EDGES_SHOWN) shown.push(vscode.l10n.t('{0} more', edges.length - EDGES_SHOWN));
      return shown.join(' · ');
    };
    const line = subject.kind === 'line';
    const callers = line ? vscode.l10n.t('Callers of {0}:', code(cc.name)) : vscode.l10n.t('Callers:');
    const callees = line ? vscode.l10n.t('Callees of {0}:', code(cc.name)) : vscode.l10n.t('Callees:');
    if (cc.callers.length) out.appendMarkdown(`**${callers}** ${list(cc.callers, null)}\n\n`);
    if (cc.callees.length)
      out.appendMarkdown(`**${callees}** ${list(cc.callees, subject.kind === 'line' ? subject.line : null)}\n\n`);
  }

  if (moved.length) {
    const heading =
      subject.kind === 'line'
        ? vscode.l10n.t('Data movement from this line')
        : vscode.l10n.t('Data movement from this function');
    out.appendMarkdown(
      `**${heading}**\n\n| ${vscode.l10n.t('direction')} | ${vscode.l10n.t('bytes')} | ${vscode.l10n.t('copies')} | ${vscode.l10n.t('time')} |\n|:--|--:|--:|--:|\n`,
    );
    for (const d of moved) out.appendMarkdown(dataMovementRow(d));
    out.appendMarkdown('\n');
  }
  if (flags.length) out.appendMarkdown(flagsMarkdown(flags));
  out.appendMarkdown(`*HPC Lens · ${md(ds.name)}*`);
  return out;
}

/** The data-movement flags (DMV's anti-patterns) issued from the line; trace names in them are escaped. */
export function flagsMarkdown(flags: readonly DmvFlag[]): string {
  const rows = flags.map(
    f =>
      `- ⚠ **${md(FLAG_LABELS[f.kind])}**: ${md(f.message)} (${formatSeconds(f.start * 1e-9)} – ${formatSeconds(f.end * 1e-9)})`,
  );
  return `**${vscode.l10n.t('Data-movement flags on this line')}**\n\n${rows.join('\n')}\n\n`;
}

function dataMovementRow(d: DataMovementByKind): string {
  return `| ${d.kind} | ${formatBytes(d.bytes)} | ${d.count} | ${formatSeconds(d.durationNs * 1e-9)} |\n`;
}

/** Every call-tree node the function owns (its frames and their statements and loops). */
function functionNodes(ds: Dataset, fn: number): number[] {
  const owner = ds.functions.functionOfNode;
  const out: number[] = [];
  for (let i = 0; i < owner.length; i++) if (owner[i] === fn) out.push(i);
  return out;
}

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LineCost } from '../../analysis/model/aggregates';
import { contextNoun } from '../../analysis/model/context';
import { findFunctionDefinition } from '../../analysis/source/function-definitions';
import { callersCallees, type CallEdge } from '../../analysis/stats/callers-callees';
import { formatBytes, formatSeconds, formatShare, formatValue } from '../../analysis/stats/format';
import { functionRows } from '../../analysis/stats/function-rows';
import {
  dataMovementFrom,
  nodeSetByContext,
  nodeSetValues,
  spreadOf,
  type DataMovementByKind,
} from '../../analysis/stats/line-details';
import { distributionOf, sortedBarSparkline } from '../../analysis/stats/rank-distribution';
import { md } from '../../analysis/stats/summary-export';
import type { EnsembleProfile } from '../../analysis/ensemble/ensemble-profile';
import type { MetricDescriptor } from '../../analysis/model/metric';
import { ensembleComparisonText } from '../ensembles/ensemble-comparison-text';
import { isEnsemble } from '../ensembles/ensemble-dataset';
import type { ProfileManager } from '../profile-manager';
import { spreadText } from './code-lens';
import type { LoadedProfile } from '../profile-session';
import { overlaysEnabled } from '../settings';
import { cachedFunctionTotals } from './overlay-cache';
import { SOURCE_CHANGED, type DocumentLines, type SourceEdits } from './source-edits';

/** Callers and callees listed per hover; the rest are counted. */
const EDGES_SHOWN = 5;
/** Sparkline fill: an explicit colour (images get no theme colour), readable on light and dark. */
const SPARKLINE_COLOR = '#e8772b';

/** Where the profile's costs sit in one file: lines by profiled number and function definitions by 0-based document line. */
interface FileIndex {
  version: number;
  map: DocumentLines;
  lines: Map<number, LineCost>;
  definitions: Map<number, number>;
}

/** What a hover is about: the nodes of one line, or one function. */
type Subject =
  /** `line`: as the profile records it; `at`: 1-based in the document now (differs after edits). */
  { kind: 'line'; line: number; at: number; nodes: number[]; owner: number } | { kind: 'function'; fn: number };

/**
 * The hover on a profiled line or function definition: every metric (inclusive and exclusive,
 * with shares), the spread over ranks with a sorted-bar sparkline, top callers and callees, and
 * the bytes copied from there when the profile has a trace. Per file, the line and definition
 * index is built on first hover and kept per (profile, metric, document version). Lines are looked
 * up through SourceEdits, so the hover follows the user's edits; when the file no longer matches
 * the profile, a hover on line 1 says why the overlays are gone.
 */
export class ProfileHoverProvider implements vscode.HoverProvider {
  private readonly index = new WeakMap<LoadedProfile, Map<string, FileIndex>>();

  constructor(
    private readonly profiles: ProfileManager,
    private readonly edits: SourceEdits,
  ) {}

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const lp = this.profiles.active;
    if (!lp || !overlaysEnabled()) return undefined;
    if (pos.line === 0 && lp.overlayFor(doc.uri) && this.edits.staleReason(doc.uri)) {
      return new vscode.Hover(
        new vscode.MarkdownString(
          `**HPC Lens:** ${SOURCE_CHANGED} (${md(lp.name)}): most of the lines it measured in this file were edited or replaced, so its overlays are hidden here. Undo the changes or revert the file to see them again.`,
        ),
      );
    }
    const ix = this.fileIndex(lp, doc);
    if (!ix) return undefined;
    const subject = this.subjectAt(lp, ix, pos.line);
    if (!subject) return undefined;
    const text = hoverMarkdown(lp, subject, path.basename(doc.uri.fsPath));
    return text ? new vscode.Hover(text, doc.lineAt(pos.line).range) : undefined;
  }

  private fileIndex(lp: LoadedProfile, doc: vscode.TextDocument): FileIndex | undefined {
    const overlay = lp.overlayFor(doc.uri);
    const map = this.edits.linesOf(doc);
    if (!overlay || !map) return undefined;
    let perFile = this.index.get(lp);
    if (!perFile) this.index.set(lp, (perFile = new Map()));
    const key = `${lp.metric}|${doc.uri.toString()}`;
    const cached = perFile.get(key);
    if (cached && cached.version === doc.version && cached.map === map) return cached;
    const lines = new Map(overlay.lines.map(l => [l.line, l]));
    const definitions = new Map<number, number>();
    const text = doc.getText();
    for (const fn of overlay.functions) {
      // The line the CodeLens sits on (code-lens.ts places it the same way).
      const near = fn.near !== null ? map.current(fn.near) : undefined;
      let line = findFunctionDefinition(text, lp.functions.names[fn.index]!, near);
      if (line < 0) line = near ?? -1;
      if (line >= 0 && !definitions.has(line)) definitions.set(line, fn.index);
    }
    const ix = { version: doc.version, map, lines, definitions };
    perFile.set(key, ix);
    return ix;
  }

  private subjectAt(lp: LoadedProfile, ix: FileIndex, line0: number): Subject | undefined {
    const fn = ix.definitions.get(line0);
    if (fn !== undefined) return { kind: 'function', fn };
    const profiled = ix.map.profiled(line0);
    const lc = profiled === undefined ? undefined : ix.lines.get(profiled);
    if (!lc || lc.nodes.length === 0) return undefined;
    const owner = lp.functions.functionOfNode[lc.nodes[0]!]!;
    return { kind: 'line', line: lc.line, at: line0 + 1, nodes: lc.nodes, owner };
  }
}

/** The hover's Markdown, or undefined when the subject carries no cost and moves no data. */
export function hoverMarkdown(
  lp: LoadedProfile,
  subject: Subject,
  fileName: string,
): vscode.MarkdownString | undefined {
  const p = lp.profile;
  const m = lp.metric;
  const metric = p.metrics[m]!;
  const fnName = (f: number) => (f >= 0 ? lp.functions.names[f]! : undefined);

  // Per metric: inclusive and exclusive of the line's nodes or of the function.
  const rows = p.metrics.map((desc, k) => {
    const total = p.total(k);
    let v: { inclusive: number; exclusive: number };
    if (subject.kind === 'line') v = nodeSetValues(p, k, subject.nodes);
    else {
      const t = cachedFunctionTotals(p, k);
      const f = t.names.indexOf(lp.functions.names[subject.fn]!);
      v = f < 0 ? { inclusive: 0, exclusive: 0 } : { inclusive: t.inclusive[f]!, exclusive: t.exclusive[f]! };
    }
    return { desc, k, total, ...v };
  });
  const dm = p.trace?.dataMovement;
  const moved =
    dm && dm.kind.length > 0
      ? dataMovementFrom(dm, p.tree, new Set(subject.kind === 'line' ? subject.nodes : functionNodes(lp, subject.fn)))
      : [];
  if (rows.every(r => r.inclusive === 0 && r.exclusive === 0) && moved.length === 0) return undefined;

  const out = new vscode.MarkdownString();
  const owner = subject.kind === 'line' ? fnName(subject.owner) : fnName(subject.fn)!;
  out.appendMarkdown(
    subject.kind === 'line'
      ? `**${md(fileName)}:${subject.at}**${owner ? ` in ${code(owner)}` : ''}${subject.at !== subject.line ? ` · line ${subject.line} in the profile` : ''}`
      : `**${code(owner!)}** · function`,
  );
  out.appendMarkdown('\n\n');

  // The metric table: the selected metric first and in bold.
  const share = (v: number, total: number) => (total > 0 ? formatShare(v / total) : '–');
  out.appendMarkdown('| metric | inclusive | share | exclusive | share |\n|:--|--:|--:|--:|--:|\n');
  for (const r of [rows[m]!, ...rows.filter(r => r.k !== m)]) {
    const b = (s: string) => (r.k === m ? `**${s}**` : s);
    out.appendMarkdown(
      `| ${b(md(r.desc.label))} | ${b(formatValue(r.inclusive, r.desc.unit))} | ${share(r.inclusive, r.total)} | ${formatValue(r.exclusive, r.desc.unit)} | ${share(r.exclusive, r.total)} |\n`,
    );
  }
  out.appendMarkdown('\n');

  // Spread over contexts of the selected metric (inclusive), with the sorted-bar sparkline.
  const C = p.contextCount;
  const ensemble = isEnsemble(lp) ? lp.ensemble : undefined;
  if (ensemble)
    out.appendMarkdown(
      `*Values above: sums over the ${ensemble.runCount} runs of each run's mean over its ranks; shares are of the ensemble's total.*\n\n`,
    );
  if (isEnsemble(lp)) {
    // The Ensemble CallFlow panel's diff or target, for the function (of the line).
    const f = subject.kind === 'line' ? subject.owner : subject.fn;
    const compared = f >= 0 ? ensembleComparisonText(lp, metric, lp.functions.names[f]!) : undefined;
    if (compared) out.appendMarkdown(`${compared.markdown}\n\n`);
  }
  if (ensemble)
    out.appendMarkdown(
      ensembleSpreadMarkdown(
        ensemble,
        metric,
        subject.kind === 'line' ? { nodes: subject.nodes } : { fn: lp.functions.names[subject.fn]! },
      ),
    );
  else if (C > 1) {
    const values =
      subject.kind === 'line'
        ? nodeSetByContext(p, m, subject.nodes, 'inclusive')
        : functionRows(p, m, cachedFunctionTotals(p, m), [subject.fn], 'inclusive');
    const s = spreadOf(values);
    const noun = contextNoun(p.contexts);
    const fv = (v: number) => formatValue(v, metric.unit);
    const dist = distributionOf(values);
    const svg = sortedBarSparkline(dist.sorted, {
      width: 160,
      height: 28,
      color: SPARKLINE_COLOR,
      title: `${metric.label} per ${noun.replace(/s$/, '')}, sorted: ${fv(s.min)} … ${fv(s.max)}`,
    });
    const uri = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
    out.appendMarkdown(`**${md(metric.label)} across ${C} ${noun}** (inclusive, sorted)\n\n`);
    out.appendMarkdown(`![${md(metric.label)} per ${noun}, sorted](${uri})\n\n`);
    out.appendMarkdown(
      `min ${fv(s.min)} · mean ${fv(s.mean)} · max ${fv(s.max)} on ${md(p.contexts[s.maxContext]!.label)} · imbalance ${s.imbalance.toFixed(2)}× max/mean\n\n`,
    );
  }

  // Callers and callees of the function (for a line: of the function it belongs to).
  const f = subject.kind === 'line' ? subject.owner : subject.fn;
  const cc = f >= 0 ? callersCallees(p, m, f, lp.functions) : null;
  if (cc && (cc.callers.length || cc.callees.length)) {
    const list = (edges: CallEdge[], fromLine: number | null) => {
      const shown = edges.slice(0, EDGES_SHOWN).map(e => {
        const here = fromLine !== null && e.callLines.includes(fromLine) ? ' ← this line' : '';
        const calls = e.calls !== null ? `, ${formatValue(e.calls, 'count')} calls` : '';
        return `${code(e.name)} ${formatShare(e.share)}${calls}${here}`;
      });
      if (edges.length > EDGES_SHOWN) shown.push(`${edges.length - EDGES_SHOWN} more`);
      return shown.join(' · ');
    };
    const of = subject.kind === 'line' ? ` of ${code(cc.name)}` : '';
    if (cc.callers.length) out.appendMarkdown(`**Callers${of}:** ${list(cc.callers, null)}\n\n`);
    if (cc.callees.length)
      out.appendMarkdown(`**Callees${of}:** ${list(cc.callees, subject.kind === 'line' ? subject.line : null)}\n\n`);
  }

  if (moved.length) {
    out.appendMarkdown(
      `**Data movement from this ${subject.kind}**\n\n| direction | bytes | copies | time |\n|:--|--:|--:|--:|\n`,
    );
    for (const d of moved) out.appendMarkdown(dataMovementRow(d));
    out.appendMarkdown('\n');
  }
  out.appendMarkdown(`*HPC Lens · ${md(lp.name)}*`);
  return out;
}

/** A name as inline code (Markdown escapes do not apply inside code spans). */
function code(name: string): string {
  return `\`${name.replace(/`/g, "'").replace(/\r\n|\r|\n/g, ' ')}\``;
}

function dataMovementRow(d: DataMovementByKind): string {
  return `| ${d.kind} | ${formatBytes(d.bytes)} | ${d.count} | ${formatSeconds(d.durationNs * 1e-9)} |\n`;
}

/** Every call-tree node the function owns (its frames and their statements and loops). */
function functionNodes(lp: LoadedProfile, fn: number): number[] {
  const owner = lp.functions.functionOfNode;
  const out: number[] = [];
  for (let i = 0; i < owner.length; i++) if (owner[i] === fn) out.push(i);
  return out;
}

/** Per-run values listed in an ensemble hover before they are only summarised. */
const RUNS_LISTED = 8;

/**
 * An ensemble hover's run-to-run section: the per-run values (mean over each run's ranks) of the
 * function or the line's nodes as a sorted sparkline, the spread, and the slowest and fastest runs.
 * Runs without the function or line are left out (and counted), never drawn as zeros.
 */
function ensembleSpreadMarkdown(
  ep: EnsembleProfile,
  metric: MetricDescriptor,
  of: { fn: string } | { nodes: number[] },
): string {
  const e = ep.ensembleOf(metric.name);
  let values: Float64Array | null;
  if ('fn' in of) values = ep.functionValues(metric.name, of.fn);
  else {
    values = new Float64Array(e.runCount).fill(NaN);
    for (const u of of.nodes) {
      for (let r = 0; r < e.runCount; r++) {
        const v = e.value(u, r, 'inclusive');
        if (v === v) values[r] = values[r]! === values[r]! ? values[r]! + v : v;
      }
    }
  }
  if (!values) return '';
  const runs = Array.from(values, (v, r) => ({ run: e.runs[r]!.name, v }))
    .filter(x => x.v === x.v)
    .sort((a, b) => a.v - b.v);
  if (runs.length === 0) return '';
  const fv = (v: number) => formatValue(v, metric.unit);
  const sorted = Float64Array.from(runs, x => x.v);
  const svg = sortedBarSparkline(sorted, {
    width: 160,
    height: 28,
    color: SPARKLINE_COLOR,
    title: `${metric.label} per run, sorted: ${fv(sorted[0]!)} … ${fv(sorted[sorted.length - 1]!)}`,
  });
  const uri = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
  let text = `**${md(metric.label)} across ${runs.length} of ${e.runCount} runs** (inclusive, mean over each run's ranks, sorted)\n\n`;
  text += `![${md(metric.label)} per run, sorted](${uri})\n\n`;
  const spread = 'fn' in of ? ep.spreads(metric.name).get(of.fn) : undefined;
  if (spread) text += `${md(spreadText(spread, metric.unit))}\n\n`;
  const slowest = runs[runs.length - 1]!,
    fastest = runs[0]!;
  text += `slowest ${code(slowest.run)} ${fv(slowest.v)} · fastest ${code(fastest.run)} ${fv(fastest.v)}${runs.length < e.runCount ? ` · missing in ${e.runCount - runs.length} run${e.runCount - runs.length === 1 ? '' : 's'}` : ''}\n\n`;
  if (runs.length <= RUNS_LISTED) {
    text += '| run | value |\n|:--|--:|\n';
    for (const x of [...runs].reverse()) text += `| ${md(x.run)} | ${fv(x.v)} |\n`;
    text += '\n';
  }
  return text;
}

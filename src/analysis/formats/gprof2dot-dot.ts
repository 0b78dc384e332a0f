import { quoteContent } from '../errors/escape-control';
import { unfoldCallGraph } from '../graph/unfold-call-graph';
import { CallGraphBuilder } from '../model/call-graph';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { DotParser, DotSyntaxError, type DotAttributes } from './gprof2dot-dot/dot-parser';
import { forEachLine } from './io/file-input';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
import { gprof2dotDotSniffer } from './sniffers/gprof2dot-dot';

/**
 * The DOT call graphs gprof2dot draws from gprof, callgrind, perf, … profiles:
 *
 *   "id" [label="[module\n]name\ntotal%\n(self%)\ncalls×", …];
 *   "id" -> "id2" [label="total%\ncalls×", …];
 *
 * Node labels give each function's total and self time as percentages of the run; edge labels
 * the share of the run spent in the callee on behalf of the caller. The file is a call graph
 * (with recursion and shared callees), kept as `profile.callGraph` (functions keyed by DOT node id,
 * named by the label's function name); the call tree is unfolded from it with the edge
 * percentages as arc costs (graph/unfold-call-graph.ts). Values stay percentages (unit `%`).
 */

/** A percentage like `12.34%` (gprof2dot writes two decimals). */
const PERCENT = /^(\d+(?:\.\d+)?(?:e[+-]?\d+)?)%$/i;
const SELF_PERCENT = /^\((\d+(?:\.\d+)?(?:e[+-]?\d+)?)%\)$/i;
const CALLS = /^(\d+)\s*[×x]$/;

export interface NodeLabel {
  module: string | null;
  name: string;
  total: number;
  self: number;
  calls: number;
}

/** Splits a DOT label into its lines (`\n`, `\l` and `\r` end lines). */
function labelLines(label: string): string[] {
  const lines = label.split(/\\[nlr]/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Reads gprof2dot's node label: `[module,] name, total %, (self %), calls ×` (the last two may be
 * missing). A name wrapped over several lines (gprof2dot --wrap) cannot be told from a module, so
 * more than two lines before the percentage are read as the module and a wrapped name.
 */
export function parseNodeLabel(label: string): NodeLabel | null {
  const lines = labelLines(label);
  const t = lines.findIndex(l => PERCENT.test(l));
  if (t < 1) return null;
  const total = Number(PERCENT.exec(lines[t]!)![1]);
  let k = t + 1;
  let self = NaN,
    calls = NaN;
  const s = k < lines.length ? SELF_PERCENT.exec(lines[k]!) : null;
  if (s) {
    self = Number(s[1]);
    k++;
  }
  const c = k < lines.length ? CALLS.exec(lines[k]!) : null;
  if (c) {
    calls = Number(c[1]);
    k++;
  }
  if (k !== lines.length) return null;
  const before = lines.slice(0, t);
  return before.length === 1
    ? { module: null, name: before[0]!, total, self, calls }
    : { module: before[0]!, name: before.slice(1).join(''), total, self, calls };
}

/** Reads gprof2dot's edge label `total%\ncalls×` (either part may be missing). */
export function parseEdgeLabel(label: string | undefined): { cost: number; calls: number } | null {
  if (label === undefined) return { cost: NaN, calls: NaN };
  let cost = NaN,
    calls = NaN;
  for (const line of labelLines(label)) {
    const p = PERCENT.exec(line),
      c = CALLS.exec(line);
    if (p && Number.isNaN(cost)) cost = Number(p[1]);
    else if (c && Number.isNaN(calls)) calls = Number(c[1]);
    else if (line.trim() !== '') return null;
  }
  return { cost, calls };
}

class Gprof2dotHandler {
  readonly graph: CallGraphBuilder;
  private readonly labelled = new Set<number>();
  edges = 0;

  constructor(
    private readonly path: string,
    builder: ProfileBuilder,
  ) {
    this.graph = new CallGraphBuilder(builder.tree.strings, 1);
  }

  private fn(id: string): number {
    return this.graph.function(id, { id, name: id });
  }

  node(id: string, attrs: DotAttributes, line: number): void {
    const f = this.fn(id);
    const label = attrs.get('label');
    if (label === undefined) return;
    const parsed = parseNodeLabel(label);
    if (!parsed)
      throw new ProfileReadError(
        this.path,
        `line ${line}: the label of node ${quoteContent(id)} is not gprof2dot's ([module\\n]name\\ntotal%\\n(self%)\\ncalls×): ${quoteContent(label)}`,
      );
    if (this.labelled.has(f))
      throw new ProfileReadError(this.path, `line ${line}: node ${quoteContent(id)} is labelled twice`);
    this.labelled.add(f);
    // The builder was created with the id as name; the label's name is what a user wants to see.
    this.graph.rename(f, parsed.name, parsed.module);
    this.graph.addSelf(f, 0, Number.isNaN(parsed.self) ? 0 : parsed.self);
    this.graph.addTotal(f, 0, parsed.total);
    if (!Number.isNaN(parsed.calls)) this.graph.addCalls(f, parsed.calls);
  }

  edge(from: string, to: string, attrs: DotAttributes, line: number): void {
    const label = parseEdgeLabel(attrs.get('label'));
    if (!label)
      throw new ProfileReadError(
        this.path,
        `line ${line}: the label of edge ${quoteContent(from)} -> ${quoteContent(to)} is not gprof2dot's (total%\\ncalls×): ${quoteContent(attrs.get('label')!)}`,
      );
    this.graph.addArc(this.fn(from), this.fn(to), label.calls, 0, [label.cost]);
    this.edges++;
  }

  unlabelled(): string[] {
    const out: string[] = [];
    for (let f = 0; f < this.graph.functionCount; f++) if (!this.labelled.has(f)) out.push(this.graph.key(f));
    return out;
  }
}

export const gprof2dotDotReader: ProfileReader = {
  ...gprof2dotDotSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const b = new ProfileBuilder('gprof2dot-dot', path);
    const handler = new Gprof2dotHandler(path, b);
    const parser = new DotParser(handler);
    try {
      await forEachLine(path, line => parser.feedLine(line), {
        signal: options.signal,
        limits: options.limits,
        onProgress: f => options.onProgress?.(0.8 * f, 'Reading the DOT graph'),
      });
      parser.end();
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      if (e instanceof DotSyntaxError) throw new ProfileReadError(path, `not valid DOT (${e.message})`, { cause: e });
      throw e;
    }
    throwIfAborted(options.signal);
    if (!parser.directed) throw new ProfileReadError(path, 'an undirected graph: gprof2dot writes "digraph"');
    const unlabelled = handler.unlabelled();
    if (handler.graph.functionCount > 0 && unlabelled.length === handler.graph.functionCount) {
      throw new ProfileReadError(
        path,
        'no node has a gprof2dot label (name, total %, self %, calls): not a gprof2dot graph',
      );
    }
    if (unlabelled.length)
      b.warnings.push(
        `${unlabelled.length} nodes have no label and count as 0 % (${unlabelled.slice(0, 5).join(', ')}${unlabelled.length > 5 ? ', …' : ''})`,
      );

    const metric = b.addMetric({
      name: 'time',
      label: 'Time (% of the run)',
      sourceKeys: ['self %'],
      unit: '%',
      kind: 'exclusive',
      aggregation: 'sum',
    });
    const graph = handler.graph.finish();
    b.callGraph = graph;
    b.metadata['gprof2dot.nodes'] = graph.functions.name.length;
    b.metadata['gprof2dot.edges'] = handler.edges;
    options.onProgress?.(0.8, 'Unfolding the call graph');
    unfoldCallGraph(b, graph, { metrics: [metric], context: b.context({}), signal: options.signal });
    options.onProgress?.(1);
    return b.build(metric);
  },
};

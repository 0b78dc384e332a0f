import { quoteContent } from '../errors/escape-control';
import { CallGraphUnfolder } from '../graph/unfold-call-graph';
import { CallGraphBuilder } from '../model/call-graph';
import type { MetricDescriptor } from '../model/metric';
import type { MetadataValue, Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { forEachLine } from './io/file-input';
import { type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
import { callgrindSniffer } from './sniffers/callgrind';

/**
 * Valgrind callgrind output (`callgrind.out.<pid>`, callgrind format version 1; cachegrind's older
 * files are a subset). Header lines `key: value` (`events:`, `positions:`, `summary:`, `totals:`,
 * `part:`, `thread:`, …), then body lines:
 *
 *   ob= fl= fi= fe= fn=     object, file, inlined file, function of the following cost lines
 *   <positions> <costs>     self cost at a position (`line`, or `instr line`; `+N`/`-N`/`*` are
 *                           relative to the previous position, `0x…` is hex)
 *   cob= cfi=/cfl= cfn=     object, file and function of the next call
 *   calls=<n> <target>      then one cost line: the call's position and inclusive cost
 *
 * Names may be compressed: `(id) name` defines an id (one id space each for objects, files and
 * functions), `(id)` refers to it. Several parts (combined dumps) add up; parts of different
 * threads (`thread:`) become separate contexts.
 *
 * The file is a call graph; it is kept as `profile.callGraph` and the tree is unfolded from it
 * (graph/unfold-call-graph.ts), with each call's inclusive cost as the arc cost. Functions are
 * nodes with their object as module, their self cost by source line becomes statement children,
 * and each called function carries the line of its call. Callgrind's recursion levels (`f'2`,
 * from --separate-recs) are one function: the unfolding keeps recursion inside the outer call.
 */

/** Header keys of the format; other `key: value` lines are ignored, as the format asks. */
const HEADER = /^([a-z]+):\s?(.*)$/;
const SPEC = /^([a-z]+)=(.*)$/;
const RECURSION_LEVEL = /'\d+$/;
/** Time-like event names, preferred as the primary metric (callgrind counts events; time is rare). */
const TIME_EVENT = /^(?:cpu[ _-]?)?time$/i;

class CallgrindParser {
  readonly builders = new Map<number, CallGraphBuilder>();
  readonly metadata: Record<string, MetadataValue> = {};
  readonly descriptions: Record<string, MetadataValue> = {};
  events: string[] | null = null;
  readonly eventLabels = new Map<string, string>();
  positions: string[] = ['line'];
  lineColumn = 0;
  summary: number[] | null = null;
  totals: number[] | null = null;
  parts = 0;
  threaded = false;
  /** Every thread named by a `thread:` line, with costs or not. */
  readonly threads = new Set<number>();
  sawBody = false;

  private thread = 0;
  private graph: CallGraphBuilder | null = null;
  private readonly objects = new Map<number, string>();
  private readonly files = new Map<number, string>();
  private readonly functions = new Map<number, string>();
  private ob = '';
  private fl = '';
  private costFile = 0;
  private costFileName = '';
  private fn = -1;
  private cob: string | null = null;
  private cfi: string | null = null;
  private cfn: string | null = null;
  private callCount = -1;
  private skipPositionLine = false;
  private last = new Float64Array(1);
  private readonly pos = new Float64Array(3);
  private costs = new Float64Array(0);
  private readonly targetLine: Map<number, number>[] = [];
  private readonly minLine: Map<number, number>[] = [];
  private lineNumber = 0;

  constructor(
    private readonly path: string,
    private readonly builder: ProfileBuilder,
  ) {}

  private fail(reason: string): never {
    throw new ProfileReadError(this.path, `line ${this.lineNumber}: ${reason}`);
  }

  line(text: string, n: number): void {
    this.lineNumber = n;
    const c = text.charCodeAt(0);
    if (Number.isNaN(c) || c === 35 /* # */) return;
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) return this.costLine(text);
    if (this.callCount >= 0) this.fail('"calls=" must be followed by the cost line of the call');
    if (this.skipPositionLine) this.fail('"jump=" or "jcnd=" must be followed by a position line');
    let m = SPEC.exec(text);
    if (m) return this.spec(m[1]!, m[2]!);
    m = HEADER.exec(text);
    if (m) return this.header(m[1]!, m[2]!.trim());
    if (text.trim() === '') return;
    this.fail(`not a line of the callgrind format: ${quoteContent(text)}`);
  }

  private header(key: string, value: string): void {
    switch (key) {
      case 'version':
        if (!/^1(?:\.\d+)?$/.test(value))
          throw new ProfileReadError(
            this.path,
            `unsupported callgrind format version ${quoteContent(value)} (HPC Lens reads version 1)`,
          );
        this.metadata['callgrind.version'] = value;
        return;
      case 'creator':
      case 'cmd':
      case 'pid':
        this.metadata[`callgrind.${key}`] = value;
        return;
      case 'part':
        this.parts++;
        return;
      case 'thread': {
        const t = Number(value);
        if (!Number.isInteger(t) || t < 0) this.fail(`bad thread number ${quoteContent(value)}`);
        this.threaded = true;
        this.threads.add(t);
        this.thread = t;
        this.graph = null;
        return;
      }
      case 'desc': {
        const i = value.indexOf(':');
        if (i > 0) this.descriptions[value.slice(0, i).trim()] = value.slice(i + 1).trim();
        return;
      }
      case 'positions': {
        const p = value.split(/\s+/).filter(Boolean);
        const known = ['instr', 'bb', 'line'];
        if (p.length === 0 || p.some(x => !known.includes(x)))
          this.fail(`unsupported positions ${quoteContent(value)} (expected instr, bb and/or line)`);
        this.positions = p;
        this.lineColumn = p.indexOf('line');
        this.last = new Float64Array(p.length);
        return;
      }
      case 'events': {
        const e = value.split(/\s+/).filter(Boolean);
        if (e.length === 0) this.fail('"events:" lists no events');
        if (this.events && this.events.join(' ') !== e.join(' '))
          this.fail(`parts with different events (${this.events.join(' ')} / ${e.join(' ')}) are not supported`);
        this.events = e;
        this.costs = new Float64Array(e.length);
        return;
      }
      case 'event': {
        // `event: Ir : Instruction Fetch` names an event; `event: Sum = Ir + Dr` derives one (not read).
        const m = /^(\S+)\s*:\s*(.+)$/.exec(value);
        if (m) this.eventLabels.set(m[1]!, m[2]!.trim());
        return;
      }
      case 'summary':
      case 'totals': {
        const v = value.split(/\s+/).filter(Boolean).map(Number);
        if (v.some(x => !Number.isFinite(x) || x < 0)) this.fail(`bad ${key} ${quoteContent(value)}`);
        const acc = key === 'summary' ? (this.summary ??= []) : (this.totals ??= []);
        v.forEach((x, i) => {
          acc[i] = (acc[i] ?? 0) + x;
        });
        return;
      }
      default:
        return; // unknown header lines are ignored
    }
  }

  /** `(id) name` defines a compressed name, `(id)` refers to one; anything else is the name itself. */
  private name(value: string, map: Map<number, string>, what: string): string {
    if (value.charCodeAt(0) !== 40 /* ( */ || !(value.charCodeAt(1) >= 48 && value.charCodeAt(1) <= 57)) return value;
    const close = value.indexOf(')');
    const id = close > 0 ? Number(value.slice(1, close)) : NaN;
    if (!Number.isInteger(id)) this.fail(`bad compressed ${what} ${quoteContent(value)}`);
    const rest = value.slice(close + 1).trim();
    if (rest) {
      map.set(id, rest);
      return rest;
    }
    const known = map.get(id);
    if (known === undefined) this.fail(`${what} (${id}) is used before it is defined`);
    return known;
  }

  private spec(key: string, value: string): void {
    switch (key) {
      case 'ob':
        this.ob = this.name(value, this.objects, 'object');
        this.resetFunction();
        return;
      case 'fl':
        this.fl = this.name(value, this.files, 'file');
        this.resetFunction();
        return;
      case 'fi':
      case 'fe':
        this.costFileName = this.name(value, this.files, 'file');
        this.costFile = this.fileId(this.costFileName);
        return;
      case 'fn': {
        if (!this.events) this.fail('a function before the "events:" line');
        this.resetFunction();
        this.fn = this.functionIndex(this.ob, this.fl, this.name(value, this.functions, 'function'));
        return;
      }
      case 'cob':
        this.cob = this.name(value, this.objects, 'object');
        return;
      case 'cfi':
      case 'cfl':
        this.cfi = this.name(value, this.files, 'file');
        return;
      case 'cfn':
        this.cfn = this.name(value, this.functions, 'function');
        return;
      case 'calls': {
        if (this.fn < 0) this.fail('"calls=" outside a function');
        if (this.cfn === null) this.fail('"calls=" without "cfn=" naming the called function');
        const sp = value.search(/\s/);
        const count = Number(sp < 0 ? value : value.slice(0, sp));
        if (!Number.isFinite(count) || count < 0) this.fail(`bad call count ${quoteContent(value)}`);
        // The target position (the callee's first line) is relative to the last position but does not move it.
        const target = this.positionsOf(sp < 0 ? '' : value.slice(sp + 1), false, true);
        // Without cfi= the callee is in the file of the current cost lines (callgrind omits it when equal).
        const callee = this.functionIndex(this.cob ?? this.ob, this.cfi ?? this.costFileName, this.cfn);
        if (this.lineColumn >= 0 && target > 0 && !this.targetLine[this.thread]!.has(callee))
          this.targetLine[this.thread]!.set(callee, target);
        this.callCount = count;
        this.callee = callee;
        return;
      }
      case 'jump':
      case 'jcnd':
        this.skipPositionLine = true;
        return;
      // jfi=, jfn= (jump targets), rec=, frfn= (context names), bb=, ln= (dump-bbs) carry no cost.
      case 'jfi':
      case 'jfn':
      case 'rec':
      case 'frfn':
      case 'bb':
      case 'ln':
        return;
      default:
        return;
    }
  }

  private callee = -1;

  private get strings() {
    return this.builder.tree.strings;
  }

  private fileId(name: string): number {
    return name === '???' || name === '' ? 0 : this.strings.intern(name);
  }

  /** A new function (or object or file) starts: positions restart and costs go to its own file. */
  private resetFunction(): void {
    this.fn = -1;
    this.costFileName = this.fl;
    this.costFile = this.fileId(this.fl);
    this.last.fill(0);
    this.cob = this.cfi = this.cfn = null;
  }

  private currentGraph(): CallGraphBuilder {
    if (this.graph) return this.graph;
    let g = this.builders.get(this.thread);
    if (!g) {
      g = new CallGraphBuilder(this.strings, this.events!.length);
      this.builders.set(this.thread, g);
      this.targetLine[this.thread] = new Map();
      this.minLine[this.thread] = new Map();
    }
    return (this.graph = g);
  }

  private functionIndex(ob: string, file: string, rawName: string): number {
    const name = rawName.replace(RECURSION_LEVEL, '');
    const g = this.currentGraph();
    const key = `${ob}\u0000${file}\u0000${name}`;
    const f = g.find(key);
    if (f >= 0) return f;
    return g.function(key, { name, file: file === '???' ? null : file, module: ob === '???' || ob === '' ? null : ob });
  }

  /**
   * Parses the positions at the start of `text` into this.pos and returns the line (0 = none) and
   * the offset of the rest. `update` moves the last position (cost lines do, call lines do not).
   */
  private positionsOf(text: string, update: boolean, whole: boolean): number {
    const P = this.positions.length;
    let i = 0;
    for (let k = 0; k < P; k++) {
      while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
      const start = i;
      while (i < text.length && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) i++;
      const tok = text.slice(start, i);
      let v: number;
      if (tok === '*') v = this.last[k]!;
      else if (tok.charCodeAt(0) === 43 || tok.charCodeAt(0) === 45) {
        const d = parseNumber(tok.slice(1));
        if (Number.isNaN(d)) this.fail(`bad position ${quoteContent(tok)}`);
        v = this.last[k]! + (tok.charCodeAt(0) === 45 ? -d : d);
      } else {
        v = parseNumber(tok);
        if (Number.isNaN(v))
          this.fail(
            tok === ''
              ? `a line with fewer than ${P} positions (${this.positions.join(' ')})`
              : `bad position ${quoteContent(tok)}`,
          );
      }
      if (v < 0) this.fail(`position ${quoteContent(tok)} is negative`);
      this.pos[k] = v;
    }
    if (whole && text.slice(i).trim() !== '')
      this.fail(`unexpected ${quoteContent(text.slice(i).trim())} after the positions`);
    if (update) for (let k = 0; k < P; k++) this.last[k] = this.pos[k]!;
    this.restOffset = i;
    return this.lineColumn >= 0 ? this.pos[this.lineColumn]! : 0;
  }

  private restOffset = 0;

  private costLine(text: string): void {
    if (this.skipPositionLine) {
      this.skipPositionLine = false;
      this.positionsOf(text, false, true);
      return;
    }
    if (!this.events) this.fail('a cost line before the "events:" line');
    if (this.fn < 0) this.fail('a cost line outside a function (no "fn=" before it)');
    this.sawBody = true;
    const call = this.callCount >= 0;
    const line = this.positionsOf(text, !call, false);
    const costs = this.costs;
    const E = costs.length;
    costs.fill(0);
    let i = this.restOffset,
      k = 0;
    const n = text.length;
    for (;;) {
      while (i < n && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
      if (i >= n) break;
      if (k === E) this.fail(`more costs than the ${E} events (${this.events.join(' ')})`);
      let v = 0,
        digits = 0;
      for (; i < n; i++, digits++) {
        const d = text.charCodeAt(i) - 48;
        if (d < 0 || d > 9) break;
        v = v * 10 + d;
      }
      if (digits === 0 || (i < n && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9))
        this.fail(`bad cost ${quoteContent(text.slice(i - digits).split(/\s/)[0]!)}`);
      costs[k++] = v;
    }
    const g = this.currentGraph();
    if (call) {
      g.addArc(this.fn, this.callee, this.callCount, line, costs);
      this.callCount = -1;
      this.cob = this.cfi = this.cfn = null;
      return;
    }
    for (let m = 0; m < E; m++) g.addSelf(this.fn, m, costs[m]!);
    if (line > 0) {
      g.addLineCosts(this.fn, this.costFile, line, costs);
      if (this.costFile === g.fileId(this.fn)) {
        const min = this.minLine[this.thread]!;
        const seen = min.get(this.fn);
        if (seen === undefined || line < seen) min.set(this.fn, line);
      }
    }
  }

  finish(): void {
    if (this.callCount >= 0) this.fail('the file ends after "calls=" without the cost line of the call (truncated?)');
    if (!this.events) throw new ProfileReadError(this.path, 'not a callgrind profile: no "events:" line');
    const creator = this.metadata['callgrind.creator'];
    if (this.totals === null && typeof creator === 'string' && creator.startsWith('callgrind')) {
      throw new ProfileReadError(this.path, 'no "totals:" line at the end, which callgrind always writes (truncated?)');
    }
    // A function's line: where calls enter it, else its first line with cost in its own file.
    for (const [thread, g] of this.builders) {
      for (let f = 0; f < g.functionCount; f++) {
        const line = this.targetLine[thread]!.get(f) ?? this.minLine[thread]!.get(f);
        if (line && !g.line(f)) g.setLocation(f, null, line);
      }
    }
  }
}

function parseNumber(tok: string): number {
  if (tok === '') return NaN;
  if (tok.startsWith('0x') || tok.startsWith('0X'))
    return /^0[xX][0-9a-fA-F]+$/.test(tok) ? parseInt(tok.slice(2), 16) : NaN;
  return /^\d+$/.test(tok) ? Number(tok) : NaN;
}

export const callgrindReader: ProfileReader = {
  ...callgrindSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const b = new ProfileBuilder('callgrind', path);
    const parser = new CallgrindParser(path, b);
    await forEachLine(path, (line, n) => parser.line(line, n), {
      signal: options.signal,
      limits: options.limits,
      onProgress: f => options.onProgress?.(0.8 * f, 'Reading callgrind output'),
    });
    parser.finish();
    throwIfAborted(options.signal);

    const events = parser.events!;
    const metrics: MetricDescriptor[] = events.map(e => ({
      name: e,
      label: parser.eventLabels.get(e) ?? e,
      sourceKeys: [e],
      unit: /time/i.test(e) ? '' : 'count',
      kind: 'exclusive',
      aggregation: 'sum',
    }));
    const ids = metrics.map(m => b.addMetric(m));
    const timeLike = events.findIndex(e => TIME_EVENT.test(e));
    const primary = timeLike >= 0 ? timeLike : 0;

    // Every thread's graph, and their sum as the profile's call graph.
    const threads = [...parser.builders.keys()].sort((x, y) => x - y);
    let combined = parser.builders.get(threads[0] ?? 0) ?? new CallGraphBuilder(b.tree.strings, events.length);
    if (threads.length > 1) {
      combined = new CallGraphBuilder(b.tree.strings, events.length);
      for (const t of threads) combined.absorb(parser.builders.get(t)!);
    }
    const graph = combined.finish();
    b.callGraph = graph;
    checkTotals(b, parser, graph.functions.self, events);

    Object.assign(b.metadata, parser.metadata);
    if (Object.keys(parser.descriptions).length) b.metadata['callgrind.desc'] = parser.descriptions;
    b.metadata['callgrind.events'] = events.join(' ');
    b.metadata['callgrind.positions'] = parser.positions.join(' ');
    if (parser.parts > 1) b.metadata['callgrind.parts'] = parser.parts;
    if (parser.totals) b.metadata['callgrind.totals'] = parser.totals.join(' ');

    options.onProgress?.(0.8, 'Unfolding the call graph');
    const unfolder = new CallGraphUnfolder(b, { shareNodes: threads.length > 1 });
    // One context per thread, threads without costs included; one context when threads are not told apart.
    const contextOf = (t: number) => (parser.threaded ? b.context({ thread: t }) : b.context({}));
    if (parser.threaded) for (const t of [...parser.threads].sort((x, y) => x - y)) contextOf(t);
    else contextOf(0);
    for (const t of threads) {
      const g = threads.length > 1 ? parser.builders.get(t)!.finish() : graph;
      unfolder.unfold(g, { metrics: ids, context: contextOf(t), pruneMetric: primary, signal: options.signal });
    }
    options.onProgress?.(1);
    return b.build(ids[primary]!);
  },
};

/** Callgrind's own `totals:` (or `summary:`) against the self costs read: they must agree. */
function checkTotals(b: ProfileBuilder, parser: CallgrindParser, self: Float64Array[], events: string[]): void {
  const stated = parser.totals ?? parser.summary;
  if (!stated) return;
  const off: string[] = [];
  events.forEach((e, m) => {
    let sum = 0;
    for (const v of self[m]!) sum += v;
    const want = stated[m] ?? 0;
    if (Math.abs(sum - want) > 1e-9 * Math.max(1, want)) off.push(`${e}: ${sum} read, ${want} stated`);
  });
  if (off.length)
    b.warnings.push(
      `the self costs do not add up to the file's ${parser.totals ? 'totals' : 'summary'} (${off.join('; ')})`,
    );
}

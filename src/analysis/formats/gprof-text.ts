import { quoteContent } from '../errors/escape-control';
import { unfoldCallGraph } from '../graph/unfold-call-graph';
import { CallGraphBuilder } from '../model/call-graph';
import { normaliseUnit } from '../model/metric';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { forEachLine } from './io/file-input';
import { ProfileReadError, throwIfAborted, type ProfileReader, type ReadOptions } from './reader';
import { gprofTextSniffer } from './sniffers/gprof-text';

/**
 * GNU gprof's text output (`gprof prog gmon.out`, also `-b` brief and `-l` line by line):
 *
 *   Flat profile:          %time  cumulative  self  [calls  self/call  total/call]  name
 *   Call graph:            entries separated by dashes; per entry the parent lines, the primary
 *                          line `[i] %time self children called name [i]`, then the child lines
 *                          `self children called/total name [j]`; cycles appear as
 *                          `<cycle N as a whole>` entries and `name <cycle N>` members;
 *                          `<spontaneous>` marks a function without known callers
 *   Index by function name (always follows the call graph, so its absence means truncation)
 *
 * With `-l` the symbols are source lines, `func (file.c:12 @ 4005d6)`: the flat profile gives the
 * self time of each line (statement costs) and the call graph's caller symbols give the line of
 * each call. gprof does not propagate time along line symbols, so there the callers' shares come
 * from the call counts (gprof's own assumption).
 *
 * The file holds a call graph, which is kept as `profile.callGraph`; the call tree is unfolded
 * from it (graph/unfold-call-graph.ts). Functions of the flat profile without a call-graph entry
 * (gprof's own `mcount`, for example) become roots of their own, so the tree's total is the flat
 * profile's total.
 */

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const FLAT_ROW = new RegExp(
  String.raw`^\s*${NUMBER}\s+${NUMBER}\s+${NUMBER}(?:\s+(\d+)\s+${NUMBER}\s+${NUMBER})?\s+(\S.*?)\s*$`,
);
const FLAT_UNITS = /^\s*time\s+(\S+)\s+(\S+)\s+calls\s+(\S+)\/call\s+(\S+)\/call\s+name\s*$/;
const SAMPLE_PERIOD = /^\s*Each sample counts as ([\d.eE+-]+) (\S+?)\.?\s*$/;
const CALL_GRAPH = /^\s*Call graph(?:\s+\(explanation follows\))?\s*$/;
const GRANULARITY = /^granularity: .*?(?:of ([\d.]+) (\S+?)\.?)?\s*$/;
const GRAPH_HEADER = /^index\s+% time\s+self\s+children\s+called\s+name\s*$/;
const SEPARATOR = /^-{10,}\s*$/;
const PRIMARY = new RegExp(
  String.raw`^\[(\d+)\]\s+${NUMBER}\s+${NUMBER}\s+${NUMBER}\s+(?:(\d+)(?:\+(\d+))?\s+)?(\S.*?)\s+\[(\d+)\]\s*$`,
);
const ARC_WITH_TIME = new RegExp(
  String.raw`^\s+${NUMBER}\s+${NUMBER}\s+(\d+)(?:/(\d+)|\+(\d+))?\s+(\S.*?)\s+\[(\d+)\]\s*$`,
);
const ARC_COUNT_ONLY = /^\s+(\d+)(?:\/(\d+)|\+(\d+))?\s+(\S.*?)\s+\[(\d+)\]\s*$/;
const SPONTANEOUS = /^\s+<spontaneous>\s*$/;
const CYCLE_WHOLE = /^<cycle (\d+) as a whole>$/;
const CYCLE_MEMBER = /^(.*) <cycle (\d+)>$/;
const LINE_SYMBOL = /^(.*) \(([^()]*):(\d+) @ ([0-9a-fA-F]+)\)$/;

/** A symbol of the call graph or flat profile: a function, or with `-l` a source line of one. */
interface SymbolName {
  fn: string;
  file: string | null;
  line: number;
}

export function parseSymbol(text: string): SymbolName {
  const cycle = CYCLE_MEMBER.exec(text);
  const name = cycle ? cycle[1]! : text;
  const loc = LINE_SYMBOL.exec(name);
  if (loc) return { fn: loc[1]!, file: loc[2]!, line: Number(loc[3]) };
  return { fn: name, file: null, line: 0 };
}

interface EntryLine {
  kind: 'primary' | 'arc' | 'spontaneous';
  index: number;
  name: string;
  self: number;
  children: number;
  calls: number;
  recursive: number;
  timed: boolean;
}

const enum Section {
  Start,
  Flat,
  FlatRows,
  FlatEnd,
  Graph,
  Entries,
  Index,
}

class GprofParser {
  private section = Section.Start;
  readonly graph: CallGraphBuilder;
  private readonly symbols = new Map<number, { text: string; fn: number; line: number }>();
  private readonly flatFunctions = new Set<number>();
  private readonly primarySelf = new Map<number, number>();
  private readonly arcsSeen = new Set<string>();
  private entry: EntryLine[] = [];
  private entryStart = 0;
  lineMode = false;
  sawFlat = false;
  sawGraph = false;
  sawIndex = false;
  flatRows = 0;
  flatTotal = 0;
  samplePeriod: number | null = null;
  unitWord = 'seconds';
  graphTotal: number | null = null;
  cycles = new Set<number>();

  constructor(
    private readonly path: string,
    readonly builder: ProfileBuilder,
  ) {
    this.graph = new CallGraphBuilder(builder.tree.strings, 1);
  }

  private fail(lineNumber: number, reason: string): never {
    throw new ProfileReadError(this.path, `line ${lineNumber}: ${reason}`);
  }

  private fnOf(name: SymbolName): number {
    if (name.file) this.lineMode = true;
    return this.graph.function(name.fn, { name: name.fn });
  }

  line(text: string, n: number): void {
    if (text.startsWith('\f')) text = text.slice(1);
    if (/^\s*Flat profile:\s*$/.test(text)) {
      this.flushEntry(n);
      this.section = Section.Flat;
      this.sawFlat = true;
      return;
    }
    if (CALL_GRAPH.test(text)) {
      this.flushEntry(n);
      this.section = Section.Graph;
      this.sawGraph = true;
      return;
    }
    if (/^\s*Index by function name\s*$/.test(text)) {
      if (this.section === Section.Entries && this.entry.length)
        this.fail(n, 'the call-graph entry above is not closed by a line of dashes');
      this.section = Section.Index;
      this.sawIndex = true;
      return;
    }
    switch (this.section) {
      case Section.Flat:
      case Section.FlatRows:
        return this.flatLine(text, n);
      case Section.Graph: {
        const g = GRANULARITY.exec(text);
        if (g) {
          if (g[1]) this.graphTotal = Number(g[1]);
          return;
        }
        if (GRAPH_HEADER.test(text)) this.section = Section.Entries;
        return;
      }
      case Section.Entries:
        return this.entryLine(text, n);
      default:
        return;
    }
  }

  private flatLine(text: string, n: number): void {
    const period = SAMPLE_PERIOD.exec(text);
    if (period) {
      this.samplePeriod = Number(period[1]);
      return;
    }
    const units = FLAT_UNITS.exec(text);
    if (units) {
      this.unitWord = units[2]!;
      return;
    }
    const row = FLAT_ROW.exec(text);
    if (!row) {
      // The table ends at the first line that is not a row (gprof's explanation follows).
      if (this.section === Section.FlatRows && text.trim() !== '') this.section = Section.FlatEnd;
      return;
    }
    this.section = Section.FlatRows;
    const self = Number(row[3]);
    const name = parseSymbol(row[7]!);
    const f = this.fnOf(name);
    if (!Number.isFinite(self)) this.fail(n, `bad self time ${quoteContent(row[3] ?? '')}`);
    this.graph.addSelf(f, 0, self);
    if (name.file) this.graph.addLineCosts(f, this.graph.strings.intern(name.file), name.line, [self]);
    if (row[4] !== undefined) {
      this.graph.addCalls(f, Number(row[4]));
      // With -l, the symbol that has calls is the function's entry.
      if (name.file) this.graph.setLocation(f, name.file, name.line);
    }
    this.flatFunctions.add(f);
    this.flatTotal += self;
    this.flatRows++;
  }

  private entryLine(text: string, n: number): void {
    if (text.trim() === '') return;
    if (SEPARATOR.test(text)) return this.flushEntry(n);
    if (this.entry.length === 0) this.entryStart = n;
    let m: RegExpExecArray | null;
    if ((m = PRIMARY.exec(text))) {
      if (m[1] !== m[8]) this.fail(n, `the primary line's indices [${m[1]}] and [${m[8]}] differ`);
      this.entry.push({
        kind: 'primary',
        index: Number(m[1]),
        name: m[7]!,
        self: Number(m[3]),
        children: Number(m[4]),
        calls: m[5] === undefined ? NaN : Number(m[5]),
        recursive: m[6] === undefined ? 0 : Number(m[6]),
        timed: true,
      });
    } else if ((m = ARC_WITH_TIME.exec(text))) {
      this.entry.push({
        kind: 'arc',
        index: Number(m[7]),
        name: m[6]!,
        self: Number(m[1]),
        children: Number(m[2]),
        calls: Number(m[3]),
        recursive: 0,
        timed: true,
      });
    } else if ((m = ARC_COUNT_ONLY.exec(text))) {
      this.entry.push({
        kind: 'arc',
        index: Number(m[5]),
        name: m[4]!,
        self: NaN,
        children: NaN,
        calls: Number(m[1]),
        recursive: 0,
        timed: false,
      });
    } else if (SPONTANEOUS.test(text)) {
      this.entry.push({
        kind: 'spontaneous',
        index: -1,
        name: '',
        self: NaN,
        children: NaN,
        calls: NaN,
        recursive: 0,
        timed: false,
      });
    } else if (this.entry.length === 0) {
      // Text right after an entry: gprof's explanation of the table, the end of the call graph.
      this.section = Section.Index;
    } else {
      this.fail(n, `not a line of gprof's call graph: ${quoteContent(text.trim())}`);
    }
  }

  /** The symbol [index] named `text`; the same index must always name the same symbol. */
  private symbol(index: number, text: string, n: number): { fn: number; line: number } {
    const known = this.symbols.get(index);
    if (known) {
      if (known.text !== text)
        this.fail(n, `index [${index}] names both ${quoteContent(known.text)} and ${quoteContent(text)}`);
      return known;
    }
    const name = parseSymbol(text);
    const s = { text, fn: this.fnOf(name), line: name.line };
    this.symbols.set(index, s);
    return s;
  }

  private flushEntry(n: number): void {
    const lines = this.entry;
    if (lines.length === 0) return;
    this.entry = [];
    const p = lines.findIndex(l => l.kind === 'primary');
    if (p < 0)
      this.fail(this.entryStart, 'a call-graph entry without a primary line ([index] %time self children called name)');
    if (lines.findIndex((l, k) => k > p && l.kind === 'primary') >= 0)
      this.fail(this.entryStart, 'a call-graph entry with two primary lines');
    const primary = lines[p]!;
    const whole = CYCLE_WHOLE.exec(primary.name);
    if (whole) {
      // The members listed under a cycle are not calls; their names must still agree with their indices.
      this.cycles.add(Number(whole[1]));
      for (const l of lines) if (l.kind === 'arc') this.symbol(l.index, l.name, this.entryStart);
      return;
    }
    for (const l of lines)
      if (l.kind === 'spontaneous' && lines.indexOf(l) > p) this.fail(n, '<spontaneous> below the primary line');
    const me = this.symbol(primary.index, primary.name, this.entryStart);
    if (!Number.isFinite(primary.self) || !Number.isFinite(primary.children))
      this.fail(this.entryStart, 'bad time on the primary line');
    this.primarySelf.set(me.fn, (this.primarySelf.get(me.fn) ?? 0) + primary.self);
    if (!this.lineMode) this.graph.addTotal(me.fn, 0, primary.self + primary.children);
    if (!this.flatFunctions.has(me.fn) && Number.isFinite(primary.calls))
      this.graph.addCalls(me.fn, primary.calls + primary.recursive);
    lines.forEach((l, k) => {
      if (l.kind !== 'arc') return;
      const other = this.symbol(l.index, l.name, this.entryStart);
      const [from, fromIndex, to, toIndex] =
        k < p ? [other, l.index, me, primary.index] : [me, primary.index, other, l.index];
      const key = `${fromIndex}:${toIndex}`;
      if (this.arcsSeen.has(key)) return;
      this.arcsSeen.add(key);
      const cost = l.timed ? l.self + l.children : NaN;
      this.graph.addArc(from.fn, to.fn, l.calls, this.lineMode ? from.line : 0, [cost]);
    });
  }

  finish(): void {
    if (this.entry.length) this.fail(this.entryStart, 'the file ends inside a call-graph entry (truncated?)');
    if (!this.sawFlat && !this.sawGraph)
      throw new ProfileReadError(this.path, 'not gprof output: no "Flat profile:" and no "Call graph" section');
    if (this.sawGraph && !this.sawIndex)
      throw new ProfileReadError(
        this.path,
        'the call graph is not followed by gprof\'s "Index by function name" (truncated?)',
      );
    // Functions known only from the call graph take their self time from it.
    for (const [f, self] of this.primarySelf) if (!this.flatFunctions.has(f)) this.graph.setSelf(f, 0, self);
  }
}

export const gprofTextReader: ProfileReader = {
  ...gprofTextSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const b = new ProfileBuilder('gprof-text', path);
    const parser = new GprofParser(path, b);
    await forEachLine(path, (line, n) => parser.line(line, n), {
      signal: options.signal,
      limits: options.limits,
      onProgress: f => options.onProgress?.(0.8 * f, 'Reading gprof output'),
    });
    parser.finish();
    throwIfAborted(options.signal);

    const seconds = parser.unitWord === 'seconds';
    const metric = b.addMetric({
      name: seconds ? 'time' : parser.unitWord,
      label: seconds ? 'Time' : parser.unitWord,
      sourceKeys: [`self ${parser.unitWord}`],
      unit: normaliseUnit(parser.unitWord),
      kind: 'exclusive',
      aggregation: 'sum',
    });
    const graph = parser.graph.finish();
    b.callGraph = graph;
    b.metadata['gprof.output'] = parser.lineMode ? 'line by line (-l)' : 'functions';
    if (parser.samplePeriod !== null) b.metadata['gprof.samplePeriod'] = parser.samplePeriod;
    b.metadata['gprof.flatProfileTotal'] = round(parser.flatTotal);
    if (parser.graphTotal !== null) b.metadata['gprof.callGraphTotal'] = parser.graphTotal;
    if (parser.cycles.size) b.metadata['gprof.cycles'] = parser.cycles.size;
    warnAboutUncoveredTime(b, parser, graph.arcs.callee, graph.arcs.caller);

    options.onProgress?.(0.8, 'Unfolding the call graph');
    unfoldCallGraph(b, graph, { metrics: [metric], context: b.context({}), signal: options.signal });
    options.onProgress?.(1);
    return b.build(metric);
  },
};

const round = (x: number) => Math.round(x * 1e9) / 1e9;

/** Flat-profile time of functions outside the call graph (gprof's mcount, unprofiled code). */
function warnAboutUncoveredTime(b: ProfileBuilder, parser: GprofParser, callee: Int32Array, caller: Int32Array): void {
  if (!parser.sawGraph || parser.graphTotal === null) return;
  const inGraph = new Uint8Array(parser.graph.functionCount);
  for (let a = 0; a < callee.length; a++) {
    inGraph[callee[a]!] = 1;
    inGraph[caller[a]!] = 1;
  }
  const outside: string[] = [];
  let time = 0;
  for (let f = 0; f < inGraph.length; f++) {
    const self = parser.graph.selfOf(f, 0);
    if (!inGraph[f] && self > 0) {
      outside.push(parser.graph.name(f));
      time += self;
    }
  }
  if (outside.length && parser.flatTotal > parser.graphTotal) {
    b.warnings.push(
      `${round(time)} ${parser.unitWord} of the flat profile are in functions without call-graph arcs (${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ', …' : ''}); they are roots of their own`,
    );
  }
}

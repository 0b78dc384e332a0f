import { quoteContent } from '../../errors/escape-control';
import { basename } from 'node:path';
import { NodeKind, type CallTreeBuilder } from '../../model/call-tree';
import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import type { MetadataValue } from '../../model/profile';
import { readChunks } from '../io/file-input';
import { isAbortError, ProfileReadError, type InputLimits } from '../reader';
import { XmlTokenizer, type XmlAttributes, type XmlHandler } from '../xml/xml-tokenizer';
import type { MetricEntry } from './metric-plan';

export interface ExperimentOptions {
  /** Keep the inline `<M n v>` values (for databases without `*.metric-db` files). */
  inlineValues: boolean;
  /** Every tree element must carry `i`, its row in the `*.metric-db` files. */
  requireIds: boolean;
  /** Maps a FileTable path onto the path the model records (e.g. the database's copy of a source). */
  resolveFile?: (recorded: string) => string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  limits?: InputLimits;
}

/** Inline `<M>` values as (node, metric, value) triples; `metric` indexes `Experiment.metrics`. */
export interface InlineValues {
  node: Int32Array;
  metric: Int32Array;
  value: Float64Array;
  /** Most significant digits seen in a printed value: hpcprof rounds what it prints (6 with `%g`). */
  significantDigits: number;
}

/** What experiment.xml says besides the call tree, which goes straight into the given builder. */
export interface Experiment {
  version: string;
  metadata: Record<string, MetadataValue>;
  /** The MetricTable (what inline `<M>` values refer to). */
  metrics: MetricEntry[];
  /** The MetricDBTable (the columns of the `*.metric-db` files). */
  metricDbs: MetricEntry[];
  /** Per model node: its parent, its kind and its XML `i` (0 when absent). */
  parent: Int32Array;
  kind: Uint8Array;
  xmlId: Int32Array;
  maxXmlId: number;
  inline: InlineValues;
  /** The `.hpctrace` files' call-path ids (`it` of `<S>` and `<C>`) → the model node a sample is in. */
  traceIds: Map<number, number>;
  /** The TraceDBTable's entry: ticks per second of the trace times, header bytes of a trace file; null without one. */
  traceDb: { ticksPerSecond: number; headerBytes: number } | null;
  warnings: string[];
}

/** The tree elements of SecCallPathProfileData. */
const TREE_ELEMENTS = new Set(['PF', 'Pr', 'L', 'S', 'C']);
const UNKNOWN_FILE = '<unknown file>';
const INLINE_VALUE_ELEMENTS: ReadonlySet<string> = new Set(['M']);
/** Ids must index typed arrays: keep them well inside Int32 range. */
const MAX_ID = 0x3fffffff;

/**
 * SAX handler for experiment.xml. Header tables (load modules, files, procedures, metrics) come
 * first; tree elements then become model nodes as they open, so node ids follow document order:
 *
 *   PF / Pr  procedure frame (Pr: inlined)  → function node, named by the ProcedureTable
 *   L        loop                           → loop node `Loop@<file>:<line>`
 *   S        statement                      → statement node `<file>:<line>`, in the enclosing scope's file
 *   C        call site                      → no node; its line becomes the callee's `callLine`
 *   Pr with an empty name                   → no node (as in Hatchet); it acts like a call site
 */
class ExperimentHandler implements XmlHandler {
  readonly result: Experiment;
  /** Inline `<M>` values are read only without metric-db files. */
  readonly unreadAttributes: ReadonlySet<string> | undefined;
  private rootSeen = false;
  private sections = 0;
  private inSection = false;
  private inHeader = false;
  private inTopHeader = false;
  private dataSeen = false;
  private inData = false;
  private readonly loadModules = new Map<string, string>();
  private readonly files = new Map<string, string>();
  private readonly procedures = new Map<string, string>();
  private readonly shortNames = new Map<string, string>();
  private metricIndexById: Map<string, number> | null = null;

  private readonly parent = new GrowableInt32(1024);
  private readonly kind = new GrowableUint8(1024);
  private readonly xmlId = new GrowableInt32(1024);
  private readonly inlineNode = new GrowableInt32();
  private readonly inlineMetric = new GrowableInt32();
  private readonly inlineValue = new GrowableFloat64();
  private significantDigits = 0;

  // One entry per open tree element: the node it made (-1 for none), where its children attach,
  // the file and load module its statements belong to, and its line.
  private readonly openNode: number[] = [];
  private readonly openAttach: number[] = [];
  private readonly openFile: (string | null)[] = [];
  private readonly openModule: (string | null)[] = [];
  private readonly openLine: number[] = [];

  constructor(
    private readonly path: string,
    private readonly tree: CallTreeBuilder,
    private readonly options: ExperimentOptions,
    private readonly where: () => number,
  ) {
    this.unreadAttributes = options.inlineValues ? undefined : INLINE_VALUE_ELEMENTS;
    this.result = {
      version: '',
      metadata: {},
      metrics: [],
      metricDbs: [],
      parent: new Int32Array(0),
      kind: new Uint8Array(0),
      xmlId: new Int32Array(0),
      maxXmlId: 0,
      inline: { node: new Int32Array(0), metric: new Int32Array(0), value: new Float64Array(0), significantDigits: 0 },
      traceIds: new Map(),
      traceDb: null,
      warnings: [],
    };
  }

  openTag(name: string, a: XmlAttributes): void {
    if (!this.rootSeen) {
      if (name !== 'HPCToolkitExperiment') this.fail(`not an HPCToolkit experiment.xml: the root element is <${name}>`);
      this.rootSeen = true;
      const version = a.get('version') ?? '';
      const major = Number(/^(\d+)\./.exec(version)?.[1] ?? NaN);
      if (!(major >= 1 && major <= 2))
        this.fail(`unsupported experiment.xml version ${quoteContent(version)} (HPC Lens reads versions 1.x and 2.x)`);
      this.result.version = version;
      this.result.metadata['experiment.xml version'] = version;
      return;
    }
    if (this.inData) {
      if (name === 'M') this.value(a);
      else if (TREE_ELEMENTS.has(name)) this.openTreeElement(name, a);
      return;
    }
    switch (name) {
      case 'Header': {
        this.inTopHeader = true;
        const program = a.get('n');
        if (program) this.result.metadata['program'] = program;
        break;
      }
      case 'NV': {
        const key = a.get('n');
        if (this.inTopHeader && key !== undefined) this.result.metadata[key] = a.get('v') ?? '';
        break;
      }
      case 'SecCallPathProfile':
        // hpcprof writes one; a second one (never seen in practice) would need its own tree.
        if (++this.sections === 1) {
          this.inSection = true;
          const profile = a.get('n');
          if (profile) this.result.metadata['profile'] = profile;
        } else if (this.sections === 2) {
          this.result.warnings.push('experiment.xml has several call-path profile sections; only the first is read');
        }
        break;
      case 'SecHeader':
        this.inHeader = this.inSection;
        break;
      case 'SecCallPathProfileData':
        if (this.inSection) {
          this.inData = true;
          this.dataSeen = true;
        }
        break;
      default:
        if (this.inHeader) this.headerEntry(name, a);
    }
  }

  closeTag(name: string): void {
    if (this.inData) {
      if (name === 'M') return;
      if (TREE_ELEMENTS.has(name)) this.closeTreeElement();
      else if (name === 'SecCallPathProfileData') this.inData = false;
      return;
    }
    if (name === 'Header') this.inTopHeader = false;
    else if (name === 'SecHeader') this.inHeader = false;
    else if (name === 'SecCallPathProfile') this.inSection = false;
  }

  finish(): Experiment {
    if (!this.rootSeen) this.fail('no <HPCToolkitExperiment> element');
    if (!this.dataSeen) this.fail('no <SecCallPathProfileData>: the database has no calling-context tree');
    const r = this.result;
    r.parent = this.parent.finish();
    r.kind = this.kind.finish();
    r.xmlId = this.xmlId.finish();
    r.inline = {
      node: this.inlineNode.finish(),
      metric: this.inlineMetric.finish(),
      value: this.inlineValue.finish(),
      significantDigits: this.significantDigits,
    };
    return r;
  }

  private headerEntry(name: string, a: XmlAttributes): void {
    switch (name) {
      case 'LoadModule':
        this.tableEntry(this.loadModules, name, a);
        break;
      case 'File':
        this.tableEntry(this.files, name, a, this.options.resolveFile);
        break;
      case 'Procedure':
        this.tableEntry(this.procedures, name, a);
        break;
      case 'Metric':
        this.result.metrics.push(this.metricEntry(name, a, this.result.metrics.length));
        break;
      case 'MetricDB':
        this.result.metricDbs.push(this.metricEntry(name, a, this.result.metricDbs.length));
        break;
      case 'TraceDB': {
        const u = Number(a.get('u') ?? '1000000000');
        const header = Number(a.get('db-header-sz') ?? '32');
        if (!(u > 0 && Number.isFinite(u)))
          this.fail(`<TraceDB> has u=${quoteContent(a.get('u')!)}, not ticks per second`);
        if (!(Number.isInteger(header) && header >= 24 && header <= 4096))
          this.fail(`<TraceDB> has db-header-sz=${quoteContent(a.get('db-header-sz')!)}, not a header size`);
        this.result.traceDb = { ticksPerSecond: u, headerBytes: header };
        break;
      }
    }
  }

  private tableEntry(table: Map<string, string>, element: string, a: XmlAttributes, map?: (s: string) => string): void {
    const id = a.get('i');
    const name = a.get('n');
    if (id === undefined || name === undefined) this.fail(`<${element}> needs both i and n attributes`);
    table.set(id, map && name !== '' && !name.startsWith('<') ? map(name) : name);
  }

  private metricEntry(element: string, a: XmlAttributes, position: number): MetricEntry {
    const id = a.get('i');
    const name = a.get('n');
    if (id === undefined || name === undefined) this.fail(`<${element}> needs both i and n attributes`);
    const t = a.get('t');
    const dbId = a.get('db-id');
    let column = position;
    if (dbId !== undefined) {
      if (!/^\d+$/.test(dbId))
        this.fail(`<${element} n=${quoteContent(name)}> has db-id ${quoteContent(dbId)}, which is not a column number`);
      column = Number(dbId);
    }
    return {
      id,
      name,
      column,
      type: t === 'inclusive' || t === 'exclusive' ? t : 'nil',
      partner: a.get('partner') ?? null,
    };
  }

  private openTreeElement(element: string, a: XmlAttributes): void {
    // One pass over the attributes rather than a search per name (each tree element reads up to six).
    let id: string | undefined, n: string | undefined, f: string | undefined, lm: string | undefined;
    let l: string | undefined, it: string | undefined;
    const names = a.names;
    const values = a.values;
    for (let k = 0; k < a.count; k++) {
      switch (names[k]) {
        case 'i':
          id = values[k];
          break;
        case 'n':
          n = values[k];
          break;
        case 'f':
          f = values[k];
          break;
        case 'lm':
          lm = values[k];
          break;
        case 'l':
          l = values[k];
          break;
        case 'it':
          it = values[k];
          break;
      }
    }
    const top = this.openNode.length - 1;
    const attachTo = top >= 0 ? this.openAttach[top]! : -1;
    const scopeFile = top >= 0 ? this.openFile[top]! : null;
    const scopeModule = top >= 0 ? this.openModule[top]! : null;
    // Procedures entered through an element that makes no node (a call site) record its line.
    const callLine = top >= 0 && this.openNode[top]! < 0 ? this.openLine[top]! : 0;
    const line = this.lineOf(element, l);
    let node = -1;
    let file = scopeFile;
    let module = scopeModule;
    switch (element) {
      case 'PF':
      case 'Pr': {
        const proc = this.lookup(this.procedures, n, 'procedure', 'ProcedureTable', element);
        // A frame's own file and module; an inlined Pr without them stays in its host's.
        file =
          f !== undefined
            ? this.lookup(this.files, f, 'file', 'FileTable', element)
            : element === 'Pr'
              ? scopeFile
              : null;
        module =
          lm !== undefined
            ? this.lookup(this.loadModules, lm, 'load module', 'LoadModuleTable', element)
            : element === 'Pr'
              ? scopeModule
              : null;
        if (element === 'PF' || proc !== '')
          node = this.addNode(attachTo, proc, NodeKind.Function, file, line, module, callLine, id, element);
        break;
      }
      case 'L': {
        if (f !== undefined) file = this.lookup(this.files, f, 'file', 'FileTable', element);
        node = this.addNode(
          attachTo,
          `Loop@${this.shortName(file)}:${line}`,
          NodeKind.Loop,
          file,
          line,
          module,
          0,
          id,
          element,
        );
        break;
      }
      case 'S':
        node = this.addNode(
          attachTo,
          `${this.shortName(file)}:${line}`,
          NodeKind.Statement,
          file,
          line,
          module,
          0,
          id,
          element,
        );
        break;
      case 'C':
        break;
    }
    // A trace sample names a statement or call site by `it`; a call site has no node: its enclosing one.
    const traceId = element === 'S' || element === 'C' ? it : undefined;
    if (traceId !== undefined) {
      const traceNumber = digitsValue(traceId);
      if (traceNumber >= 0) this.result.traceIds.set(traceNumber, node >= 0 ? node : attachTo);
    }
    this.openNode.push(node);
    this.openAttach.push(node >= 0 ? node : attachTo);
    this.openFile.push(file);
    this.openModule.push(module);
    this.openLine.push(line);
  }

  /** Statements and loops are named by the file's base name, as in HPCToolkit and Hatchet (once per file). */
  private shortName(file: string | null): string {
    if (file === null) return UNKNOWN_FILE;
    let short = this.shortNames.get(file);
    if (short === undefined) this.shortNames.set(file, (short = basename(file)));
    return short;
  }

  private closeTreeElement(): void {
    this.openNode.pop();
    this.openAttach.pop();
    this.openFile.pop();
    this.openModule.pop();
    this.openLine.pop();
  }

  private addNode(
    parent: number,
    name: string,
    kind: NodeKind,
    file: string | null,
    line: number,
    module: string | null,
    callLine: number,
    id: string | undefined,
    element: string,
  ): number {
    const xmlId = id === undefined && !this.options.requireIds ? 0 : this.idOf(id, element);
    const node = this.tree.add(parent, name, kind, { file, line, module, callLine });
    this.parent.push(parent);
    this.kind.push(kind);
    this.xmlId.push(xmlId);
    if (xmlId > this.result.maxXmlId) this.result.maxXmlId = xmlId;
    return node;
  }

  private idOf(id: string | undefined, element: string): number {
    if (id === undefined) this.fail(`<${element}> has no i attribute, which names its row in the *.metric-db files`);
    const v = digitsValue(id);
    if (!(v >= 1 && v <= MAX_ID)) this.fail(`<${element}> has i=${quoteContent(id)}, which is not a node id`);
    return v;
  }

  private lineOf(element: string, l: string | undefined): number {
    if (l === undefined) return 0;
    const plain = digitsValue(l);
    if (plain >= 0) return Math.min(plain, MAX_ID);
    // The DTD allows a range "begin-end"; the tree needs the first line.
    const m = /^\s*(\d+)(?:\s*-\s*\d+)?\s*$/.exec(l);
    if (!m) this.fail(`<${element}> has l=${quoteContent(l)}, which is not a line number`);
    return Math.min(Number(m[1]), MAX_ID);
  }

  /** Table lookup; an attribute that is not a known id is a literal name (the DTD allows both). */
  private lookup(
    table: Map<string, string>,
    key: string | undefined,
    what: string,
    tableName: string,
    element: string,
  ): string {
    if (key === undefined)
      this.fail(`<${element}> has no ${what === 'procedure' ? 'n' : what === 'file' ? 'f' : 'lm'} attribute`);
    const v = table.get(key);
    if (v !== undefined) return v;
    if (/^\d+$/.test(key)) this.fail(`<${element}> refers to ${what} ${key}, which is not in the ${tableName}`);
    return key;
  }

  private value(a: XmlAttributes): void {
    if (!this.options.inlineValues) return;
    const n = a.get('n');
    const v = a.get('v');
    if (n === undefined || v === undefined) this.fail('<M> needs both n and v attributes');
    if (!this.metricIndexById) this.metricIndexById = new Map(this.result.metrics.map((m, k) => [m.id, k]));
    const metric = this.metricIndexById.get(n);
    if (metric === undefined) this.fail(`<M n=${quoteContent(n)}> refers to no metric of the MetricTable`);
    const value = parseValue(v);
    if (Number.isNaN(value) && !/^\s*[-+]?nan\s*$/i.test(v))
      this.fail(`<M n=${quoteContent(n)}>: ${quoteContent(v)} is not a number`);
    // Values on elements without a node (call sites, the whole-program total) are repeated below them.
    const top = this.openNode.length - 1;
    const node = top >= 0 ? this.openNode[top]! : -1;
    if (node < 0) return;
    this.inlineNode.push(node);
    this.inlineMetric.push(metric);
    this.inlineValue.push(value);
    const digits = significantDigits(v);
    if (digits > this.significantDigits) this.significantDigits = digits;
  }

  private fail(reason: string): never {
    throw new ProfileReadError(this.path, `line ${this.where()}: ${reason}`);
  }
}

/** The value of a string of decimal digits, else NaN (ids and lines: no regex in the hot path). */
function digitsValue(s: string): number {
  if (s.length === 0 || s.length > 15) return NaN;
  let v = 0;
  for (let k = 0; k < s.length; k++) {
    const d = s.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}

/** A printed value: a C double, or `inf` / `nan` as printf writes them. */
function parseValue(v: string): number {
  const t = v.trim();
  if (t === '') return NaN;
  const inf = /^([-+]?)inf(inity)?$/i.exec(t);
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  return Number(t);
}

/** Digits of the mantissa without leading zeros: 3.99824e+06 → 6. */
function significantDigits(v: string): number {
  const mantissa = v.trim().replace(/^[-+]/, '').split(/[eE]/)[0]!.replace('.', '').replace(/^0+/, '');
  return /^\d+$/.test(mantissa) ? mantissa.length : 0;
}

/**
 * Streams experiment.xml through the XML tokenizer (gzip transparently), adding the call tree to
 * `tree` and returning the tables and inline values.
 */
export async function readExperimentXml(
  path: string,
  tree: CallTreeBuilder,
  options: ExperimentOptions,
): Promise<Experiment> {
  let tokenizer: XmlTokenizer | null = null;
  const handler = new ExperimentHandler(path, tree, options, () => tokenizer!.line);
  tokenizer = new XmlTokenizer(handler, { maxConstructBytes: options.limits?.maxLineLength });
  try {
    for await (const chunk of readChunks(path, {
      signal: options.signal,
      limits: options.limits,
      onProgress: options.onProgress,
    }))
      tokenizer.write(chunk);
    tokenizer.end();
  } catch (e) {
    if (isAbortError(e) || e instanceof ProfileReadError) throw e;
    throw new ProfileReadError(path, `not well-formed XML (${(e as Error).message})`, { cause: e });
  }
  return handler.finish();
}

import { GrowableFloat64, GrowableInt32 } from '../../model/growable';
import { throwIfAborted } from '../reader';
import { XmlSyntaxError, XmlTokenizer, type XmlAttributes, type XmlHandler } from '../xml/xml-tokenizer';
import { CubeFormatError } from './cube-format-error';

/**
 * The XML half of a CUBE profile: `anchor.xml` of a CUBE4 `.cubex` archive, or a whole CUBE3
 * `.cube` file (the same schema with the values inline in `<severity>`):
 *
 *   <cube version="4.4">
 *     <attr key value/>…
 *     <metrics><metric id type="EXCLUSIVE|INCLUSIVE|SIMPLE|…"> uniq_name, disp_name, dtype, uom,
 *       val, descr, nested <metric>… </metric></metrics>
 *     <program>
 *       <region id mod begin end> name, mangled_name, paradigm, role </region>…
 *       <cnode id calleeId [line] [mod]> <parameter parkey parvalue/>… nested <cnode>… </cnode>
 *     </program>
 *     <system>  CUBE4: <systemtreenode> … <locationgroup Id> rank, type <location Id> rank, type
 *               CUBE3: <machine> <node> <process Id> rank <thread Id> rank </system>
 *     <severity> (CUBE3 only) <matrix metricId> <row cnodeId> one value per thread </row>…
 *   </cube>
 *
 * Call-tree nodes are kept in document order, which is pre-order: parents come first.
 */

export interface CubeMetricDefinition {
  id: number;
  uniqName: string;
  dispName: string;
  dtype: string;
  uom: string;
  /** EXCLUSIVE, INCLUSIVE, SIMPLE, POSTDERIVED, PREDERIVED_*; empty in CUBE3. */
  type: string;
  /** `VOID` marks a metric without values. */
  val: string;
  descr: string;
}

export interface CubeRegion {
  name: string;
  /** Source file, or a module-like name such as `MPI`. */
  mod: string;
  begin: number;
  end: number;
  paradigm: string;
  role: string;
}

export interface CubeLocation {
  /** Column of the location in every data row. */
  id: number;
  name: string;
  /** Thread number inside its group. */
  rank: number;
  type: string;
  /** MPI rank of the process (location group). */
  groupRank: number;
  groupType: string;
}

export interface CubeCallTree {
  size: number;
  /** Node index of the parent, -1 for roots (parents precede children). */
  parent: Int32Array;
  /** Region id the node calls. */
  region: Int32Array;
  /** `line` attribute of the cnode (the call site), 0 when absent. */
  callLine: Int32Array;
  /** The cnode `id` attribute. */
  cnodeId: Int32Array;
  /** Parameter suffix for parameter-based profiling nodes, e.g. `size=8`. */
  parameters: Map<number, string>;
}

/** Inline values of one CUBE3 metric: rows of (cnode id, one value per location). */
export interface CubeSeverityMatrix {
  cnodeIds: Int32Array;
  values: Float64Array;
}

export interface CubeAnchor {
  version: string;
  attributes: Record<string, string>;
  metrics: CubeMetricDefinition[];
  regions: Map<number, CubeRegion>;
  tree: CubeCallTree;
  /** Sorted by id; ids are 0 … n-1. */
  locations: CubeLocation[];
  /** CUBE3 values by metric id (empty for CUBE4, whose values live in the archive). */
  severity: Map<number, CubeSeverityMatrix>;
}

/** Elements whose text content the parser keeps (read when the element closes). */
const TEXT_ELEMENTS = new Set([
  'disp_name',
  'uniq_name',
  'dtype',
  'uom',
  'val',
  'descr',
  'name',
  'paradigm',
  'role',
  'rank',
  'type',
  'row',
]);
const GROUP_ELEMENTS = new Set(['locationgroup', 'process']);
const LOCATION_ELEMENTS = new Set(['location', 'thread']);

interface OpenGroup {
  rank: number;
  type: string;
}
interface OpenLocation {
  id: number;
  name: string;
  rank: number;
  type: string;
}

class AnchorHandler implements XmlHandler {
  version = '';
  readonly attributes: Record<string, string> = {};
  readonly metrics: CubeMetricDefinition[] = [];
  readonly regions = new Map<number, CubeRegion>();
  readonly locations: CubeLocation[] = [];
  readonly severity = new Map<number, { cnodeIds: GrowableInt32; values: GrowableFloat64 }>();
  readonly parent = new GrowableInt32();
  readonly region = new GrowableInt32();
  readonly callLine = new GrowableInt32();
  readonly cnodeId = new GrowableInt32();
  readonly parameters = new Map<number, string>();

  private readonly stack: string[] = [];
  private readonly metricStack: CubeMetricDefinition[] = [];
  private readonly cnodeStack: number[] = [];
  private currentRegion: (CubeRegion & { id: number }) | null = null;
  private group: OpenGroup | null = null;
  private location: OpenLocation | null = null;
  private matrix: { cnodeIds: GrowableInt32; values: GrowableFloat64 } | null = null;
  private rowCnode = -1;
  private collected = '';
  private keepText = false;

  constructor(private readonly line: () => number) {}

  openTag(name: string, a: XmlAttributes): void {
    const parent = this.stack.length ? this.stack[this.stack.length - 1]! : '';
    if (!parent && name !== 'cube') this.fail(`the root element is <${name}>, not <cube>: not a CUBE profile`);
    this.stack.push(name);
    this.keepText = TEXT_ELEMENTS.has(name);
    this.collected = '';
    switch (name) {
      case 'cube':
        this.version = a.get('version') ?? '';
        break;
      case 'attr': {
        const key = a.get('key');
        if (parent === 'cube' && key !== undefined) this.attributes[key] = a.get('value') ?? '';
        break;
      }
      case 'metric': {
        const m: CubeMetricDefinition = {
          id: this.int(a, 'id', name),
          uniqName: '',
          dispName: '',
          dtype: '',
          uom: '',
          type: (a.get('type') ?? '').toUpperCase(),
          val: '',
          descr: '',
        };
        this.metrics.push(m);
        this.metricStack.push(m);
        break;
      }
      case 'region':
        if (parent === 'program') {
          this.currentRegion = {
            id: this.int(a, 'id', name),
            name: '',
            mod: a.get('mod') ?? '',
            begin: this.optionalInt(a, 'begin', name),
            end: this.optionalInt(a, 'end', name),
            paradigm: '',
            role: '',
          };
        }
        break;
      case 'cnode': {
        const index = this.parent.length;
        this.parent.push(this.cnodeStack.length ? this.cnodeStack[this.cnodeStack.length - 1]! : -1);
        this.cnodeId.push(this.int(a, 'id', name));
        this.region.push(this.int(a, 'calleeId', name));
        const line = this.optionalInt(a, 'line', name);
        this.callLine.push(line > 0 ? line : 0);
        this.cnodeStack.push(index);
        break;
      }
      case 'parameter':
        if (parent === 'cnode') {
          const node = this.cnodeStack[this.cnodeStack.length - 1]!;
          const param = `${a.get('parkey') ?? '?'}=${a.get('parvalue') ?? ''}`;
          const seen = this.parameters.get(node);
          this.parameters.set(node, seen ? `${seen}, ${param}` : param);
        }
        break;
      case 'locationgroup':
      case 'process':
        this.group = { rank: 0, type: name === 'process' ? 'process' : '' };
        break;
      case 'location':
      case 'thread':
        if (!this.group) this.fail(`<${name}> outside a ${name === 'thread' ? '<process>' : '<locationgroup>'}`);
        this.location = { id: this.int(a, 'Id', name), name: '', rank: 0, type: name === 'thread' ? 'thread' : '' };
        break;
      case 'matrix':
        if (parent === 'severity') {
          const id = this.int(a, 'metricId', name);
          let m = this.severity.get(id);
          if (!m) this.severity.set(id, (m = { cnodeIds: new GrowableInt32(), values: new GrowableFloat64() }));
          this.matrix = m;
        }
        break;
      case 'row':
        if (parent === 'matrix') this.rowCnode = this.int(a, 'cnodeId', name);
        break;
    }
  }

  text(text: string): void {
    if (this.keepText) this.collected += text;
  }

  closeTag(name: string): void {
    this.stack.pop();
    const parent = this.stack.length ? this.stack[this.stack.length - 1]! : '';
    const text = this.collected;
    this.keepText = false;
    switch (name) {
      case 'metric':
        this.metricStack.pop();
        return;
      case 'cnode':
        this.cnodeStack.pop();
        return;
      case 'region': {
        const r = this.currentRegion;
        if (!r || parent !== 'program') return;
        if (this.regions.has(r.id)) this.fail(`region id ${r.id} is defined twice`);
        const { id, ...region } = r;
        this.regions.set(id, region);
        this.currentRegion = null;
        return;
      }
      case 'locationgroup':
      case 'process':
        this.group = null;
        return;
      case 'location':
      case 'thread': {
        const l = this.location!;
        this.locations.push({ ...l, groupRank: this.group!.rank, groupType: this.group!.type });
        this.location = null;
        return;
      }
      case 'matrix':
        this.matrix = null;
        return;
      case 'row':
        if (parent === 'matrix') this.addRow(text);
        return;
    }
    if (!TEXT_ELEMENTS.has(name)) return;
    const value = text.trim();
    if (parent === 'metric') {
      const m = this.metricStack[this.metricStack.length - 1]!;
      switch (name) {
        case 'uniq_name':
          m.uniqName = value;
          break;
        case 'disp_name':
          m.dispName = value;
          break;
        case 'dtype':
          m.dtype = value;
          break;
        case 'uom':
          m.uom = value;
          break;
        case 'val':
          m.val = value;
          break;
        case 'descr':
          m.descr = value;
          break;
      }
    } else if (parent === 'region' && this.currentRegion) {
      if (name === 'name') this.currentRegion.name = value;
      else if (name === 'paradigm') this.currentRegion.paradigm = value;
      else if (name === 'role') this.currentRegion.role = value;
    } else if (LOCATION_ELEMENTS.has(parent) && this.location) {
      if (name === 'name') this.location.name = value;
      else if (name === 'rank') this.location.rank = this.intText(value, parent);
      else if (name === 'type') this.location.type = value;
    } else if (GROUP_ELEMENTS.has(parent) && this.group) {
      if (name === 'rank') this.group.rank = this.intText(value, parent);
      else if (name === 'type') this.group.type = value;
    }
  }

  /** A CUBE3 severity row: whitespace-separated numbers, one per thread. */
  private addRow(text: string): void {
    const m = this.matrix;
    if (!m) return;
    const words = text.trim().split(/\s+/).filter(Boolean);
    if (words.length !== this.locations.length) {
      this.fail(
        `the severity row for cnode ${this.rowCnode} has ${words.length} values, but the system has ${this.locations.length} threads`,
      );
    }
    m.cnodeIds.push(this.rowCnode);
    for (const w of words) {
      let v = Number(w);
      if (Number.isNaN(v)) {
        // C's printf writes nan/inf; the profile model drops non-finite values.
        if (/^[-+]?(nan|inf(inity)?)$/i.test(w))
          v = w.startsWith('-') ? -Infinity : w.toLowerCase().includes('nan') ? NaN : Infinity;
        else this.fail(`bad number "${w.slice(0, 40)}" in the severity row for cnode ${this.rowCnode}`);
      }
      m.values.push(v);
    }
  }

  finish(): CubeAnchor {
    if (this.stack.length) this.fail(`the document ends inside <${this.stack[this.stack.length - 1]}>`);
    const size = this.parent.length;
    const locations = this.locations.slice().sort((x, y) => x.id - y.id);
    locations.forEach((l, k) => {
      if (l.id !== k)
        throw new CubeFormatError(
          `anchor.xml: location ids must be 0 … ${locations.length - 1}, but ${l.id === locations[k - 1]?.id ? `id ${l.id} is used twice` : `id ${k} is missing`}`,
        );
    });
    const severity = new Map<number, CubeSeverityMatrix>();
    for (const [id, m] of this.severity) severity.set(id, { cnodeIds: m.cnodeIds.finish(), values: m.values.finish() });
    return {
      version: this.version,
      attributes: this.attributes,
      metrics: this.metrics,
      regions: this.regions,
      tree: {
        size,
        parent: this.parent.finish(),
        region: this.region.finish(),
        callLine: this.callLine.finish(),
        cnodeId: this.cnodeId.finish(),
        parameters: this.parameters,
      },
      locations,
      severity,
    };
  }

  private int(a: XmlAttributes, key: string, element: string): number {
    const v = a.get(key);
    if (v === undefined) this.fail(`<${element}> has no ${key} attribute`);
    return this.intValue(v, `attribute ${key} of <${element}>`);
  }

  private optionalInt(a: XmlAttributes, key: string, element: string): number {
    const v = a.get(key);
    return v === undefined || v === '' ? -1 : this.intValue(v, `attribute ${key} of <${element}>`);
  }

  private intText(v: string, element: string): number {
    return this.intValue(v, `<rank> of <${element}>`);
  }

  private intValue(v: string, what: string): number {
    if (!/^\s*-?\d{1,10}\s*$/.test(v)) this.fail(`${what} is not an integer: "${v.slice(0, 40)}"`);
    return Number(v);
  }

  private fail(reason: string): never {
    throw new CubeFormatError(`anchor.xml line ${this.line()}: ${reason}`);
  }
}

/** How often the parser lets the event loop run (so an abort request can arrive). */
const YIELD_EVERY_BYTES = 4 << 20;

/**
 * Parses anchor.xml (or a CUBE3 file) from chunks of bytes, checking `signal` between chunks.
 * `onBytes` receives the number of bytes consumed so far.
 */
export async function parseCubeAnchor(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: { signal?: AbortSignal; onBytes?: (bytes: number) => void } = {},
): Promise<CubeAnchor> {
  let tokenizer: XmlTokenizer | null = null;
  const handler = new AnchorHandler(() => tokenizer!.line);
  // Text elements keep their whitespace (a severity row is numbers separated by it).
  tokenizer = new XmlTokenizer(handler, { whitespaceText: true });
  let sinceYield = 0;
  try {
    for await (const chunk of chunks) {
      throwIfAborted(options.signal);
      tokenizer.write(chunk);
      sinceYield += chunk.length;
      options.onBytes?.(tokenizer.bytesConsumed);
      if (sinceYield >= YIELD_EVERY_BYTES) {
        sinceYield = 0;
        await new Promise(resolve => setImmediate(resolve));
      }
    }
    tokenizer.end();
  } catch (e) {
    if (e instanceof XmlSyntaxError)
      throw new CubeFormatError(`anchor.xml is not well-formed XML (line ${e.line}:${e.column}: ${e.reason})`);
    throw e;
  }
  return handler.finish();
}

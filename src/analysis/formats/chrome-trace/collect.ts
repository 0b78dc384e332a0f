import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import type { MetadataValue } from '../../model/profile';
import type { StringTable } from '../../model/string-table';
import { num, type EventFields, type TraceEventSink } from './stream';

/** GPU activity classes of Kineto categories (0 = not a GPU activity). */
export const Gpu = { None: 0, Kernel: 1, Memcpy: 2, Memset: 3 } as const;

/** How a CPU event takes part in Kineto's linking. */
export const Cpu = { Other: 0, Runtime: 1, Python: 2 } as const;

/** Slice phases as stored. */
export const Ph = { X: 0, B: 1, E: 2 } as const;

const GPU_CATEGORIES: Record<string, number> = {
  Kernel: Gpu.Kernel,
  kernel: Gpu.Kernel,
  Memcpy: Gpu.Memcpy,
  gpu_memcpy: Gpu.Memcpy,
  Memset: Gpu.Memset,
  gpu_memset: Gpu.Memset,
};
const CPU_CATEGORIES: Record<string, number> = {
  Runtime: Cpu.Runtime,
  cuda_runtime: Cpu.Runtime,
  cuda_driver: Cpu.Runtime,
  python_function: Cpu.Python,
};

export interface RawTrack {
  id: number;
  pid: string;
  tid: string;
  gpu: boolean;
  device: number;
  stream: number;
  name: string | null;
  sortIndex: number;
  /** Last timestamp seen on the track (µs), where unclosed B slices end. */
  last: number;
}

export interface RawProcess {
  name: string | null;
  labels: string | null;
  sortIndex: number;
}

/** One top-level stack frame (`stackFrames`). */
export interface StackFrame {
  name: string;
  parent: string | null;
}

/**
 * The streaming pass: every event is reduced to a few numbers in growable columns (times still in
 * the file's microseconds) so the finishing pass can sort, match and nest per track.
 */
export class ChromeTraceCollector implements TraceEventSink {
  readonly tracks = new Map<string, RawTrack>();
  readonly trackList: RawTrack[] = [];
  readonly processes = new Map<string, RawProcess>();
  readonly metadata: Record<string, MetadataValue> = {};
  stackFrames: Record<string, unknown> | null = null;
  readonly counts = { noTime: 0, ignoredPhases: new Map<string, number>(), profileChunks: 0 };
  minTs = Infinity;

  // Slices (X, B, E), including async slices once matched.
  readonly sTrack = new GrowableInt32(1 << 12);
  readonly sTs = new GrowableFloat64(1 << 12);
  readonly sDur = new GrowableFloat64(1 << 12);
  readonly sPhase = new GrowableUint8(1 << 12);
  readonly sName = new GrowableInt32(1 << 12);
  readonly sCat = new GrowableInt32(1 << 12);
  readonly sGpu = new GrowableUint8(1 << 12);
  readonly sCpu = new GrowableUint8(1 << 12);
  readonly sCorr = new GrowableFloat64(1 << 12);
  readonly sBytes = new GrowableFloat64(1 << 12);
  readonly sDevice = new GrowableInt32(1 << 12);
  readonly sStack = new GrowableInt32(1 << 12);

  readonly iTrack = new GrowableInt32();
  readonly iTs = new GrowableFloat64();
  readonly iName = new GrowableInt32();
  readonly iCat = new GrowableInt32();

  /** Async b/n/e events: key = pid + cat + id. */
  readonly aKey: string[] = [];
  readonly aPid: string[] = [];
  readonly aPhase = new GrowableUint8();
  readonly aTs = new GrowableFloat64();
  readonly aName = new GrowableInt32();
  readonly aCat = new GrowableInt32();

  /** Flow endpoints s/t/f; `fKey` numbers the flows (one per category + id) in first-met order. */
  readonly fKey = new GrowableInt32();
  readonly fPhase = new GrowableUint8();
  readonly fTrack = new GrowableInt32();
  readonly fTs = new GrowableFloat64();
  readonly fEnclosing = new GrowableUint8();
  readonly fCat = new GrowableInt32();
  /** Flows met so far (the next flow key). */
  flowCount = 0;
  /** Flow keys by category id, then id (a number when the id is numeric: `5` and `"5"` are one flow). */
  private readonly flowKeys = new Map<number, Map<number | string, number>>();

  /** Counter series by track + name; values by time. */
  readonly counters = new Map<string, { track: number; name: string; time: GrowableFloat64; value: GrowableFloat64 }>();

  /** PyTorch allocator instants (`[memory]`, profile_memory=True): time (µs), device (-1 host), signed bytes, totals. */
  readonly memTs = new GrowableFloat64();
  readonly memDevice = new GrowableInt32();
  readonly memBytes = new GrowableFloat64();
  readonly memAllocated = new GrowableFloat64();
  readonly memReserved = new GrowableFloat64();

  /** Samples (P events with `sf`, top-level `samples`). */
  readonly smTrack = new GrowableInt32();
  readonly smTs = new GrowableFloat64();
  readonly smFrame: string[] = [];
  readonly smWeight = new GrowableFloat64();

  /** The tracks of the last few (pid, tid) JSON values: most events repeat a recent pair, and this skips building the string key. */
  private readonly recentPid: unknown[] = [undefined, undefined, undefined, undefined];
  private readonly recentTid: unknown[] = [undefined, undefined, undefined, undefined];
  private readonly recentTrack: (RawTrack | null)[] = [null, null, null, null];
  private recentNext = 0;
  /** The last category string and its id (categories repeat). */
  private lastCat: unknown = undefined;
  private lastCatId = 0;
  private lastGpu: number = Gpu.None;
  private lastCpu: number = Cpu.Other;

  /** Recently interned names by a slot of their length and a few characters (see {@link nameId}). */
  private readonly nameSeen: string[] = new Array<string>(1024).fill('');
  private readonly nameIds = new Int32Array(1024);

  constructor(private readonly strings: StringTable) {}

  /**
   * The string id of an event name or call stack. Names repeat, mostly as the very string object the
   * tokenizer's cache hands out again: a slot by length and three characters answers by identity (or a
   * compare) before any hashing.
   */
  private nameId(v: unknown): number {
    const s = typeof v === 'string' ? v : str(v);
    const n = s.length;
    if (n === 0) return 0;
    const slot = (n * 31 + s.charCodeAt(0) * 7 + s.charCodeAt(n >> 1) * 131 + s.charCodeAt(n - 1)) & 1023;
    if (this.nameSeen[slot] === s) return this.nameIds[slot]!;
    const id = this.strings.intern(s);
    this.nameSeen[slot] = s;
    this.nameIds[slot] = id;
    return id;
  }

  member(key: string, value: unknown): void {
    if (key === 'stackFrames') {
      if (value && typeof value === 'object') this.stackFrames = value as Record<string, unknown>;
      return;
    }
    if (key === 'samples') return;
    this.metadata[key] = value as MetadataValue;
  }

  event(e: EventFields): void {
    const ph = e.ph;
    if (typeof ph !== 'string') {
      this.ignore(String(ph));
      return;
    }
    if (ph === 'M') return this.meta(e);
    const ts = e.ts;
    if (!Number.isFinite(ts)) {
      this.counts.noTime++;
      return;
    }
    switch (ph) {
      case 'X':
      case 'B':
      case 'E':
        return this.slice(e, ph, ts);
      case 'i':
      case 'I':
      case 'R':
      case 'n': {
        if (ph === 'n' && e.id !== undefined && e.tid === undefined) return this.async(e, ph, ts);
        const t = this.track(e.pid, e.tid, ts);
        this.iTrack.push(t.id);
        this.iTs.push(ts);
        this.iName.push(this.nameId(e.name));
        this.iCat.push(this.catId(e.cat));
        if (e.name === '[memory]' && e.hasArgs) this.memory(e, ts);
        return;
      }
      case 'b':
      case 'e':
      case 'S':
      case 'F':
        return this.async(e, ph === 'S' ? 'b' : ph === 'F' ? 'e' : ph, ts);
      case 's':
      case 't':
      case 'f':
        return this.flow(e, ph, ts);
      case 'C':
        return this.counter(e, ts);
      case 'P':
        if (e.sf !== undefined) return this.sample(e);
        this.counts.profileChunks++;
        return;
      default:
        this.ignore(ph);
    }
  }

  private ignore(ph: string): void {
    this.counts.ignoredPhases.set(ph, (this.counts.ignoredPhases.get(ph) ?? 0) + 1);
  }

  private seen(ts: number): void {
    if (ts < this.minTs) this.minTs = ts;
  }

  /** The string id of a category (and, in lastGpu/lastCpu, its Kineto classes). */
  private catId(cat: unknown): number {
    if (cat !== this.lastCat) {
      const s = str(cat);
      this.lastCat = cat;
      this.lastCatId = this.strings.intern(s);
      this.lastGpu = GPU_CATEGORIES[s] ?? Gpu.None;
      this.lastCpu = CPU_CATEGORIES[s] ?? Cpu.Other;
    }
    return this.lastCatId;
  }

  /** The track of an event's `pid` and `tid` JSON values; moves its last timestamp and the trace start. */
  private track(pid: unknown, tid: unknown, ts: number): RawTrack {
    let t: RawTrack | null = null;
    for (let k = 0; k < 4; k++) {
      if (this.recentPid[k] === pid && this.recentTid[k] === tid && this.recentTrack[k] !== null) {
        t = this.recentTrack[k]!;
        break;
      }
    }
    if (t === null) {
      t = this.trackOf(idOf(pid), idOf(tid));
      const k = this.recentNext;
      this.recentNext = (k + 1) & 3;
      this.recentPid[k] = pid;
      this.recentTid[k] = tid;
      this.recentTrack[k] = t;
    }
    if (ts > t.last) t.last = ts;
    if (Number.isFinite(ts)) this.seen(ts);
    return t;
  }

  /** The track a (pid, tid) pair names, created if needed (does not move the time range). */
  trackOf(pid: string, tid: string): RawTrack {
    const key = pid + '\u0000' + tid;
    let t = this.tracks.get(key);
    if (!t) {
      const m = /^stream (\d+)$/.exec(tid);
      t = {
        id: this.trackList.length,
        pid,
        tid,
        gpu: m !== null,
        device: -1,
        stream: m ? Number(m[1]) : -1,
        name: null,
        sortIndex: 0,
        last: -Infinity,
      };
      this.tracks.set(key, t);
      this.trackList.push(t);
      if (!this.processes.has(pid)) this.processes.set(pid, { name: null, labels: null, sortIndex: 0 });
    }
    return t;
  }

  private slice(e: EventFields, ph: 'X' | 'B' | 'E', ts: number): void {
    const t = this.track(e.pid, e.tid, ts);
    let dur = NaN;
    if (ph === 'X') {
      dur = e.dur;
      if (!(dur >= 0)) dur = 0;
      if (ts + dur > t.last) t.last = ts + dur;
    }
    const catId = this.catId(e.cat);
    const gpu = this.lastGpu;
    let corr = NaN,
      bytes = NaN,
      device = -1,
      stack = 0;
    if (e.hasArgs) {
      corr = e.correlation;
      bytes = e.bytes;
      const d = e.device;
      if (Number.isInteger(d)) device = d;
      const cs = e.callStack;
      if (typeof cs === 'string' && cs) stack = this.nameId(cs);
      if (gpu !== Gpu.None) {
        const s = e.stream;
        if (!t.gpu || t.stream < 0) {
          t.gpu = true;
          if (Number.isInteger(s)) t.stream = s;
        }
        if (t.device < 0 && device >= 0) t.device = device;
      }
    }
    this.sTrack.push(t.id);
    this.sTs.push(ts);
    this.sDur.push(dur);
    this.sPhase.push(ph === 'X' ? Ph.X : ph === 'B' ? Ph.B : Ph.E);
    this.sName.push(this.nameId(e.name));
    this.sCat.push(catId);
    this.sGpu.push(gpu);
    this.sCpu.push(this.lastCpu);
    this.sCorr.push(corr);
    this.sBytes.push(bytes);
    this.sDevice.push(device);
    this.sStack.push(stack);
  }

  private async(e: EventFields, ph: string, ts: number): void {
    const pid = idOf(e.pid);
    const id2 = e.id2 as Record<string, unknown> | undefined;
    const id =
      e.id !== undefined ? idOf(e.id) : id2 && typeof id2 === 'object' ? idOf(id2['global'] ?? id2['local']) : '';
    this.aKey.push(pid + '\u0000' + str(e.cat) + '\u0000' + id);
    this.aPid.push(pid);
    this.aPhase.push(ph === 'b' ? 0 : ph === 'e' ? 1 : 2);
    this.aTs.push(ts);
    this.aName.push(this.nameId(e.name));
    this.aCat.push(this.catId(e.cat));
    if (!this.processes.has(pid)) this.processes.set(pid, { name: null, labels: null, sortIndex: 0 });
    this.seen(ts);
  }

  private flow(e: EventFields, ph: 's' | 't' | 'f', ts: number): void {
    const t = this.track(e.pid, e.tid, ts);
    const cat = this.catId(e.cat);
    const raw = e.id !== undefined ? e.id : e.bindId;
    // The id as idOf() spells it, keyed without building that string when it is a number.
    let id: number | string = typeof raw === 'number' ? raw : idOf(raw);
    if (typeof id === 'string' && id !== '' && String(Number(id)) === id) id = Number(id);
    let ids = this.flowKeys.get(cat);
    if (!ids) this.flowKeys.set(cat, (ids = new Map()));
    let key = ids.get(id);
    if (key === undefined) ids.set(id, (key = this.flowCount++));
    this.fKey.push(key);
    this.fPhase.push(ph === 's' ? 0 : ph === 't' ? 1 : 2);
    this.fTrack.push(t.id);
    this.fTs.push(ts);
    this.fEnclosing.push(ph !== 'f' || e.bp === 'e' ? 1 : 0);
    this.fCat.push(cat);
  }

  /** `{"Device Type": 0 (CPU) | 1 (CUDA) | …, "Device Id", "Bytes" (signed), "Total Allocated", "Total Reserved"}`. */
  private memory(e: EventFields, ts: number): void {
    const bytes = num(e.arg('Bytes'));
    if (!Number.isFinite(bytes)) return;
    const type = num(e.arg('Device Type'));
    const id = num(e.arg('Device Id'));
    this.memTs.push(ts);
    // c10::DeviceType 0 is the CPU; any other type names an accelerator by its Device Id.
    this.memDevice.push(type === 0 || !Number.isInteger(id) || id < 0 ? -1 : id);
    this.memBytes.push(bytes);
    this.memAllocated.push(num(e.arg('Total Allocated')));
    this.memReserved.push(num(e.arg('Total Reserved')));
  }

  private counter(e: EventFields, ts: number): void {
    if (!e.hasArgs) return;
    const pid = idOf(e.pid);
    const name = str(e.name) + (e.id !== undefined ? ` ${idOf(e.id)}` : '');
    const t = this.track(pid, `counter: ${name}`, ts);
    for (const k of argOrder(e)) {
      const value = num(e.arg(k));
      if (!Number.isFinite(value)) continue;
      const series = k === 'value' ? name : `${name}.${k}`;
      const key = t.id + '\u0000' + series;
      let c = this.counters.get(key);
      if (!c)
        this.counters.set(
          key,
          (c = { track: t.id, name: series, time: new GrowableFloat64(), value: new GrowableFloat64() }),
        );
      c.time.push(ts);
      c.value.push(value);
    }
  }

  /** A `P` event with `sf`, or an element of the top-level `samples` array. */
  sample(e: EventFields): void {
    const ts = e.ts;
    if (!Number.isFinite(ts) || e.sf === undefined) {
      this.counts.noTime++;
      return;
    }
    const t = this.track(e.pid, e.tid, ts);
    const w = e.weight;
    this.smTrack.push(t.id);
    this.smTs.push(ts);
    this.smFrame.push(idOf(e.sf));
    this.smWeight.push(Number.isFinite(w) && w > 0 ? w : 1);
  }

  private meta(e: EventFields): void {
    const pid = idOf(e.pid);
    let p = this.processes.get(pid);
    if (!p) this.processes.set(pid, (p = { name: null, labels: null, sortIndex: 0 }));
    switch (e.name) {
      case 'process_name':
        p.name = str(e.arg('name')) || null;
        break;
      case 'process_labels':
        p.labels = str(e.arg('labels')) || null;
        break;
      case 'process_sort_index':
        p.sortIndex = num(e.arg('sort_index')) || 0;
        break;
      case 'thread_name':
        this.trackOf(pid, idOf(e.tid)).name = str(e.arg('name')) || null;
        break;
      case 'thread_sort_index':
        this.trackOf(pid, idOf(e.tid)).sortIndex = num(e.arg('sort_index')) || 0;
        break;
      default:
        break;
    }
  }
}

/** The distinct keys of `args` in `Object.keys` order: array-index keys ascending, then the rest as first met. */
function argOrder(e: EventFields): string[] {
  const keys = [...new Set(e.argKeys.slice(0, e.argCount))];
  const index = keys
    .filter(k => /^(0|[1-9]\d*)$/.test(k) && Number(k) < 4294967295)
    .sort((a, b) => Number(a) - Number(b));
  return index.length ? [...index, ...keys.filter(k => !index.includes(k))] : keys;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** pid/tid/id as a string key: `25738` and `"25738"` are the same thread (Kineto writes both). */
function idOf(v: unknown): string {
  return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

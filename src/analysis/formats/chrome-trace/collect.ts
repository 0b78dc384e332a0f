import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import type { MetadataValue } from '../../model/profile';
import type { StringTable } from '../../model/string-table';
import type { TraceEventSink } from './stream';

/** GPU activity classes of Kineto categories (0 = not a GPU activity). */
export const Gpu = { None: 0, Kernel: 1, Memcpy: 2, Memset: 3 } as const;

/** How a CPU event takes part in Kineto's linking. */
export const Cpu = { Other: 0, Runtime: 1, Python: 2 } as const;

/** Slice phases as stored. */
export const Ph = { X: 0, B: 1, E: 2 } as const;

const GPU_CATEGORIES: Record<string, number> = {
  Kernel: Gpu.Kernel, kernel: Gpu.Kernel, Memcpy: Gpu.Memcpy, gpu_memcpy: Gpu.Memcpy, Memset: Gpu.Memset, gpu_memset: Gpu.Memset,
};
const CPU_CATEGORIES: Record<string, number> = {
  Runtime: Cpu.Runtime, cuda_runtime: Cpu.Runtime, cuda_driver: Cpu.Runtime, python_function: Cpu.Python,
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

export interface RawProcess { name: string | null; labels: string | null; sortIndex: number }

/** One top-level stack frame (`stackFrames`). */
export interface StackFrame { name: string; parent: string | null }

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

  /** Flow endpoints s/t/f. */
  readonly fKey = new GrowableInt32();
  readonly fPhase = new GrowableUint8();
  readonly fTrack = new GrowableInt32();
  readonly fTs = new GrowableFloat64();
  readonly fEnclosing = new GrowableUint8();
  readonly fCat = new GrowableInt32();

  /** Counter series by track + name; values by time. */
  readonly counters = new Map<string, { track: number; name: string; time: GrowableFloat64; value: GrowableFloat64 }>();

  /** Samples (P events with `sf`, top-level `samples`). */
  readonly smTrack = new GrowableInt32();
  readonly smTs = new GrowableFloat64();
  readonly smFrame: string[] = [];
  readonly smWeight = new GrowableFloat64();

  constructor(private readonly strings: StringTable) {}

  member(key: string, value: unknown): void {
    if (key === 'samples[]') return this.sample(value as Record<string, unknown>);
    if (key === 'stackFrames') { if (value && typeof value === 'object') this.stackFrames = value as Record<string, unknown>; return; }
    if (key === 'samples') return;
    this.metadata[key] = value as MetadataValue;
  }

  event(e: Record<string, unknown>): void {
    const ph = e['ph'];
    if (typeof ph !== 'string') { this.ignore(String(ph)); return; }
    if (ph === 'M') return this.meta(e);
    const ts = num(e['ts']);
    if (!Number.isFinite(ts)) { this.counts.noTime++; return; }
    switch (ph) {
      case 'X': case 'B': case 'E': return this.slice(e, ph, ts);
      case 'i': case 'I': case 'R': case 'n': {
        if (ph === 'n' && e['id'] !== undefined && e['tid'] === undefined) return this.async(e, ph, ts);
        const t = this.track(e, ts);
        this.iTrack.push(t.id);
        this.iTs.push(ts);
        this.iName.push(this.strings.intern(str(e['name'])));
        this.iCat.push(this.strings.intern(str(e['cat'])));
        return;
      }
      case 'b': case 'e': case 'S': case 'F': return this.async(e, ph === 'S' ? 'b' : ph === 'F' ? 'e' : ph, ts);
      case 's': case 't': case 'f': return this.flow(e, ph, ts);
      case 'C': return this.counter(e, ts);
      case 'P':
        if (e['sf'] !== undefined) return this.sample(e);
        this.counts.profileChunks++;
        return;
      default: this.ignore(ph);
    }
  }

  private ignore(ph: string): void {
    this.counts.ignoredPhases.set(ph, (this.counts.ignoredPhases.get(ph) ?? 0) + 1);
  }

  private seen(ts: number): void {
    if (ts < this.minTs) this.minTs = ts;
  }

  track(e: Record<string, unknown>, ts: number): RawTrack {
    const pid = idOf(e['pid']);
    const tid = idOf(e['tid']);
    const key = pid + '\u0000' + tid;
    let t = this.tracks.get(key);
    if (!t) {
      const m = /^stream (\d+)$/.exec(tid);
      t = { id: this.trackList.length, pid, tid, gpu: m !== null, device: -1, stream: m ? Number(m[1]) : -1, name: null, sortIndex: 0, last: -Infinity };
      this.tracks.set(key, t);
      this.trackList.push(t);
      if (!this.processes.has(pid)) this.processes.set(pid, { name: null, labels: null, sortIndex: 0 });
    }
    if (ts > t.last) t.last = ts;
    if (Number.isFinite(ts)) this.seen(ts);
    return t;
  }

  private slice(e: Record<string, unknown>, ph: 'X' | 'B' | 'E', ts: number): void {
    const t = this.track(e, ts);
    let dur = NaN;
    if (ph === 'X') {
      dur = num(e['dur']);
      if (!(dur >= 0)) dur = 0;
      if (ts + dur > t.last) t.last = ts + dur;
    }
    const cat = str(e['cat']);
    const gpu = GPU_CATEGORIES[cat] ?? Gpu.None;
    const args = e['args'] as Record<string, unknown> | undefined;
    let corr = NaN, bytes = NaN, device = -1, stack = 0;
    if (args && typeof args === 'object') {
      corr = num(args['correlation']);
      bytes = num(args['bytes']);
      const d = num(args['device']);
      if (Number.isInteger(d)) device = d;
      const cs = args['Call stack'];
      if (typeof cs === 'string' && cs) stack = this.strings.intern(cs);
      if (gpu !== Gpu.None) {
        const s = num(args['stream']);
        if (!t.gpu || t.stream < 0) { t.gpu = true; if (Number.isInteger(s)) t.stream = s; }
        if (t.device < 0 && device >= 0) t.device = device;
      }
    }
    this.sTrack.push(t.id);
    this.sTs.push(ts);
    this.sDur.push(dur);
    this.sPhase.push(ph === 'X' ? Ph.X : ph === 'B' ? Ph.B : Ph.E);
    this.sName.push(this.strings.intern(str(e['name'])));
    this.sCat.push(this.strings.intern(cat));
    this.sGpu.push(gpu);
    this.sCpu.push(CPU_CATEGORIES[cat] ?? Cpu.Other);
    this.sCorr.push(corr);
    this.sBytes.push(bytes);
    this.sDevice.push(device);
    this.sStack.push(stack);
  }

  private async(e: Record<string, unknown>, ph: string, ts: number): void {
    const pid = idOf(e['pid']);
    const id2 = e['id2'] as Record<string, unknown> | undefined;
    const id = e['id'] !== undefined ? idOf(e['id']) : id2 && typeof id2 === 'object' ? idOf(id2['global'] ?? id2['local']) : '';
    this.aKey.push(pid + '\u0000' + str(e['cat']) + '\u0000' + id);
    this.aPid.push(pid);
    this.aPhase.push(ph === 'b' ? 0 : ph === 'e' ? 1 : 2);
    this.aTs.push(ts);
    this.aName.push(this.strings.intern(str(e['name'])));
    this.aCat.push(this.strings.intern(str(e['cat'])));
    if (!this.processes.has(pid)) this.processes.set(pid, { name: null, labels: null, sortIndex: 0 });
    this.seen(ts);
  }

  private flow(e: Record<string, unknown>, ph: 's' | 't' | 'f', ts: number): void {
    const t = this.track(e, ts);
    const id = e['id'] !== undefined ? idOf(e['id']) : idOf(e['bind_id']);
    this.fKey.push(this.strings.intern(`${str(e['cat'])}:${id}`));
    this.fPhase.push(ph === 's' ? 0 : ph === 't' ? 1 : 2);
    this.fTrack.push(t.id);
    this.fTs.push(ts);
    this.fEnclosing.push(ph !== 'f' || e['bp'] === 'e' ? 1 : 0);
    this.fCat.push(this.strings.intern(str(e['cat'])));
  }

  private counter(e: Record<string, unknown>, ts: number): void {
    const args = e['args'];
    if (!args || typeof args !== 'object') return;
    const pid = idOf(e['pid']);
    const name = str(e['name']) + (e['id'] !== undefined ? ` ${idOf(e['id'])}` : '');
    const t = this.track({ pid, tid: `counter: ${name}` }, ts);
    for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
      const value = num(v);
      if (!Number.isFinite(value)) continue;
      const series = k === 'value' ? name : `${name}.${k}`;
      const key = t.id + '\u0000' + series;
      let c = this.counters.get(key);
      if (!c) this.counters.set(key, (c = { track: t.id, name: series, time: new GrowableFloat64(), value: new GrowableFloat64() }));
      c.time.push(ts);
      c.value.push(value);
    }
  }

  private sample(e: Record<string, unknown>): void {
    if (!e || typeof e !== 'object') return;
    const ts = num(e['ts']);
    if (!Number.isFinite(ts) || e['sf'] === undefined) { this.counts.noTime++; return; }
    const t = this.track(e, ts);
    const w = num(e['weight']);
    this.smTrack.push(t.id);
    this.smTs.push(ts);
    this.smFrame.push(idOf(e['sf']));
    this.smWeight.push(Number.isFinite(w) && w > 0 ? w : 1);
  }

  private meta(e: Record<string, unknown>): void {
    const args = (e['args'] ?? {}) as Record<string, unknown>;
    const pid = idOf(e['pid']);
    let p = this.processes.get(pid);
    if (!p) this.processes.set(pid, (p = { name: null, labels: null, sortIndex: 0 }));
    switch (e['name']) {
      case 'process_name': p.name = str(args['name']) || null; break;
      case 'process_labels': p.labels = str(args['labels']) || null; break;
      case 'process_sort_index': p.sortIndex = num(args['sort_index']) || 0; break;
      case 'thread_name': this.metaTrack(e).name = str(args['name']) || null; break;
      case 'thread_sort_index': this.metaTrack(e).sortIndex = num(args['sort_index']) || 0; break;
      default: break;
    }
  }

  /** The track of a metadata event (does not move the time range). */
  private metaTrack(e: Record<string, unknown>): RawTrack {
    return this.track(e, -Infinity);
  }

  /** The track a trace-level (pid, tid) pair names, created if needed. */
  trackOf(pid: string, tid: string): RawTrack {
    return this.track({ pid, tid }, -Infinity);
  }
}

/** Chrome allows numbers as strings (`"ts": "11550183666"`). */
export function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return NaN;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** pid/tid/id as a string key: `25738` and `"25738"` are the same thread (Kineto writes both). */
function idOf(v: unknown): string {
  return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import type { ProfileBuilder } from '../../model/profile-builder';
import { TraceEventKind } from '../../model/trace';
import { TraceBuilder } from '../../model/trace-builder';
import { throwIfAborted } from '../reader';
import { contextOfIdTuple } from './execution-contexts';
import type { MetaDb } from './meta-db';
import type { ProfileInfo } from './profile-db';
import { TRACE_ELEMENT_SIZE, type TraceDb, type TraceLine } from './trace-db';

/** The call tree made from meta.db: the node of each context row, each node's parent and name. */
export interface ContextNodes {
  nodeOfRow: Int32Array;
  parentNode: Int32Array;
  nodeName: readonly string[];
}

const TWO_32 = 2 ** 32;
const ABORT_CHECK_EVERY = 1 << 16;

/**
 * Fills `b.trace` from trace.db: one track per trace line (in context order), and per element with
 * a context a Sample event of that context's node. Like hpctraceviewer's depth view, each sample
 * holds until the next one: consecutive samples sharing a call-path prefix extend one slice per
 * shared frame, so the timeline can be cut at any depth. ctxId 0 (not running) is a gap; the last
 * sample of a line holds until the trace's last timestamp. Times are ns from the earliest sample.
 * Returns the number of samples (0: no trace is attached).
 */
export function addTraceTimeline(
  b: ProfileBuilder,
  db: TraceDb,
  meta: MetaDb,
  nodes: ContextNodes,
  profiles: readonly ProfileInfo[],
  contextOfProfile: Int32Array,
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
): number {
  const { file } = db;
  for (const line of db.lines) {
    if (line.profIndex >= profiles.length)
      throw file.error(
        `trace line ${line.index} belongs to profile ${line.profIndex}, but profile.db has ${profiles.length} profiles`,
      );
    if (contextOfProfile[line.profIndex]! < 0)
      throw file.error(
        `trace line ${line.index} belongs to profile ${line.profIndex}, a summary profile, which is not an execution context`,
      );
  }
  const range = timestampRange(db);
  if (range.count === 0) return 0;
  const span = (range.maxHi - range.minHi) * TWO_32 + (range.maxLo - range.minLo);
  if (span > Number.MAX_SAFE_INTEGER)
    throw file.error(`the timestamps span ${span.toExponential(3)} ns, more than 104 days: a timestamp is corrupt`);
  const min = BigInt(range.minHi) * BigInt(TWO_32) + BigInt(range.minLo);
  const max = BigInt(range.maxHi) * BigInt(TWO_32) + BigInt(range.maxLo);
  if (db.minTimestamp !== min || db.maxTimestamp !== max) {
    b.warnings.push(
      `${file.path}: the header's time range ${db.minTimestamp}–${db.maxTimestamp} ns differs from the samples' ${min}–${max} ns; the samples' range is used`,
    );
  }

  const { parentNode, nodeName } = nodes;
  // Parents are added before their children, so one forward pass gives every depth.
  const { depthOfNode, maxDepth } = nodeDepths(parentNode);
  const nodeOfCtx = (ctxId: number): number => {
    if (ctxId === 0) return -1;
    const row = meta.contexts.rowOf(ctxId);
    return row < 0 ? -2 : nodes.nodeOfRow[row]!;
  };

  const tb = new TraceBuilder(b.tree.strings);
  tb.originNs = min.toString();
  const timeline = new LineTimeline(depthOfNode, parentNode, maxDepth);
  const nameOfNode = new Int32Array(parentNode.length).fill(-1);
  const lines = db.lines
    .filter(l => l.count > 0)
    .sort((x, y) => contextOfProfile[x.profIndex]! - contextOfProfile[y.profIndex]! || x.index - y.index);
  let unknown = 0,
    unsorted = 0,
    samples = 0;
  lines.forEach((line, k) => {
    throwIfAborted(options.signal);
    const context = contextOfProfile[line.profIndex]!;
    const { coordinates: c } = contextOfIdTuple(profiles[line.profIndex]!.idTuple, meta.idNames);
    const rank = c.rank ?? -1,
      thread = c.thread ?? -1,
      gpuDevice = c.gpuDevice ?? -1,
      gpuStream = c.gpuStream ?? -1;
    const name = [
      thread >= 0 ? `thread ${thread}` : '',
      gpuDevice >= 0 ? `GPU ${gpuDevice}` : '',
      gpuStream >= 0 ? `stream ${gpuStream}` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    const track = tb.addTrack({
      name: name || 'main',
      kind: gpuStream >= 0 ? 'gpu-stream' : 'thread',
      process: rank >= 0 ? `rank ${rank}` : 'process',
      pid: rank >= 0 ? String(rank) : '',
      tid: thread >= 0 ? String(thread) : '',
      rank,
      thread,
      gpuDevice,
      gpuStream,
      context,
    });
    const { time, ctx, sorted } = decodeLine(db, line, range.minHi, range.minLo);
    if (!sorted) unsorted++;
    timeline.reset();
    for (let i = 0; i < time.length; i++) {
      if ((i & (ABORT_CHECK_EVERY - 1)) === ABORT_CHECK_EVERY - 1) throwIfAborted(options.signal);
      const node = nodeOfCtx(ctx[i]!);
      if (node === -2) unknown++;
      if (node < 0) timeline.gap(time[i]!);
      else {
        timeline.sample(time[i]!, node);
        samples++;
      }
    }
    timeline.gap(span);
    timeline.emit(tb, track, nodeName, nameOfNode);
    options.onProgress?.((k + 1) / lines.length);
  });
  if (unsorted)
    b.warnings.push(
      `${file.path}: ${unsorted} trace line${unsorted === 1 ? ' is' : 's are'} not sorted by time; ${unsorted === 1 ? 'it was' : 'they were'} sorted`,
    );
  if (unknown)
    b.warnings.push(
      `${file.path}: ${unknown} trace samples name contexts meta.db does not list; they are shown as gaps`,
    );
  b.trace = tb.finish();
  return samples;
}

/** Smallest and largest timestamp over all elements, as u32 halves (u64 ns since the epoch exceed 2^53), and the element count. */
function timestampRange(db: TraceDb): { minHi: number; minLo: number; maxHi: number; maxLo: number; count: number } {
  const view = db.file.view;
  let minHi = Infinity,
    minLo = Infinity,
    maxHi = -1,
    maxLo = -1,
    count = 0;
  for (const line of db.lines) {
    for (let k = 0, at = line.start; k < line.count; k++, at += TRACE_ELEMENT_SIZE) {
      const lo = view.getUint32(at, true),
        hi = view.getUint32(at + 4, true);
      if (hi < minHi || (hi === minHi && lo < minLo)) {
        minHi = hi;
        minLo = lo;
      }
      if (hi > maxHi || (hi === maxHi && lo > maxLo)) {
        maxHi = hi;
        maxLo = lo;
      }
    }
    count += line.count;
  }
  return { minHi, minLo, maxHi, maxLo, count };
}

/** A line's elements as ns from the origin and ctxIds, sorted by time (stably, when the file's order is not). */
function decodeLine(
  db: TraceDb,
  line: TraceLine,
  originHi: number,
  originLo: number,
): { time: Float64Array; ctx: Uint32Array; sorted: boolean } {
  const view = db.file.view;
  const time = new Float64Array(line.count);
  const ctx = new Uint32Array(line.count);
  let sorted = true;
  for (let k = 0, at = line.start; k < line.count; k++, at += TRACE_ELEMENT_SIZE) {
    time[k] = (view.getUint32(at + 4, true) - originHi) * TWO_32 + (view.getUint32(at, true) - originLo);
    ctx[k] = view.getUint32(at + 8, true);
    if (k > 0 && time[k]! < time[k - 1]!) sorted = false;
  }
  if (sorted) return { time, ctx, sorted };
  const order = Array.from({ length: line.count }, (_, k) => k).sort((a, b) => time[a]! - time[b]! || a - b);
  return { time: Float64Array.from(order, k => time[k]!), ctx: Uint32Array.from(order, k => ctx[k]!), sorted };
}

/** Depth of each node of a tree whose parents come before their children, and the deepest. */
export function nodeDepths(parentNode: Int32Array): { depthOfNode: Int32Array; maxDepth: number } {
  const depthOfNode = new Int32Array(parentNode.length);
  let maxDepth = 0;
  for (let n = 0; n < parentNode.length; n++) {
    const p = parentNode[n]!;
    depthOfNode[n] = p < 0 ? 0 : depthOfNode[p]! + 1;
    if (depthOfNode[n]! > maxDepth) maxDepth = depthOfNode[n]!;
  }
  return { depthOfNode, maxDepth };
}

/**
 * The events of one track: a stack of open slices (the call path of the current sample) and the
 * rows in (start, depth) order; a slice's duration is filled in when a later sample leaves its frame.
 */
export class LineTimeline {
  private readonly kind = new GrowableUint8(1024);
  private readonly start = new GrowableFloat64(1024);
  private readonly duration = new GrowableFloat64(1024);
  private readonly node = new GrowableInt32(1024);
  private readonly depth = new GrowableInt32(1024);
  /** Room for the rows' name ids, filled by {@link emit}. */
  private readonly name = new GrowableInt32(1024);
  private readonly openNode: Int32Array;
  private readonly openRow: Int32Array;
  private open = 0;

  constructor(
    private readonly depthOfNode: Int32Array,
    private readonly parent: Int32Array,
    maxDepth: number,
  ) {
    this.openNode = new Int32Array(maxDepth + 1);
    this.openRow = new Int32Array(maxDepth + 1);
  }

  reset(): void {
    this.kind.length = this.start.length = this.duration.length = this.node.length = this.depth.length = 0;
    this.open = 0;
  }

  /** A sample of `leaf` at `t`: close the frames it does not share with the open path, open its own. */
  sample(t: number, leaf: number): void {
    const { depthOfNode, parent, openNode } = this;
    let shared = leaf;
    while (shared >= 0 && depthOfNode[shared]! >= this.open) shared = parent[shared]!;
    while (shared >= 0 && openNode[depthOfNode[shared]!] !== shared) shared = parent[shared]!;
    this.closeTo(shared < 0 ? 0 : depthOfNode[shared]! + 1, t);
    const d = depthOfNode[leaf]!;
    for (let n = leaf; n >= 0 && depthOfNode[n]! >= this.open; n = parent[n]!) openNode[depthOfNode[n]!] = n;
    for (let k = this.open; k <= d; k++) this.openRow[k] = this.push(TraceEventKind.Slice, t, openNode[k]!, k);
    this.open = d + 1;
    this.push(TraceEventKind.Sample, t, leaf, d);
  }

  /** Not running (or an unknown context) from `t`: every open frame ends. */
  gap(t: number): void {
    this.closeTo(0, t);
  }

  /**
   * Appends the track's rows to `tb` as columns. `nameOfNode` holds each node's string id once
   * interned (-1 before): names are interned in row order, as one event at a time would.
   */
  emit(tb: TraceBuilder, track: number, nodeName: readonly string[], nameOfNode: Int32Array): void {
    const count = this.kind.length;
    const node = this.node.view();
    const name = this.name.reserve(count);
    for (let r = 0; r < count; r++) {
      const n = node[r]!;
      let id = nameOfNode[n]!;
      if (id < 0) id = nameOfNode[n] = tb.strings.intern(nodeName[n]!);
      name[r] = id;
    }
    tb.addEvents(track, count, {
      kind: this.kind.view(),
      start: this.start.view(),
      duration: this.duration.view(),
      node,
      depth: this.depth.view(),
      name,
    });
  }

  private closeTo(depth: number, t: number): void {
    for (; this.open > depth; this.open--) {
      const row = this.openRow[this.open - 1]!;
      this.duration.set(row, t - this.start.get(row));
    }
  }

  private push(kind: TraceEventKind, t: number, node: number, depth: number): number {
    this.kind.push(kind);
    this.start.push(t);
    this.duration.push(0);
    this.node.push(node);
    return this.depth.push(depth);
  }
}

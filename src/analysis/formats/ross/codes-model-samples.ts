import { GrowableFloat64, GrowableInt32 } from '../../model/growable';
import type { ModelSamples, RouterSamples, TerminalSamples } from '../../pdes/model/network';
import type { ModelRecord } from './record-decoder';

/**
 * Model samples of CODES dragonfly-dally (`dragonfly-dally.cxx`, `doc/model-stats-binary-format.md`;
 * data-sources §14), written by virtual-time sampling into `*-analysis-lps.bin`:
 * - router (`dfly_router_sample`, 72 + 32·radix bytes): `router_id, end_time(f64), fwd_events,
 *   rev_events`, 5 pointer slots, then per port `busy_time f64, link_traffic i64, stalled_chunks u64,
 *   vc_occupancy_sum i32, queued_count i32` (each as an array over the ports);
 * - terminal (`dfly_cn_sample`, 128 + 24·rails bytes with one QoS level): 12 eight-byte fields, 4
 *   pointer slots, then per rail `busy_time f64, stalled_chunks u64`, `vc_occupancy i32`,
 *   `terminal_length i32`.
 */
export type ModelLayout = 'router' | 'terminal';

const ROUTER_FIXED = 72;
const TERMINAL_FIXED = 128;

/** Ports of a router sample of `size` bytes, or 0 when the size fits no router. */
export function routerRadix(size: number): number {
  const r = (size - ROUTER_FIXED) / 32;
  return Number.isInteger(r) && r >= 1 ? r : 0;
}

/** Rails of a terminal sample of `size` bytes (one QoS level), or 0 when the size fits no terminal. */
export function terminalRails(size: number): number {
  const r = (size - TERMINAL_FIXED) / 24;
  return Number.isInteger(r) && r >= 1 ? r : 0;
}

/**
 * The layout of a model record: from the LP's type when the CODES config names it (a type whose name
 * has `router` is a router, another `dragonfly` type a terminal), else from its size (routers first:
 * a 296-byte terminal would need 7 rails).
 */
export function modelLayout(size: number, lpTypeName?: string): ModelLayout | null {
  if (lpTypeName !== undefined) {
    if (/router/i.test(lpTypeName)) return routerRadix(size) ? 'router' : null;
    if (/dragonfly/i.test(lpTypeName)) return terminalRails(size) ? 'terminal' : null;
    return null;
  }
  if (routerRadix(size)) return 'router';
  if (terminalRails(size)) return 'terminal';
  return null;
}

/**
 * Collects model records into router and terminal tables. When virtual-time sampling repeats an LP
 * at the same point (a rolled-back analysis LP samples again), the last sample is kept.
 */
export class ModelSampleCollector {
  private readonly routers = new RowTable(['lp', 'router', 'time', 'endTime', 'forwardEvents', 'reverseEvents']);
  private readonly routerPorts = ['busyTime', 'linkTraffic', 'stalledChunks', 'vcOccupancy', 'queuedCount'].map(
    () => new GrowableFloat64(),
  );
  private radix = 0;
  private readonly terminals = new RowTable([
    'lp',
    'terminal',
    'time',
    'finishedChunks',
    'dataSize',
    'finishedHops',
    'finishedChunksTime',
    'packetsGenerated',
    'packetsFinished',
    'minimalFinished',
    'nonMinimalFinished',
    'endTime',
    'forwardEvents',
    'reverseEvents',
    'busyTime',
    'stalledChunks',
  ]);
  private rails = 0;
  private readonly unknown = new Map<number, number>();
  private readonly points = new Set<number>();
  private readonly values = new Float64Array(16);

  /** Adds a record; `lpTypeName` (from a CODES config) decides its layout when known. */
  add(rec: ModelRecord, lpTypeName?: string): void {
    const size = rec.payload.length;
    const layout = modelLayout(size, lpTypeName);
    const view = new DataView(rec.payload.buffer, rec.payload.byteOffset, size);
    if (layout === 'router' && (this.radix === 0 || this.radix === routerRadix(size))) {
      this.radix = routerRadix(size);
      const v = this.values;
      v[0] = rec.lp;
      v[1] = Number(view.getBigUint64(0, true));
      v[2] = rec.virtualTime;
      v[3] = view.getFloat64(8, true);
      v[4] = Number(view.getBigInt64(16, true));
      v[5] = Number(view.getBigInt64(24, true));
      const row = this.routers.put(rec.lp, rec.virtualTime, v);
      const R = this.radix;
      for (let p = 0; p < R; p++) {
        const at = row * R + p;
        setAt(this.routerPorts[0]!, at, view.getFloat64(ROUTER_FIXED + 8 * p, true));
        setAt(this.routerPorts[1]!, at, Number(view.getBigInt64(ROUTER_FIXED + 8 * R + 8 * p, true)));
        setAt(this.routerPorts[2]!, at, Number(view.getBigUint64(ROUTER_FIXED + 16 * R + 8 * p, true)));
        setAt(this.routerPorts[3]!, at, view.getInt32(ROUTER_FIXED + 24 * R + 4 * p, true));
        setAt(this.routerPorts[4]!, at, view.getInt32(ROUTER_FIXED + 28 * R + 4 * p, true));
      }
    } else if (layout === 'terminal' && (this.rails === 0 || this.rails === terminalRails(size))) {
      this.rails = terminalRails(size);
      const v = this.values;
      v[0] = rec.lp;
      v[1] = Number(view.getBigUint64(0, true));
      v[2] = rec.virtualTime;
      for (let k = 1; k < 12; k++)
        v[2 + k] =
          k === 3 || k === 4 || k === 9 ? view.getFloat64(8 * k, true) : Number(view.getBigUint64(8 * k, true));
      let busy = 0;
      let stalled = 0;
      for (let r = 0; r < this.rails; r++) {
        busy += view.getFloat64(TERMINAL_FIXED + 8 * r, true);
        stalled += Number(view.getBigUint64(TERMINAL_FIXED + 8 * this.rails + 8 * r, true));
      }
      v[14] = busy;
      v[15] = stalled;
      this.terminals.put(rec.lp, rec.virtualTime, v);
    } else {
      this.unknown.set(size, (this.unknown.get(size) ?? 0) + 1);
      return;
    }
    this.points.add(rec.virtualTime);
  }

  /** The tables, rows sorted by router (terminal) id, then time. */
  finish(): ModelSamples {
    const r = this.routers.finish();
    const t = this.terminals.finish();
    const rOrder = byIdThenTime(r.col.router!, r.col.time!);
    permute(r.col, rOrder, 1);
    permute(t.col, byIdThenTime(t.col.terminal!, t.col.time!), 1);
    const ports: Record<string, Float64Array> = {};
    this.routerPorts.forEach((g, k) => (ports[k] = g.finish()));
    permute(ports, rOrder, this.radix);
    const routers: RouterSamples | null = r.count
      ? {
          count: r.count,
          radix: this.radix,
          lp: Int32Array.from(r.col.lp!),
          router: Int32Array.from(r.col.router!),
          time: r.col.time!,
          endTime: r.col.endTime!,
          forwardEvents: r.col.forwardEvents!,
          reverseEvents: r.col.reverseEvents!,
          busyTime: ports[0]!,
          linkTraffic: ports[1]!,
          stalledChunks: ports[2]!,
          vcOccupancy: ports[3]!,
          queuedCount: ports[4]!,
        }
      : null;
    const terminals: TerminalSamples | null = t.count
      ? {
          count: t.count,
          rails: this.rails,
          lp: Int32Array.from(t.col.lp!),
          terminal: Int32Array.from(t.col.terminal!),
          time: t.col.time!,
          finishedChunks: t.col.finishedChunks!,
          dataSize: t.col.dataSize!,
          finishedHops: t.col.finishedHops!,
          finishedChunksTime: t.col.finishedChunksTime!,
          packetsGenerated: t.col.packetsGenerated!,
          packetsFinished: t.col.packetsFinished!,
          minimalFinished: t.col.minimalFinished!,
          nonMinimalFinished: t.col.nonMinimalFinished!,
          endTime: t.col.endTime!,
          forwardEvents: t.col.forwardEvents!,
          reverseEvents: t.col.reverseEvents!,
          busyTime: t.col.busyTime!,
          stalledChunks: t.col.stalledChunks!,
        }
      : null;
    return {
      routers,
      terminals,
      unknown: new Map(this.unknown),
      points: Float64Array.from([...this.points].sort((a, b) => a - b)),
    };
  }
}

function byIdThenTime(id: Float64Array, time: Float64Array): Int32Array {
  return Int32Array.from(id, (_, i) => i).sort((a, b) => id[a]! - id[b]! || time[a]! - time[b]!);
}

/** Reorders row-major columns of `width` values per row: new row i takes old row order[i]. */
function permute(cols: Record<string, Float64Array>, order: Int32Array, width: number): void {
  for (const c of Object.values(cols)) {
    const copy = c.slice();
    order.forEach((old, i) => c.set(copy.subarray(old * width, (old + 1) * width), i * width));
  }
}

/** Rows keyed by (LP, point): a repeated key overwrites its row (the last sample stands). */
class RowTable {
  private readonly cols: GrowableFloat64[];
  private readonly rows = new Map<string, number>();
  private count = 0;

  constructor(private readonly names: readonly string[]) {
    this.cols = names.map(() => new GrowableFloat64());
  }

  /** Writes `values` (in column order) into the row of (lp, time); returns the row index. */
  put(lp: number, time: number, values: Float64Array): number {
    const key = `${lp}@${time}`;
    let row = this.rows.get(key);
    if (row === undefined) {
      row = this.count++;
      this.rows.set(key, row);
    }
    for (let k = 0; k < this.cols.length; k++) setAt(this.cols[k]!, row, values[k]!);
    return row;
  }

  finish(): { count: number; col: Record<string, Float64Array> } {
    const col: Record<string, Float64Array> = {};
    this.names.forEach((n, k) => (col[n] = this.cols[k]!.finish()));
    return { count: this.count, col };
  }
}

function setAt(g: GrowableFloat64 | GrowableInt32, i: number, v: number): void {
  while (g.length <= i) g.push(0);
  g.set(i, v);
}

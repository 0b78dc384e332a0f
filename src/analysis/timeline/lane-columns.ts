import type { TimelineIndex, TimeWindow } from './timeline-index';

/** What a column's colour stands for: the function (event name), its load module, or its node's class (TimelineIndex.nodeClasses). */
export type ColourBy = 'function' | 'module' | 'class';

/** Names of the keys of colouring by class: a trace analysis's classes (timeseries CLASS_NAMES, same order). */
export const CLASS_KEY_NAMES: readonly string[] = ['insignificant', 'computation', 'wait', 'sync'];

/** Maps slices and sampled frames to colour keys (string ids of the profile; class indices for `class`). */
export class Keyer {
  private readonly strings: readonly string[];
  private readonly classes: Uint8Array | null;
  /** Identifies what the keys mean (summaries of another key set are not reused). */
  readonly id: string;
  constructor(
    private readonly index: TimelineIndex,
    readonly colourBy: ColourBy,
  ) {
    this.strings = index.profile.data.strings;
    const classes = colourBy === 'class' ? index.nodeClasses : null;
    if (colourBy === 'class' && !classes) throw new Error('colouring by class needs a trace analysis of this trace');
    this.classes = classes?.values ?? null;
    this.id = classes ? `class#${classes.version}` : colourBy;
  }

  ofSlice(row: number): number {
    const ev = this.index.trace.events;
    if (this.colourBy === 'function') return ev.name[row]!;
    const node = ev.node[row]!;
    if (this.classes) return node >= 0 ? this.classes[node]! : 0;
    return node >= 0 ? this.index.profile.tree.columns.module[node]! : 0;
  }

  ofNode(node: number): number {
    if (this.classes) return this.classes[node]!;
    const c = this.index.profile.tree.columns;
    return this.colourBy === 'function' ? c.name[node]! : c.module[node]!;
  }

  name(key: number): string {
    if (this.classes) return CLASS_KEY_NAMES[key] ?? CLASS_KEY_NAMES[0]!;
    const s = this.strings[key] ?? '';
    return s !== '' ? s : this.colourBy === 'module' ? '(unknown module)' : '(unnamed)';
  }
}

/** Weights of the keys seen in one column (a handful in practice, so a linear list). */
export class ColumnScratch {
  keys = new Int32Array(64);
  weights = new Float64Array(64);
  size = 0;

  add(k: number, w: number): void {
    for (let i = 0; i < this.size; i++)
      if (this.keys[i] === k) {
        this.weights[i]! += w;
        return;
      }
    if (this.size === this.keys.length) {
      const keys = new Int32Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const weights = new Float64Array(this.size * 2);
      weights.set(this.weights);
      this.weights = weights;
    }
    this.keys[this.size] = k;
    this.weights[this.size++] = w;
  }

  /** Index of the heaviest key other than `skip` (ties: the smaller key), or -1. */
  best(skip = -1): number {
    let b = -1;
    for (let i = 0; i < this.size; i++) {
      const w = this.weights[i]!;
      if (w <= 0 || i === skip) continue;
      if (b < 0 || w > this.weights[b]! || (w === this.weights[b]! && this.keys[i]! < this.keys[b]!)) b = i;
    }
    return b;
  }
}

/**
 * Where laneColumns writes column c (at `at + c`): the dominant key, its share, the busy fraction,
 * and optionally the runner-up key and its share (for the tile summary, which merges columns).
 */
export interface ColumnOutput {
  key: Int32Array;
  share: Float32Array;
  busy: Float32Array;
  key2?: Int32Array;
  share2?: Float32Array;
}

/**
 * The exact columns of one lane, from its events: per column the weight of every key at the chosen
 * depth (a slice's clipped time minus its deeper children's, samples by their frame at that depth).
 * O(W × (depth + 1) + events of depth ≤ d in the window).
 */
export function laneColumns(
  index: TimelineIndex,
  t: number,
  window: TimeWindow,
  width: number,
  depth: number,
  keyer: Keyer,
  scratch: ColumnScratch,
  out: ColumnOutput,
  at: number,
): void {
  const ev = index.trace.events;
  const { rows } = index;
  const { key, share, busy, key2, share2 } = out;
  const dEnd = Math.min(depth, index.trackDepths(t) - 1);
  // Per depth: the window's position range, a column cursor, and a cursor to find a slice's parent.
  const pos: number[] = [],
    hiPos: number[] = [],
    parentPos: number[] = [];
  let overlapping = false;
  for (let j = 0; j <= dEnd; j++) overlapping ||= index.isOverlapping(t, j);
  for (let j = 0; j <= dEnd; j++) {
    const [lo, hi] = index.slicesIn(t, j, window.start, window.end);
    pos.push(lo);
    hiPos.push(hi);
    parentPos.push(lo);
  }
  const [sp0, sHi] = index.samplesIn(t, window.start, window.end);
  let sp = sp0;
  const sampleRows = index.sampleRows,
    hold = index.sampleHold;
  const t0 = window.start,
    t1 = window.end,
    colW = (t1 - t0) / width;
  if (!(colW > 0)) return;
  for (let c = 0; c < width; c++) {
    const a = t0 + c * colW,
      b = c + 1 === width ? t1 : t0 + (c + 1) * colW;
    scratch.size = 0;
    let sliceBusy = 0,
      sampleBusy = 0;
    // The column's result holds for every later column that ends by `horizon`: the time until
    // which the same slices cover it whole (or the same gap lasts) at every depth.
    let horizon = Infinity;
    for (let j = 0; j <= dEnd; j++) {
      let p = pos[j]!;
      const hi = hiPos[j]!;
      while (p < hi && ev.start[rows[p]!]! + ev.duration[rows[p]!]! <= a) p++;
      pos[j] = p;
      if (p >= hi) continue;
      const first = rows[p]!,
        fs = ev.start[first]!,
        fe = fs + ev.duration[first]!;
      if (fs >= b) {
        horizon = Math.min(horizon, fs);
        continue;
      }
      horizon = fs <= a && fe >= b && !overlapping ? Math.min(horizon, fe) : -Infinity;
      for (let q = p; q < hi; q++) {
        const r = rows[q]!;
        const s = ev.start[r]!;
        if (s >= b) break;
        const cov = Math.min(s + ev.duration[r]!, b) - Math.max(s, a);
        if (cov <= 0) continue;
        scratch.add(keyer.ofSlice(r), cov);
        if (j === 0) sliceBusy += cov;
        else {
          // Time inside a deeper slice is not its parent's at this depth: take it off the parent.
          let pp = parentPos[j - 1]!;
          const pHi = hiPos[j - 1]!;
          while (pp < pHi && ev.start[rows[pp]!]! + ev.duration[rows[pp]!]! <= s) pp++;
          parentPos[j - 1] = pp;
          if (pp < pHi && ev.start[rows[pp]!]! <= s) scratch.add(keyer.ofSlice(rows[pp]!), -cov);
        }
      }
    }
    while (sp < sHi && ev.start[sampleRows[sp]!]! + hold[sp]! <= a && ev.start[sampleRows[sp]!]! < a) sp++;
    if (sp < sHi) {
      const fs = ev.start[sampleRows[sp]!]!;
      horizon = fs >= b ? Math.min(horizon, fs) : -Infinity;
    }
    for (let q = sp; q < sHi; q++) {
      const s = ev.start[sampleRows[q]!]!;
      if (s >= b) break;
      const cov = Math.min(s + hold[q]!, b) - Math.max(s, a);
      if (cov <= 0) continue;
      const leaf = ev.node[sampleRows[q]!]!;
      if (leaf < 0) continue;
      scratch.add(keyer.ofNode(index.frameAtDepth(leaf, depth)), cov);
      sampleBusy += cov;
    }
    const best = scratch.best();
    const k = best >= 0 ? scratch.keys[best]! : -1;
    const sh = best >= 0 ? Math.min(1, scratch.weights[best]! / (b - a)) : 0;
    const bu = Math.min(1, Math.max(sliceBusy, sampleBusy) / (b - a));
    let k2 = -1,
      sh2 = 0;
    if (key2 && best >= 0) {
      const second = scratch.best(best);
      if (second >= 0) {
        k2 = scratch.keys[second]!;
        sh2 = Math.min(1, scratch.weights[second]! / (b - a));
      }
    }
    key[at + c] = k;
    share[at + c] = sh;
    busy[at + c] = bu;
    if (key2) {
      key2[at + c] = k2;
      share2![at + c] = sh2;
    }
    // Copy the result over the columns that lie wholly before the horizon (zoomed in: most of them).
    while (c + 1 < width && (c + 2 === width ? t1 : t0 + (c + 2) * colW) <= horizon) {
      c++;
      key[at + c] = k;
      share[at + c] = sh;
      busy[at + c] = bu;
      if (key2) {
        key2[at + c] = k2;
        share2![at + c] = sh2;
      }
    }
  }
}

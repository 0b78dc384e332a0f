/**
 * Dense ids for pairs of non-negative int32s (caller × callee supernode, supernode × function), in
 * order of first sight. Open addressing over typed arrays: the super graph asks about once per
 * call-tree node, and a `Map` with computed number keys is several times slower at 10⁶ lookups.
 */
export class PairIndex {
  private a: Int32Array;
  private b: Int32Array;
  private ids: Int32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1024) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.a = new Int32Array(cap).fill(-1);
    this.b = new Int32Array(cap);
    this.ids = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** The id of (a, b), or -1. */
  get(a: number, b: number): number {
    for (let h = this.slot(a, b); ; h = (h + 1) & this.mask) {
      const k = this.a[h]!;
      if (k === -1) return -1;
      if (k === a && this.b[h] === b) return this.ids[h]!;
    }
  }

  /** The id of (a, b), assigned (as `size` before the call) when the pair is new. */
  add(a: number, b: number): number {
    if ((this.size + 1) * 2 > this.a.length) this.grow();
    let h = this.slot(a, b);
    for (; ; h = (h + 1) & this.mask) {
      const k = this.a[h]!;
      if (k === -1) break;
      if (k === a && this.b[h] === b) return this.ids[h]!;
    }
    this.a[h] = a;
    this.b[h] = b;
    this.ids[h] = this.size;
    return this.size++;
  }

  private slot(a: number, b: number): number {
    return ((Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77)) >>> 7) & this.mask;
  }

  private grow(): void {
    const { a, b, ids } = this;
    const cap = a.length * 2;
    this.a = new Int32Array(cap).fill(-1);
    this.b = new Int32Array(cap);
    this.ids = new Int32Array(cap);
    this.mask = cap - 1;
    for (let h = 0; h < a.length; h++) {
      if (a[h] === -1) continue;
      let s = this.slot(a[h]!, b[h]!);
      while (this.a[s] !== -1) s = (s + 1) & this.mask;
      this.a[s] = a[h]!;
      this.b[s] = b[h]!;
      this.ids[s] = ids[h]!;
    }
  }
}

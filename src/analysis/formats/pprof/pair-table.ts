/**
 * A map from pairs of non-negative int32 (parent node, frame) to int32, by open addressing over one
 * typed array. A JS Map keyed by a combined number above 2^31 boxes every key as a heap number; on
 * a profile with half a million call paths that was three quarters of the read time. Each slot
 * keeps its key pair and value side by side (stride 4) so a probe touches one cache line.
 */
export class PairTable {
  private slots: Int32Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1024) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.slots = new Int32Array(n * 4).fill(-1);
    this.mask = n - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The value of (a, b), or -1. */
  get(a: number, b: number): number {
    const s = this.slots;
    for (let i = slot(a, b) & this.mask; ; i = (i + 1) & this.mask) {
      const k = s[i * 4]!;
      if (k === -1) return -1;
      if (k === a && s[i * 4 + 1] === b) return s[i * 4 + 2]!;
    }
  }

  /** Stores (a, b) → value; (a, b) must not be present yet. */
  set(a: number, b: number, value: number): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    this.place(a, b, value);
    this.count++;
  }

  private place(a: number, b: number, value: number): void {
    const s = this.slots;
    let i = slot(a, b) & this.mask;
    while (s[i * 4] !== -1) i = (i + 1) & this.mask;
    s[i * 4] = a;
    s[i * 4 + 1] = b;
    s[i * 4 + 2] = value;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2).fill(-1);
    this.mask = this.slots.length / 4 - 1;
    for (let i = 0; i < old.length; i += 4) if (old[i] !== -1) this.place(old[i]!, old[i + 1]!, old[i + 2]!);
  }
}

function slot(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) >>> 0;
}

/** Typed-array columns that grow while a reader appends rows, then hand out a tight copy. */
type TypedArray = Int32Array | Uint8Array | Float32Array | Float64Array;
type TypedArrayCtor<T extends TypedArray> = { new (length: number): T };

class Growable<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(
    private readonly ctor: TypedArrayCtor<T>,
    capacity = 64,
  ) {
    this.data = new ctor(Math.max(16, capacity));
  }

  push(value: number): number {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length] = value;
    return this.length++;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  set(i: number, value: number): void {
    this.data[i] = value;
  }

  /**
   * The backing array with room for `extra` more values past `length`: write them there, then raise
   * `length` (a bulk append without a call per value). Valid until the next `push` or `reserve`.
   */
  reserve(extra: number): T {
    if (this.length + extra > this.data.length) this.grow(this.length + extra);
    return this.data;
  }

  /** Appends all of `values` (one copy, no call per value). */
  append(values: T): void {
    this.reserve(values.length).set(values as never, this.length);
    this.length += values.length;
  }

  /** The first `length` values without copying; valid until the next `push`. */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  /** A tight copy of the first `length` values. */
  finish(): T {
    return this.data.slice(0, this.length) as T;
  }

  private grow(min: number): void {
    const next = new this.ctor(Math.max(min, this.data.length * 2));
    next.set(this.data as never);
    this.data = next;
  }
}

export class GrowableInt32 extends Growable<Int32Array> {
  constructor(capacity?: number) {
    super(Int32Array, capacity);
  }
}
export class GrowableUint8 extends Growable<Uint8Array> {
  constructor(capacity?: number) {
    super(Uint8Array, capacity);
  }
}
export class GrowableFloat32 extends Growable<Float32Array> {
  constructor(capacity?: number) {
    super(Float32Array, capacity);
  }
}
export class GrowableFloat64 extends Growable<Float64Array> {
  constructor(capacity?: number) {
    super(Float64Array, capacity);
  }
}

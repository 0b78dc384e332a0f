/** Interns strings so the model stores small integer ids instead of repeated strings. */
export class StringTable {
  /**
   * String → id, built on the first {@link intern} or {@link find}: most tables (a decoded run
   * summary, a profile handed between threads) are only ever read by id, and hashing every string
   * of 1,000 runs' tables cost more than reading the runs.
   */
  private index: Map<string, number> | null = null;
  private readonly values: string[];

  /** Id of the empty string, which stands for "unknown" in optional columns. */
  static readonly EMPTY = 0;

  /** The strings in id order (ids are positions; a repeated string keeps its first id on lookup). */
  constructor(values: readonly string[] = ['']) {
    if (values[0] !== '') throw new Error('string table must start with the empty string');
    this.values = values.slice();
  }

  private ids(): Map<string, number> {
    if (!this.index) {
      this.index = new Map();
      for (let i = 0; i < this.values.length; i++)
        if (!this.index.has(this.values[i]!)) this.index.set(this.values[i]!, i);
    }
    return this.index;
  }

  intern(value: string): number {
    const ids = this.ids();
    let id = ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      ids.set(value, id);
    }
    return id;
  }

  /** Id of an already interned string, or -1. */
  find(value: string): number {
    return this.ids().get(value) ?? -1;
  }

  get(id: number): string {
    const v = this.values[id];
    if (v === undefined) throw new RangeError(`string id ${id} out of range`);
    return v;
  }

  get size(): number {
    return this.values.length;
  }

  /** The strings in id order (for transfer between threads). */
  toArray(): string[] {
    return this.values.slice();
  }
}

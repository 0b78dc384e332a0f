/** Interns strings so the model stores small integer ids instead of repeated strings. */
export class StringTable {
  private readonly ids = new Map<string, number>();
  private readonly values: string[] = [];

  /** Id of the empty string, which stands for "unknown" in optional columns. */
  static readonly EMPTY = 0;

  constructor(values: readonly string[] = ['']) {
    for (const v of values) this.intern(v);
    if (this.values[0] !== '') throw new Error('string table must start with the empty string');
  }

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  /** Id of an already interned string, or -1. */
  find(value: string): number {
    return this.ids.get(value) ?? -1;
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

/**
 * The ordered list of loaded datasets with one active, and the order in which they were active
 * (so closing the active one returns to the one used before it, as editor tabs do). Pure: the
 * ProfileManager owns one and the rules are unit-tested here.
 */
export class DatasetList<T> {
  private readonly items: T[] = [];
  /** Most recently active last. */
  private readonly recency: T[] = [];

  get all(): readonly T[] {
    return this.items;
  }
  get size(): number {
    return this.items.length;
  }
  get active(): T | undefined {
    return this.recency[this.recency.length - 1];
  }

  find(predicate: (item: T) => boolean): T | undefined {
    return this.items.find(predicate);
  }
  indexOf(item: T): number {
    return this.items.indexOf(item);
  }

  /** Appends a new dataset (or keeps its place if already listed) and, unless told not to, makes it active. */
  add(item: T, activate = true): void {
    if (!this.items.includes(item)) this.items.push(item);
    if (activate || this.active === undefined) this.activate(item);
  }

  /** Puts `replacement` where `item` was (a reload), keeping its place in the list and in recency. */
  replace(item: T, replacement: T): void {
    const i = this.items.indexOf(item);
    if (i < 0) throw new Error('replace: the dataset is not in the list');
    this.items[i] = replacement;
    const r = this.recency.indexOf(item);
    if (r >= 0) this.recency[r] = replacement;
  }

  activate(item: T): void {
    if (!this.items.includes(item)) throw new Error('activate: the dataset is not in the list');
    const r = this.recency.indexOf(item);
    if (r >= 0) this.recency.splice(r, 1);
    this.recency.push(item);
  }

  /**
   * Removes a dataset. When it was the active one, the most recently active remaining dataset that
   * `prefer` accepts becomes active, else the most recently active one, else the next in the list.
   * Returns whether the active dataset changed.
   */
  remove(item: T, prefer: (candidate: T) => boolean = () => true): boolean {
    const i = this.items.indexOf(item);
    if (i < 0) return false;
    const wasActive = this.active === item;
    this.items.splice(i, 1);
    const r = this.recency.indexOf(item);
    if (r >= 0) this.recency.splice(r, 1);
    if (!wasActive) return false;
    const next =
      [...this.recency].reverse().find(prefer) ?? this.active ?? this.items[Math.min(i, this.items.length - 1)];
    if (next !== undefined) this.activate(next);
    return true;
  }

  clear(): void {
    this.items.length = 0;
    this.recency.length = 0;
  }
}

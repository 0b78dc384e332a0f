/**
 * Selections of samples as index sets (MemAxes §8: selection and filtering are set operations in
 * linear time): sorted, duplicate-free Int32Arrays of sample indices. A selection is made `new`
 * (replace), `append` (union) or `filter` (intersection); samples can be hidden (hide selected,
 * hide unselected) and shown again. Every view aggregates the visible samples and, apart, the
 * selected ones.
 */

/** Sorted, duplicate-free sample indices. */
export type IndexSet = Int32Array;

export type SelectionMode = 'new' | 'append' | 'filter';

/** What the views show: the visible samples (null: all) and the selection among them (null: none). */
export interface SampleScope {
  visible: IndexSet | null;
  selected: IndexSet | null;
}

/** Everything visible, nothing selected. */
export const ALL_SAMPLES: SampleScope = Object.freeze({ visible: null, selected: null }) as SampleScope;

/** 0 … n−1. */
export function allIndices(n: number): IndexSet {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** The indices i (of all n, or of `within`) for which `keep(i)` holds, in order. */
export function indicesWhere(n: number, keep: (i: number) => boolean, within: IndexSet | null = null): IndexSet {
  const out = new Int32Array(within ? within.length : n);
  let m = 0;
  if (within) {
    for (let k = 0; k < within.length; k++) if (keep(within[k]!)) out[m++] = within[k]!;
  } else for (let i = 0; i < n; i++) if (keep(i)) out[m++] = i;
  return out.slice(0, m);
}

/** A ∪ B. */
export function unionOf(a: IndexSet, b: IndexSet): IndexSet {
  const out = new Int32Array(a.length + b.length);
  let i = 0,
    j = 0,
    m = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!,
      y = b[j]!;
    out[m++] = x < y ? x : y;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  while (i < a.length) out[m++] = a[i++]!;
  while (j < b.length) out[m++] = b[j++]!;
  return out.slice(0, m);
}

/** A ∩ B. */
export function intersectionOf(a: IndexSet, b: IndexSet): IndexSet {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0,
    j = 0,
    m = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!,
      y = b[j]!;
    if (x === y) out[m++] = x;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  return out.slice(0, m);
}

/** A − B. */
export function differenceOf(a: IndexSet, b: IndexSet): IndexSet {
  const out = new Int32Array(a.length);
  let j = 0,
    m = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    while (j < b.length && b[j]! < x) j++;
    if (j >= b.length || b[j] !== x) out[m++] = x;
  }
  return out.slice(0, m);
}

/** A sorted, duplicate-free copy of arbitrary indices. */
export function toIndexSet(indices: ArrayLike<number>): IndexSet {
  const sorted = Int32Array.from(indices).sort();
  let m = 0;
  for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) sorted[m++] = sorted[k]!;
  return sorted.slice(0, m);
}

/**
 * Applies a selection made in some view: `next` is restricted to the visible samples, then
 * replaces the current selection (`new`), joins it (`append`) or narrows it (`filter`; with
 * nothing selected, filtering narrows all visible samples, i.e. selects `next`).
 */
export function select(scope: SampleScope, next: IndexSet, mode: SelectionMode): SampleScope {
  const picked = scope.visible ? intersectionOf(next, scope.visible) : next;
  const current = scope.selected;
  const selected =
    mode === 'new' || !current
      ? picked
      : mode === 'append'
        ? unionOf(current, picked)
        : intersectionOf(current, picked);
  return { visible: scope.visible, selected };
}

/** Clears the selection. */
export function clearSelection(scope: SampleScope): SampleScope {
  return { visible: scope.visible, selected: null };
}

/** Hides the selected samples (the selection is then empty). */
export function hideSelected(scope: SampleScope, count: number): SampleScope {
  if (!scope.selected) return scope;
  return { visible: differenceOf(scope.visible ?? allIndices(count), scope.selected), selected: null };
}

/** Hides every sample that is not selected: the selection becomes what is visible. */
export function hideUnselected(scope: SampleScope): SampleScope {
  if (!scope.selected) return scope;
  return { visible: scope.selected, selected: null };
}

/** Shows every sample again, keeping the selection. */
export function showAll(scope: SampleScope): SampleScope {
  return { visible: null, selected: scope.selected };
}

/** The samples the views aggregate as "the selection": the selected ones, or all visible when none are. */
export function focusOf(scope: SampleScope): IndexSet | null {
  return scope.selected ?? scope.visible;
}

/** Number of samples in a set (null: all `count`). */
export function sizeOf(set: IndexSet | null, count: number): number {
  return set ? set.length : count;
}

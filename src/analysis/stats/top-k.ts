/**
 * The `limit` largest entries of a value array, largest first, ties broken by the lower index so
 * every ranked list in the side bar is deterministic. A bounded min-heap keeps it O(n log limit):
 * ranking a 10⁶-node profile for a top-20 list must not sort all 10⁶ values.
 */
export function topIndices(
  values: ArrayLike<number>,
  limit: number,
  keep: (i: number) => boolean = () => true,
): number[] {
  if (limit <= 0) return [];
  // `worse(a, b)`: a ranks below b. The heap's root is the worst entry kept so far.
  const worse = (a: number, b: number) => values[a]! < values[b]! || (values[a] === values[b] && a > b);
  const heap: number[] = [];
  const siftDown = (k: number) => {
    for (;;) {
      const l = 2 * k + 1,
        r = l + 1;
      let w = k;
      if (l < heap.length && worse(heap[l]!, heap[w]!)) w = l;
      if (r < heap.length && worse(heap[r]!, heap[w]!)) w = r;
      if (w === k) return;
      [heap[k], heap[w]] = [heap[w]!, heap[k]!];
      k = w;
    }
  };
  for (let i = 0; i < values.length; i++) {
    if (Number.isNaN(values[i]) || !keep(i)) continue;
    if (heap.length < limit) {
      heap.push(i);
      for (let k = heap.length - 1; k > 0;) {
        const p = (k - 1) >> 1;
        if (!worse(heap[k]!, heap[p]!)) break;
        [heap[k], heap[p]] = [heap[p]!, heap[k]!];
        k = p;
      }
    } else if (worse(heap[0]!, i)) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/**
 * Of the candidate paths, the one sharing the longest run of trailing path components with
 * `recorded` (at least the file name); ties go to the shorter candidate path, then the first.
 * `/home/hpc/app/src/a.c` against `[/ws/src/a.c, /ws/test/a.c]` picks `/ws/src/a.c`.
 */
export function bestSuffixMatch(recorded: string, candidates: readonly string[]): string | null {
  const want = split(recorded);
  let best: string | null = null;
  let bestLen = 0;
  for (const c of candidates) {
    const have = split(c);
    let k = 0;
    while (k < want.length && k < have.length && want[want.length - 1 - k] === have[have.length - 1 - k]) k++;
    if (k > bestLen || (k === bestLen && k > 0 && best !== null && c.length < best.length)) { best = c; bestLen = k; }
  }
  return bestLen > 0 ? best : null;
}

function split(p: string): string[] {
  return p.split(/[\\/]+/).filter(Boolean);
}

/**
 * Semantic classes of call paths (paper §4.3, Table 1): computation, waiting and synchronization
 * decide how a node's imbalance and waiting are computed. The classification is by routine name,
 * from configurable lists.
 */
export const SemanticClass = { Computation: 1, Wait: 2, Sync: 3 } as const;
export type SemanticClass = (typeof SemanticClass)[keyof typeof SemanticClass];

/** Class names by index; 0 = not on a significant path (drawn grey in the timeline). */
export const CLASS_NAMES = ['insignificant', 'computation', 'wait', 'sync'] as const;
export type ClassName = (typeof CLASS_NAMES)[number];

/**
 * The routine a frame name stands for: without a load-module suffix (`PMPI_Recv [libmpi.so.12]`),
 * without Fortran's trailing underscores, with the profiling interface `PMPI_` read as `MPI_`
 * (paper §4.3 treats them alike), lower-cased for comparison.
 */
export function routineName(name: string): string {
  let n = name.trim();
  const bracket = n.lastIndexOf(' [');
  if (bracket > 0 && n.endsWith(']')) n = n.slice(0, bracket);
  n = n.replace(/_+$/, '').toLowerCase();
  if (n.startsWith('pmpi_')) n = n.slice(1);
  return n;
}

/** A name prefix compared like routineName, but keeping its trailing underscore (`MPI_`). */
function prefixKey(prefix: string): string {
  const p = prefix.trim().toLowerCase();
  return p.startsWith('pmpi_') ? p.slice(1) : p;
}

/** A name list as a predicate: exact routine names, or prefixes for entries ending in `*`. */
export function nameMatcher(names: readonly string[]): (name: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const raw of names) {
    if (raw.endsWith('*')) prefixes.push(prefixKey(raw.slice(0, -1)));
    else exact.add(routineName(raw));
  }
  return name => {
    const r = routineName(name);
    return exact.has(r) || prefixes.some(p => r.startsWith(p));
  };
}

export interface Classifier {
  classOf(name: string): SemanticClass;
  /** A runtime frame (MPI, OpenMP, threads): the outermost one is a leaf, its internals are not analysed. */
  isRuntime(name: string): boolean;
}

export function makeClassifier(options: {
  syncNames: readonly string[];
  waitNames: readonly string[];
  runtimePrefixes: readonly string[];
}): Classifier {
  const sync = nameMatcher(options.syncNames);
  const wait = nameMatcher(options.waitNames);
  const prefixes = options.runtimePrefixes.map(prefixKey);
  return {
    classOf: name => (sync(name) ? SemanticClass.Sync : wait(name) ? SemanticClass.Wait : SemanticClass.Computation),
    isRuntime: name => {
      if (sync(name) || wait(name)) return true;
      const r = routineName(name);
      return prefixes.some(p => r.startsWith(p));
    },
  };
}

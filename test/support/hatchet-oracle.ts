import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Profile } from '../../src/analysis/model/profile';
import { contextStats } from '../../src/analysis/stats/context-stats';
import { sharedFiles, sharedPath } from './shared-data';

/** One node of a Hatchet oracle file (see shared/oracle/README.md for every field). */
export interface OracleNode {
  nid: number;
  name: string;
  frame?: Record<string, unknown>;
  /** Root-first names; absent in the compact encoding, where `path_nids` must be mapped through `nid` → `name`. */
  path?: string[];
  path_nids: number[];
  type?: unknown;
  file?: unknown;
  line?: unknown;
  module?: unknown;
  metrics: Record<string, number | string | null>;
  derived_inclusive?: Record<string, number>;
  other_numeric_sums?: Record<string, number>;
  [acrossRowsOrRanks: string]: unknown;
}

export interface Oracle {
  dataset: string;
  graph: { n_nodes: number; n_roots: number; n_nodes_in_dataframe?: number };
  metrics: {
    main_exclusive_metric: string | null;
    main_inclusive_metric: string | null;
    exclusive: string[];
    inclusive: string[];
  };
  ranks_threads: { n_distinct_rank?: number; n_distinct_thread?: number; n_distinct_rank_thread_pairs?: number };
  totals: { sum_exclusive_over_all_nodes: Record<string, number>; sum_over_roots_inclusive?: Record<string, number> };
  top10: Record<string, { nid: number; path?: string[]; path_nids?: number[]; value: number }[]>;
  nodes: OracleNode[];
}

/** The oracle files of one format folder, with the data path each one describes. */
export function oracleCases(format: string): { name: string; oracle: Oracle; dataPath: string }[] {
  return sharedFiles(join('oracle', format), '.json').map(rel => {
    const oracle = JSON.parse(readFileSync(sharedPath('oracle', format, rel), 'utf8')) as Oracle;
    return { name: rel, oracle, dataPath: join(dirname(sharedPath()), oracle.dataset) };
  });
}

export const closeTo = (a: number, b: number, what: string, rel = 1e-9): void =>
  assert.ok(Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b)), `${what}: got ${a}, Hatchet ${b}`);

const namesByNid = new WeakMap<Oracle, Map<number, string>>();

/** Root-first names of an oracle node, in either encoding. */
export function oraclePath(oracle: Oracle, node: { path?: string[]; path_nids?: number[] }): string[] {
  if (node.path) return node.path;
  let names = namesByNid.get(oracle);
  if (!names) namesByNid.set(oracle, (names = new Map(oracle.nodes.map(n => [n.nid, n.name]))));
  return node.path_nids!.map(id => names.get(id)!);
}

export interface ConformanceOptions {
  /** Per-node values of a Hatchet column summed over contexts, or null to skip the column (say why in the caller). */
  values(profile: Profile, column: string): Float64Array | null;
  /** Our identity of node i; must equal `oracleKey` of the matching Hatchet node. Default: the name path. */
  ourKey?(profile: Profile, i: number): string;
  oracleKey?(oracle: Oracle, node: OracleNode): string;
  /** Which of our nodes take part (default all); e.g. to leave out nodes Hatchet drops. */
  includeNode?(profile: Profile, i: number): boolean;
  /** Expected number of our contexts (default: Hatchet's rank × thread pairs, or ranks). */
  contexts?: number | null;
  /** Hatchet columns whose across-rows min/mean/max are compared, as [column, our metric, side]. */
  acrossRows?: [string, string, 'exclusive' | 'inclusive'][];
  /** Relative tolerance (default 1e-9). */
  tolerance?: number;
}

/**
 * Checks a profile against a Hatchet oracle: node count, roots, contexts, every node's value of every
 * numeric column, Σ of the main metric and the top 10. Nodes are matched by key; where several
 * nodes share a key (Hatchet's `<unknown procedure>` siblings, caveat 4), the group is compared as
 * a multiset of values, which is as strict as the identity the file gives us.
 */
export function checkAgainstOracle(profile: Profile, oracle: Oracle, options: ConformanceOptions): void {
  const tol = options.tolerance ?? 1e-9;
  const ourKey = options.ourKey ?? ((p: Profile, i: number) => JSON.stringify(p.tree.path(i)));
  const oracleKey = options.oracleKey ?? ((o: Oracle, n: OracleNode) => JSON.stringify(oraclePath(o, n)));
  const included: number[] = [];
  for (let i = 0; i < profile.tree.size; i++)
    if (!options.includeNode || options.includeNode(profile, i)) included.push(i);

  const expectedNodes = oracle.graph.n_nodes_in_dataframe ?? oracle.graph.n_nodes;
  assert.equal(included.length, expectedNodes, 'node count');
  const rootCount = included.filter(i => profile.tree.parent(i) === -1).length;
  if (options.includeNode === undefined) assert.equal(rootCount, oracle.graph.n_roots, 'root count');
  const rt = oracle.ranks_threads;
  const contexts =
    options.contexts !== undefined ? options.contexts : (rt.n_distinct_rank_thread_pairs ?? rt.n_distinct_rank ?? null);
  if (contexts !== null) assert.equal(profile.contextCount, contexts, 'contexts');

  const ours = new Map<string, number[]>();
  for (const i of included) {
    const k = ourKey(profile, i);
    ours.set(k, [...(ours.get(k) ?? []), i]);
  }
  const theirs = new Map<string, OracleNode[]>();
  for (const n of oracle.nodes) {
    const k = oracleKey(oracle, n);
    theirs.set(k, [...(theirs.get(k) ?? []), n]);
  }
  for (const [k, group] of theirs) {
    assert.equal(ours.get(k)?.length ?? 0, group.length, `nodes with identity ${k}`);
  }

  const columnCache = new Map<string, Float64Array | null>();
  const column = (c: string) => {
    if (!columnCache.has(c)) columnCache.set(c, options.values(profile, c));
    return columnCache.get(c)!;
  };
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  const statsCache = new Map<string, ReturnType<typeof contextStats>>();
  const statsOf = (m: number, side: 'exclusive' | 'inclusive') => {
    const key = `${m}/${side}`;
    if (!statsCache.has(key))
      statsCache.set(
        key,
        contextStats(side === 'exclusive' ? profile.exclusive(m) : profile.inclusive(m), profile.contextCount),
      );
    return statsCache.get(key)!;
  };
  for (const [k, group] of theirs) {
    const mine = ours.get(k)!;
    const columns = new Set(group.flatMap(n => Object.keys({ ...n.metrics, ...(n.derived_inclusive ?? {}) })));
    for (const c of columns) {
      const values = column(c);
      if (!values) continue;
      const expected = group
        .map(n => ({ ...n.metrics, ...(n.derived_inclusive ?? {}) })[c])
        .filter((v): v is number => typeof v === 'number');
      if (expected.length !== group.length) continue;
      const got = sorted(mine.map(i => values[i]!));
      sorted(expected).forEach((v, j) => closeTo(got[j]!, v, `${k} ${c}`, tol));
    }
    for (const [col, metric, side] of options.acrossRows ?? []) {
      const m = profile.metricIndex(metric);
      if (m < 0 || profile.contextCount < 2) continue;
      const stats = statsOf(m, side);
      const expected = group.map(
        n => n[`across_rows_${col}`] as { min: number; mean: number; max: number } | undefined,
      );
      if (expected.some(e => !e)) continue;
      for (const stat of ['min', 'mean', 'max'] as const) {
        const got = sorted(mine.map(i => stats[stat][i]!));
        sorted(expected.map(e => e![stat])).forEach((v, j) =>
          closeTo(got[j]!, v, `${k} ${stat} of ${col} over contexts`, tol),
        );
      }
    }
  }

  const main = oracle.metrics.main_exclusive_metric ?? oracle.metrics.main_inclusive_metric;
  if (main === null) return;
  const values = column(main);
  if (!values) return;
  const total = oracle.totals.sum_exclusive_over_all_nodes[main] ?? oracle.totals.sum_over_roots_inclusive?.[main];
  if (total !== undefined && oracle.totals.sum_exclusive_over_all_nodes[main] !== undefined) {
    closeTo(
      included.reduce((s, i) => s + values[i]!, 0),
      total,
      `Σ ${main}`,
      tol,
    );
  }
  const top = oracle.top10[main] ?? [];
  const ranked = included.map(i => values[i]!).sort((a, b) => b - a);
  top.forEach((t, j) => closeTo(ranked[j]!, t.value, `top-10 #${j + 1} of ${main}`, tol));
}

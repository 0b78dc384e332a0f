import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FunctionTotals, LineCost } from '../analysis/model/aggregates';
import { diffProfiles, mergeDiffLines, type DiffLine, type ProfileDiff } from '../analysis/graph/profile-diff';
import { superGraphData, type SuperGraphDataOptions } from '../analysis/graph/super-graph-data';
import {
  answerSuperGraphQuery,
  type SuperGraphQuery,
  type SuperGraphQueryResults,
} from '../analysis/graph/super-graph-queries';
import type { Profile } from '../analysis/model/profile';
import type { SankeyData } from '../shared/protocol';
import { seedMetricCache } from './overlays/overlay-cache';
import { hotPathThreshold } from './settings';
import type { SourceResolver } from './source-resolver';
import {
  deriveData,
  sideBarLists as sideBarListsOf,
  unpackLines,
  type DeriveOptions,
  type PackedLineCosts,
  type SideBarLists,
} from './workers/derived-data';
import { analysisWorkerOf } from './workers/parse-client';

/** Rows per side-bar list. */
export const SIDE_BAR_LIST_LENGTH = 50;

/** superGraphData of any profile (e.g. a diff's baseline run), in the analysis worker when it holds the profile. */
export function sankeyDataOf(profile: Profile, title: string, options: SuperGraphDataOptions): Promise<SankeyData> {
  const worker = analysisWorkerOf(profile);
  return worker ? worker.sankey(profile, title, options) : Promise.resolve(superGraphData(profile, title, options));
}

/** What the overlays of one source file show. */
export interface FileOverlay {
  uri: vscode.Uri;
  /** Lines with cost, 1-based as in the profile. */
  lines: LineCost[];
  /** Functions with nodes located in this file, with a 1-based line known to be inside each. */
  functions: { index: number; near: number | null }[];
}

/** A file's overlay whose line costs are unpacked on first use (an editor showing the file). */
function lazyOverlay(uri: vscode.Uri, lines: PackedLineCosts): FileOverlay & { packed: number[] } {
  let unpacked: LineCost[] | undefined;
  return {
    uri,
    functions: [],
    packed: [],
    get lines() {
      return (unpacked ??= this.packed.flatMap(k => unpackLines(lines, k)));
    },
  };
}

/**
 * A loaded profile and what the editor overlays derive from it for the selected metric: function
 * totals, per-context function values (for imbalance), and per-file line costs mapped onto files
 * that exist in this workspace.
 */
export class LoadedProfile {
  metric: number;
  functions!: FunctionTotals;
  functionByContext!: Float64Array;
  total = 0;
  files = new Map<string, FileOverlay>();
  /** For a diff dataset (Compare Two Profiles): the comparison against `baseline` for the selected metric. */
  diff: ProfileDiff | undefined;
  /** For a diff dataset: changed and unchanged lines per workspace file URI (both runs' paths mapped). */
  diffLines = new Map<string, DiffLine[]>();

  /**
   * `profile` is what the views and hovers show; with a `baseline`, this is a diff dataset: `profile`
   * is the comparison run and the overlays show its change against the baseline.
   */
  constructor(
    readonly profile: Profile,
    readonly uri: vscode.Uri,
    readonly baseline?: { profile: Profile; uri: vscode.Uri },
  ) {
    this.metric = profile.primaryMetric;
  }

  get name(): string {
    const own = path.basename(this.uri.fsPath);
    return this.baseline ? `Δ ${path.basename(this.baseline.uri.fsPath)} → ${own}` : own;
  }

  /** The side-bar lists (hot paths, top lines and functions, imbalance) for `metric`, as derived with it. */
  sideBar: SideBarLists | undefined;
  private deriving = 0;

  /**
   * Recomputes the derived data for `metric` and maps recorded paths onto workspace files. For a
   * profile held by the analysis worker, every O(nodes) pass runs there and this thread only maps
   * the (few) recorded files; profiles read on this thread are derived here by the same code.
   */
  async derive(metric: number, resolver: SourceResolver): Promise<void> {
    const p = this.profile;
    const ticket = ++this.deriving;
    const options = this.deriveOptions();
    const worker = analysisWorkerOf(p);
    const d = worker ? await worker.derive(p, metric, options) : deriveData(p, metric, options);

    const files = new Map<string, FileOverlay & { packed: number[] }>();
    const recorded = new Map<string, { lines?: number; functions?: number }>();
    d.lines.files.forEach((f, k) => recorded.set(f, { lines: k }));
    d.fileFunctions.files.forEach((f, k) => {
      const r = recorded.get(f);
      if (r) r.functions = k;
      else recorded.set(f, { functions: k });
    });
    await Promise.all(
      [...recorded].map(async ([rec, at]) => {
        const uri = await resolver.resolve(rec);
        if (!uri) return;
        const key = uri.toString();
        let o = files.get(key);
        if (!o) files.set(key, (o = lazyOverlay(uri, d.lines)));
        if (at.lines !== undefined) o.packed.push(at.lines);
        const ff = d.fileFunctions;
        if (at.functions !== undefined) {
          for (let j = ff.start[at.functions]!; j < ff.start[at.functions + 1]!; j++)
            o.functions.push({ index: ff.fn[j]!, near: ff.near[j]! > 0 ? ff.near[j]! : null });
        }
      }),
    );
    // The per-node totals that hovers, lenses and heat read synchronously, from the worker's shared
    // memory: summed here they are one O(nodes × contexts) pass each, 100–200 ms with the GC at
    // 10⁶ nodes × 16 ranks. (The child index came with the parse, built by the worker as well.)
    if (worker) p.adoptTotals(metric, d.nodeTotals);
    // A newer derive (the user switched metric again) has the last word.
    if (ticket !== this.deriving) return;
    this.metric = metric;
    this.functions = d.functions;
    this.functionByContext = d.functionByContext;
    this.total = d.total;
    this.sideBar = d.sideBar;
    this.files = files;
    const { names, functionOfNode, outermost } = d.functions;
    d.exclusiveByMetric.forEach((exclusive, k) =>
      seedMetricCache(p, k, {
        totals:
          k === metric
            ? d.functions
            : { names, functionOfNode, outermost, exclusive, inclusive: d.inclusiveByMetric[k]! },
        ...(k === metric ? { hottestLine: d.hottestLine } : {}),
      }),
    );
    if (this.baseline) await this.deriveDiff(resolver);
  }

  /** The side-bar lists for the selected metric with the current settings (recomputed when a setting changed). */
  async sideBarLists(): Promise<SideBarLists> {
    const options = this.deriveOptions();
    if (
      this.sideBar &&
      this.sideBar.threshold === options.hotPathThreshold &&
      this.sideBar.limit === options.listLength
    )
      return this.sideBar;
    const metric = this.metric;
    const worker = analysisWorkerOf(this.profile);
    const lists = worker
      ? await worker.sideBar(this.profile, metric, options)
      : sideBarListsOf(this.profile, metric, this.functions, options);
    if (metric === this.metric) this.sideBar = lists;
    return lists;
  }

  /**
   * The Sankey's data (superGraphData) for the selected metric unless `options` names one; computed
   * in the analysis worker when it holds the profile, so the host only receives the small result.
   */
  async sankey(options: SuperGraphDataOptions = {}): Promise<SankeyData> {
    return sankeyDataOf(this.profile, this.name, { metric: this.metric, ...options });
  }

  /** A question about the Sankey's super graph (super-graph-queries.ts), answered in the analysis worker when it holds the profile. */
  superGraphQuery<K extends SuperGraphQuery['kind']>(
    query: Extract<SuperGraphQuery, { kind: K }>,
  ): Promise<SuperGraphQueryResults[K]> {
    const worker = analysisWorkerOf(this.profile);
    return worker
      ? worker.superGraphQuery<K>(this.profile, query)
      : Promise.resolve(answerSuperGraphQuery<K>(this.profile, query));
  }

  private deriveOptions(): DeriveOptions {
    return { hotPathThreshold: hotPathThreshold(), listLength: SIDE_BAR_LIST_LENGTH };
  }

  /** Diffs the selected metric (by name) against the baseline and maps both runs' lines onto workspace files. */
  private async deriveDiff(resolver: SourceResolver): Promise<void> {
    const diff = diffProfiles(this.baseline!.profile, this.profile, this.profile.metrics[this.metric]!.name);
    const perUri = new Map<string, DiffLine[][]>();
    await Promise.all(
      [...diff.lines].map(async ([rec, lines]) => {
        const uri = await resolver.resolve(rec);
        if (!uri) return;
        const key = uri.toString();
        const lists = perUri.get(key);
        if (lists) lists.push(lines);
        else perUri.set(key, [lines]);
      }),
    );
    this.diff = diff;
    this.diffLines = new Map([...perUri].map(([k, lists]) => [k, mergeDiffLines(lists)]));
  }

  overlayFor(uri: vscode.Uri): FileOverlay | undefined {
    return this.files.get(uri.toString());
  }

  /** max/mean of a function's inclusive value across contexts (1 when balanced, 0 when empty). */
  functionImbalance(f: number): number {
    const C = this.profile.contextCount;
    let max = 0,
      sum = 0;
    for (let c = 0; c < C; c++) {
      const v = this.functionByContext[f * C + c]!;
      sum += v;
      if (v > max) max = v;
    }
    return sum > 0 ? max / (sum / C) : 0;
  }
}

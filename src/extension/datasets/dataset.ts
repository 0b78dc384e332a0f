import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SuperGraphDataOptions } from '../../analysis/graph/super-graph-data';
import type { SuperGraphQuery, SuperGraphQueryResults } from '../../analysis/graph/super-graph-queries';
import type { FunctionTotals, LineCost } from '../../analysis/model/aggregates';
import { contextNoun } from '../../analysis/model/context';
import type { MetricDescriptor } from '../../analysis/model/metric';
import { Profile } from '../../analysis/model/profile';
import type { DataMovementSites } from '../../analysis/stats/data-movement-sites';
import { formatShare, formatValue } from '../../analysis/stats/format';
import type { AnalysisService, DatasetHandle, OpenedProfile } from '../../service/analysis-service';
import { unpackLines, type DeriveOptions, type PackedLineCosts, type SideBarLists } from '../../service/derived-data';
import type { DiffLine } from '../../analysis/graph/profile-diff';
import type { CallflowData } from '../../shared/callflow-protocol';
import type { TimelineWindow } from '../../shared/timeline-protocol';
import { seedMetricCache } from '../overlays/overlay-cache';
import { rankSpreadMarkdown } from '../overlays/spread-markdown';
import { hotPathThreshold } from '../settings';
import type { SourceResolver } from '../source-resolver';
import type { SystemDatasetFacts } from './dataset-summary';

/** Rows per side-bar list. */
export const SIDE_BAR_LIST_LENGTH = 50;

/**
 * What a dataset is. Each kind is a class of its own (profile-dataset.ts, diff-dataset.ts,
 * ensemble-dataset.ts, window-dataset.ts, and the systems' datasets such as pdes-dataset.ts) and
 * answers the overlays' questions its own way.
 */
export type DatasetKind = 'profile' | 'trace' | 'diff' | 'ensemble' | 'window' | 'pdes';

/** What the overlays of one source file show. */
export interface FileOverlay {
  uri: vscode.Uri;
  /** Lines with cost, 1-based as in the profile. */
  lines: LineCost[];
  /** Functions with nodes located in this file, with a 1-based line known to be inside each. */
  functions: { index: number; near: number | null }[];
}

/** A CodeLens above a function: its title, tooltip and what a click does. */
export interface LensContent {
  title: string;
  tooltip: string;
  command: string;
  arguments: unknown[];
}

/** What a hover is about: the nodes of one line, or one function. */
export type HoverSubject =
  /** `line`: as the profile records it; `at`: 1-based in the document now (differs after edits). */
  { kind: 'line'; line: number; at: number; nodes: number[]; owner: number } | { kind: 'function'; fn: number };

/** How a file's lines are marked: heat by cost, or (a comparison) the lines that got slower or faster. */
export type LineMarks =
  { kind: 'heat'; lines: LineCost[] } | { kind: 'changes'; lines: DiffLine[]; unit: string; larger: number };

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
 * A loaded dataset as the editor sees it: the model (shared with the analysis service's worker,
 * read synchronously for hovers), the selected metric and what the overlays derive from it, and
 * the answers to the overlays' questions — the CodeLens of a function, the hover's dataset-specific
 * section, how a file's lines are marked. CodeLens, hover, heat and side-bar views ask the dataset;
 * none of them tests which kind it is.
 */
export abstract class Dataset {
  abstract readonly kind: DatasetKind;
  readonly profile: Profile;
  metric: number;
  functions!: FunctionTotals;
  functionByContext!: Float64Array;
  /** Calls per function where the format records them, NaN elsewhere. */
  calls!: Float64Array;
  /** The "100 %" of every metric, for hovers that show all of them. */
  metricTotals: number[] = [];
  total = 0;
  files = new Map<string, FileOverlay>();
  /** The side-bar lists for `metric`, as derived with it. */
  sideBar: SideBarLists | undefined;
  private deriving = 0;
  private sites: Promise<DataMovementSites> | undefined;

  constructor(
    protected readonly service: AnalysisService,
    opened: OpenedProfile,
    /** The file or folder it was read from (a comparison: the compared run; a window: its trace). */
    readonly uri: vscode.Uri,
  ) {
    this.handle = opened.dataset;
    this.profile = new Profile(opened.data);
    if (opened.childIndex) this.profile.tree.adoptChildIndex(opened.childIndex);
    this.metric = this.profile.primaryMetric;
  }

  /** The service's handle of the model the overlays read. */
  readonly handle: DatasetHandle;

  get name(): string {
    return path.basename(this.uri.fsPath);
  }

  /** The files or folders it was read from (reload, Reveal in Explorer, Copy Path). */
  get sourceUris(): vscode.Uri[] {
    return [this.uri];
  }

  get metricDescriptor(): MetricDescriptor {
    return this.profile.metrics[this.metric]!;
  }

  /** The metrics the user may switch to. */
  selectableMetrics(): number[] {
    return this.profile.metrics.map((_, i) => i);
  }

  /**
   * Derives the overlays for `metric` in the analysis service and maps recorded paths onto
   * workspace files (the only work done here: a few path lookups).
   */
  async derive(metric: number, resolver: SourceResolver): Promise<void> {
    const p = this.profile;
    const ticket = ++this.deriving;
    const d = await this.service.derive({ dataset: this.handle, metric, options: deriveOptions() });
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
    // The per-node totals hovers, lenses and heat read synchronously, from the worker's shared memory.
    p.adoptTotals(metric, d.nodeTotals);
    // A newer derive (the user switched metric again) has the last word.
    if (ticket !== this.deriving) return;
    this.metric = metric;
    this.functions = d.functions;
    this.functionByContext = d.functionByContext;
    this.calls = d.calls;
    this.metricTotals = d.metricTotals;
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
    await this.afterDerive(resolver);
  }

  /** What a kind derives beyond the profile's overlays (a comparison's changes, an ensemble's spreads). */
  protected async afterDerive(_resolver: SourceResolver): Promise<void> {}

  /** The side-bar lists for the selected metric with the current settings (recomputed when a setting changed). */
  async sideBarLists(): Promise<SideBarLists> {
    const options = deriveOptions();
    if (
      this.sideBar &&
      this.sideBar.threshold === options.hotPathThreshold &&
      this.sideBar.limit === options.listLength
    )
      return this.sideBar;
    const metric = this.metric;
    const lists = await this.service.sideBar({ dataset: this.handle, metric, options });
    if (metric === this.metric) this.sideBar = lists;
    return lists;
  }

  /** The Sankey's data for the selected metric unless `options` names one. */
  superGraph(options: SuperGraphDataOptions = {}, title = this.name): Promise<CallflowData> {
    return this.service.superGraph({ dataset: this.handle, title, options: { metric: this.metric, ...options } });
  }

  /** A question about the Sankey's super graph (answered from the service's cached graph). */
  superGraphQuery<K extends SuperGraphQuery['kind']>(
    query: Extract<SuperGraphQuery, { kind: K }>,
  ): Promise<SuperGraphQueryResults[K]> {
    return this.service.superGraphQuery<K>({ dataset: this.handle, query });
  }

  /** The copies grouped by issuing site (computed once, in the service). */
  dataMovementSites(): Promise<DataMovementSites> {
    return (this.sites ??= this.service.dataMovementSites({ dataset: this.handle }));
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

  // ── What the overlays ask ────────────────────────────────────────────────────────────────────

  /** The CodeLens above function `fn` (an index into `functions`). */
  lens(fn: number): LensContent | undefined {
    const name = this.functions.names[fn]!;
    const calls = this.calls[fn]!;
    const metric = this.metricDescriptor;
    const incl = this.functions.inclusive[fn]!;
    const excl = this.functions.exclusive[fn]!;
    const contexts = this.profile.contextCount;
    let title = `$(flame) ${this.share(incl)} inclusive (${formatValue(incl, metric.unit)}) · ${this.share(excl)} exclusive`;
    if (!Number.isNaN(calls)) title += ` · ${formatValue(calls, 'count')} call${calls === 1 ? '' : 's'}`;
    if (contexts > 1)
      title += ` · imbalance ${this.functionImbalance(fn).toFixed(2)}× max/mean over ${contexts} ${contextNoun(this.profile.contexts)}`;
    return {
      title,
      tooltip: `${name}: ${metric.label} in ${this.name}. Click to show the function in the call graph.`,
      command: 'hpcLens.showCallflow',
      arguments: [{ focusFunction: name }],
    };
  }

  /** The hover's section about how the subject's cost spreads (over ranks here; over runs for an ensemble). */
  async hoverSpread(subject: HoverSubject): Promise<string> {
    return rankSpreadMarkdown(this, subject);
  }

  /**
   * What the Datasets view says about a system's dataset beyond its editor profile (a PDES run's
   * PEs, KPs, LPs and events); undefined for the others, whose profile says it all.
   */
  systemFacts(): SystemDatasetFacts | undefined {
    return undefined;
  }

  /** The run this dataset is compared against (Compare Two Profiles), or undefined. */
  get baseline(): Dataset | undefined {
    return undefined;
  }

  /** The dataset whose trace the timeline shows (a window shows its whole run). */
  get wholeRun(): Dataset {
    return this;
  }

  /** The window of the trace the overlays follow, or null for the whole run. */
  get overlayWindow(): TimelineWindow | null {
    return null;
  }

  /** How a file's lines are marked. */
  lineMarks(uri: vscode.Uri): LineMarks | undefined {
    const overlay = this.overlayFor(uri);
    return overlay && this.total > 0 ? { kind: 'heat', lines: overlay.lines } : undefined;
  }

  /** Frees the dataset in the analysis service. */
  async close(): Promise<void> {
    await this.service.close({ dataset: this.handle });
  }

  protected share(v: number): string {
    return this.total > 0 ? formatShare(v / this.total) : '–';
  }
}

function deriveOptions(): DeriveOptions {
  return { hotPathThreshold: hotPathThreshold(), listLength: SIDE_BAR_LIST_LENGTH };
}

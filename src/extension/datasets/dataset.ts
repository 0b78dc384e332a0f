import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DmvFlag } from '../../analysis/dmv/flags';
import type { SuperGraphDataOptions } from '../../analysis/graph/super-graph-data';
import type { SuperGraphQuery, SuperGraphQueryResults } from '../../analysis/graph/super-graph-queries';
import type { FunctionTotals, LineCost } from '../../analysis/model/aggregates';
import type { MetricDescriptor } from '../../analysis/model/metric';
import { Profile } from '../../analysis/model/profile';
import type { DataMovementSites } from '../../analysis/stats/data-movement-sites';
import { formatBytes, formatCount, formatShare, formatValue } from '../../analysis/stats/format';
import type { AnalysisService, DatasetHandle, OpenedProfile } from '../../service/analysis-service';
import { unpackLines, type DeriveOptions, type PackedLineCosts, type SideBarLists } from '../../service/derived-data';
import { CONTEXT_KINDS, contextKindNoun } from '../../analysis/stats/comparable-contexts';
import type { FunctionImbalances } from '../../analysis/stats/imbalance';
import type { DiffLine } from '../../analysis/graph/profile-diff';
import type { PackedCallflowData } from '../../shared/callflow-packing';
import type { TimelineWindow } from '../../shared/timeline-protocol';
import { FLAG_LABELS, type DmvFocus } from '../../shared/dmv-protocol';
import { heatAnnotation, nodeSetByContext, spreadOf } from '../../analysis/stats/line-details';
import { seedMetricCache } from '../overlays/overlay-cache';
import { hoverMarkdown } from '../overlays/profile-hover';
import { rankSpreadMarkdown } from '../overlays/spread-markdown';
import { dmvCategoryRules, hotPathThreshold } from '../settings';
import type { SourceResolver } from '../source-resolver';
import type { TraceAnalysisView } from '../../analysis/timeseries/model/trace-analysis-view';
import { traceAnalysisLenses } from './trace-analysis-lenses';
import type { SystemDatasetFacts } from './dataset-summary';

/** Rows per side-bar list. */
export const SIDE_BAR_LIST_LENGTH = 50;

/**
 * What a dataset is. Each kind is a class of its own (profile-dataset.ts, diff-dataset.ts,
 * ensemble-dataset.ts, window-dataset.ts, and the systems' datasets such as pdes-dataset.ts) and
 * answers the overlays' questions its own way.
 */
export type DatasetKind = 'profile' | 'trace' | 'diff' | 'ensemble' | 'window' | 'memory' | 'pdes';

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

/** A CodeLens on a source line (not a function): a data-movement flag, a trace analysis's significant call site. */
export interface LineLens {
  /** 1-based, as the profile records it. */
  line: number;
  content: LensContent;
  /** What the lens says in full (its tooltip without the click hint), for the line's hover. */
  detail?: string;
}

/** Where a hover was asked for: the profiled line or function there (if any), the file, and the identifier under the pointer. */
export interface HoverPlace {
  subject: HoverSubject | undefined;
  fileName: string;
  word: string | undefined;
  /** Data-movement flags issued on the hovered line. */
  flags?: readonly DmvFlag[];
}

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
  /** Every function's imbalance over comparable contexts. */
  imbalances!: FunctionImbalances;
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
  private flags: { rules: string; flags: Promise<DmvFlag[]> } | undefined;
  /** Data-movement flags by workspace file URI, as last mapped (see mapFlagLines). */
  private flagLines = new Map<string, DmvFlag[]>();
  /** The last trace analysis of this run, with its lenses by resolved file. */
  private analysis: { view: TraceAnalysisView; lenses: Map<string, LineLens[]> } | undefined;
  /** Maps the analysis's call sites again when the way sources resolve changed. */
  private analysisRemap: vscode.Disposable | undefined;
  protected readonly overlaysChanged = new vscode.EventEmitter<void>();
  /** Fires when what the overlays show changed without a new derivation (a trace analysis arrived, flags were mapped to lines). */
  readonly onDidChangeOverlays = this.overlaysChanged.event;

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
    const d = await this.service.derive({ dataset: this.handle, metric });
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
    this.imbalances = d.imbalances;
    this.calls = d.calls;
    this.metricTotals = d.metricTotals;
    this.total = d.total;
    // The side bar asks for its lists (sideBarLists) once it shows them, after the lenses.
    this.sideBar = undefined;
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
    // Flags need the DMV index (a second or two on a large trace): their CodeLens follows, not delaying the overlays.
    void this.mapFlagLines(resolver, ticket);
  }

  /**
   * The data-movement flags of the run (thesis ch. 7's anti-patterns on their issuing lines),
   * computed by the data-movement system in the service with the category rules of the settings;
   * none for a dataset without copies or page faults. A window's flags are its whole run's.
   */
  dataMovementFlags(): Promise<DmvFlag[]> {
    const whole = this.wholeRun;
    if (whole !== this) return whole.dataMovementFlags();
    const trace = this.profile.trace;
    if (!trace || (trace.dataMovement.kind.length === 0 && !trace.pageFaults?.start.length)) return Promise.resolve([]);
    const rules = dmvCategoryRules();
    const key = JSON.stringify(rules ?? null);
    if (this.flags?.rules !== key)
      this.flags = {
        rules: key,
        flags: this.service.systemRequest<'dataMovement', 'flags'>({
          dataset: this.handle,
          system: 'dataMovement',
          request: { kind: 'flags', rules },
        }),
      };
    return this.flags.flags;
  }

  /** Maps the flags' issuing files onto the workspace, then announces their CodeLens. */
  private async mapFlagLines(resolver: SourceResolver, ticket: number): Promise<void> {
    let flags: DmvFlag[];
    try {
      flags = await this.dataMovementFlags();
    } catch {
      flags = []; // The panel and the Data Movement view say why; the editor just shows no flags.
    }
    const byFile = new Map<string, DmvFlag[]>();
    for (const f of flags) {
      if (!f.file || f.line === null) continue;
      const uri = await resolver.resolve(f.file);
      if (!uri) continue;
      const key = uri.toString();
      let l = byFile.get(key);
      if (!l) byFile.set(key, (l = []));
      l.push(f);
    }
    if (ticket !== this.deriving) return;
    this.flagLines = byFile;
    this.overlaysChanged.fire();
  }

  /** The data-movement flags issued from `line` (1-based, as the profile records it) of `uri`. */
  lineFlags(uri: vscode.Uri, line: number): DmvFlag[] {
    return (this.flagLines.get(uri.toString()) ?? []).filter(f => f.line === line);
  }

  /** What a kind derives beyond the profile's overlays (a comparison's changes, an ensemble's spreads). */
  protected async afterDerive(_resolver: SourceResolver): Promise<void> {}

  /**
   * The side-bar lists for the selected metric with the current settings. The four side-bar views
   * ask at once when a dataset becomes active: they share one computation while it runs.
   */
  sideBarLists(): Promise<SideBarLists> {
    const o = deriveOptions();
    const key = `${this.metric} ${o.hotPathThreshold} ${o.listLength}`;
    if (this.sideBarPending?.key === key) return this.sideBarPending.lists;
    const pending = { key, lists: this.computeSideBarLists() };
    this.sideBarPending = pending;
    const settled = () => {
      if (this.sideBarPending === pending) this.sideBarPending = undefined;
    };
    pending.lists.then(settled, settled);
    return pending.lists;
  }
  private sideBarPending: { key: string; lists: Promise<SideBarLists> } | undefined;

  /** Computes {@link sideBarLists} (kept until the metric or a setting changes). */
  protected async computeSideBarLists(): Promise<SideBarLists> {
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

  /** Export Summary: the hot path, top lines and functions and load imbalance, as Markdown or CSV. */
  exportSummary(format: 'markdown' | 'csv'): Promise<string> {
    return this.service.exportSummary({ dataset: this.handle, metric: this.metric, format });
  }

  /** The Sankey's data for the selected metric unless `options` names one. */
  superGraph(options: SuperGraphDataOptions = {}, title = this.name): Promise<PackedCallflowData> {
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

  /**
   * max/mean of a function's inclusive value over comparable contexts (ranks, processes, threads…
   * where its callers ran; imbalance.ts), with what was compared; undefined when it ran in one only.
   */
  functionImbalance(f: number): { imbalance: number; compared: number; noun: string } | undefined {
    const imbalance = this.imbalances.imbalance[f]!;
    if (Number.isNaN(imbalance)) return undefined;
    const compared = this.imbalances.compared[f]!;
    return { imbalance, compared, noun: contextKindNoun(CONTEXT_KINDS[this.imbalances.kind[f]!]!, compared) };
  }

  // ── What the overlays ask ────────────────────────────────────────────────────────────────────

  /** The CodeLens above function `fn` (an index into `functions`). */
  lens(fn: number): LensContent | undefined {
    const name = this.functions.names[fn]!;
    const calls = this.calls[fn]!;
    const metric = this.metricDescriptor;
    const incl = this.functions.inclusive[fn]!;
    const excl = this.functions.exclusive[fn]!;
    let title = `$(flame) ${vscode.l10n.t('{0} inclusive ({1}) · {2} exclusive', this.share(incl), formatValue(incl, metric.unit), this.share(excl))}`;
    if (!Number.isNaN(calls))
      title += ` · ${calls === 1 ? vscode.l10n.t('{0} call', formatValue(calls, 'count')) : vscode.l10n.t('{0} calls', formatValue(calls, 'count'))}`;
    const imbalance = this.functionImbalance(fn);
    if (imbalance)
      title += ` · ${vscode.l10n.t('imbalance {0}× max/mean over {1} {2}', imbalance.imbalance.toFixed(2), imbalance.compared, imbalance.noun)}`;
    return {
      title,
      tooltip: vscode.l10n.t(
        '{0}: {1} in {2}. Click to show the function in the call graph.',
        name,
        metric.label,
        this.name,
      ),
      command: 'hpcLens.showCallflow',
      arguments: [{ focusFunction: name }],
    };
  }

  /** The after-line text of a heat-marked line: its share, value and imbalance over the contexts. */
  heatAnnotation(line: LineCost): string {
    const p = this.profile;
    // Only where contexts are peers (ranks): a trace's CPU thread and GPU stream are not.
    const imbalance =
      p.contextCount > 1 && this.imbalances.contextsAreUnits
        ? spreadOf(nodeSetByContext(p, this.metric, line.nodes, 'exclusive')).imbalance
        : null;
    return heatAnnotation(line.exclusive / this.total, line.exclusive, this.metricDescriptor.unit, imbalance);
  }

  /** The hover at a place: every metric of the line or function, its spread, callers and callees, copies. */
  hover(place: HoverPlace): Promise<vscode.MarkdownString | undefined> {
    return place.subject ? hoverMarkdown(this, place.subject, place.fileName, place.flags) : Promise.resolve(undefined);
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

  /** The last trace analysis of the run (HPC Lens: Analyse Trace); a window of a trace answers its whole run's. */
  get traceAnalysis(): TraceAnalysisView | undefined {
    return this.wholeRun === this ? this.analysis?.view : this.wholeRun.traceAnalysis;
  }

  /** Keeps a trace analysis of this run: its significant call sites get lenses (recorded paths mapped to workspace files). */
  async setTraceAnalysis(view: TraceAnalysisView | undefined, resolver: SourceResolver): Promise<void> {
    this.analysisRemap?.dispose();
    this.analysisRemap = undefined;
    if (!view) {
      this.analysis = undefined;
      this.overlaysChanged.fire();
      return;
    }
    // Sources found later (a mapping set, the file created) get their lenses then — also when the
    // change lands while this analysis's own paths are still resolving, before it is kept.
    const remap = resolver.onDidChange(() => {
      if (this.analysisRemap === remap) void this.setTraceAnalysis(view, resolver);
    });
    this.analysisRemap = remap;
    const lenses = new Map<string, LineLens[]>();
    await Promise.all(
      [...traceAnalysisLenses(view)].map(async ([recorded, list]) => {
        const uri = await resolver.resolve(recorded);
        if (uri) lenses.set(uri.toString(), [...(lenses.get(uri.toString()) ?? []), ...list]);
      }),
    );
    if (this.analysisRemap !== remap) return; // a newer analysis (or none) replaced this one meanwhile
    this.analysis = { view, lenses };
    this.overlaysChanged.fire();
  }

  /** CodeLenses on single lines of a file beyond the functions': a trace analysis's significant call sites, data-movement flags. */
  lineLenses(uri: vscode.Uri): readonly LineLens[] {
    if (this.wholeRun !== this) return this.wholeRun.lineLenses(uri);
    const sites = this.analysis?.lenses.get(uri.toString()) ?? [];
    const flags = (this.flagLines.get(uri.toString()) ?? []).map(f => ({ line: f.line!, content: flagLens(f) }));
    return flags.length ? [...sites, ...flags] : sites;
  }

  /** How a file's lines are marked. */
  lineMarks(uri: vscode.Uri): LineMarks | undefined {
    const overlay = this.overlayFor(uri);
    return overlay && this.total > 0 ? { kind: 'heat', lines: overlay.lines } : undefined;
  }

  /** Frees the dataset in the analysis service. */
  async close(): Promise<void> {
    this.analysisRemap?.dispose();
    this.overlaysChanged.dispose();
    await this.release();
  }

  /** Frees what the dataset holds in the service (a dataset a panel owns — a live monitor's run — leaves that to the panel). */
  protected async release(): Promise<void> {
    await this.service.close({ dataset: this.handle });
  }

  protected share(v: number): string {
    return this.total > 0 ? formatShare(v / this.total) : '–';
  }
}

/** `⚠ DMV: Pageable copies · 20 × 1.6 MB`; a click opens the Data Movement panel on the flag's time span. */
function flagLens(f: DmvFlag): LensContent {
  const amount =
    f.kind === 'uvm-fault-storm'
      ? vscode.l10n.t('{0} faults', formatCount(f.count))
      : `${formatCount(f.count)} × ${formatBytes(f.bytes)}`;
  const focus: DmvFocus = {
    window: { start: f.start, end: f.end },
    flag: { kind: f.kind, file: f.file, line: f.line },
  };
  return {
    title: `$(warning) ${vscode.l10n.t('DMV: {0} · {1}', FLAG_LABELS[f.kind], amount)}`,
    tooltip: `${f.message}\n\n${vscode.l10n.t('Click to show it in the Data Movement panel.')}`,
    command: 'hpcLens.showDataMovement',
    arguments: [{ focus }],
  };
}

/** The hot-path threshold and list length the side bar uses now. */
export function deriveOptions(): DeriveOptions {
  return { hotPathThreshold: hotPathThreshold(), listLength: SIDE_BAR_LIST_LENGTH };
}

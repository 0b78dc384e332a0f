/**
 * PDES runs (ROSS / CODES, thesis ch. 5, issue 19) as a system of the analysis service. It claims
 * ROSS/CODES output folders by content on Open Profile…, reads the run in the dataset's own worker
 * and keeps it there, gives the editor the model's event handlers as an editor profile (pdes
 * editor-profile.ts), and answers the PDES panel: the offline analyses (clustering, projections,
 * change points, segments) for the panel's options, and every view's data for its selection.
 *
 * The analysis runs here, in the dataset's worker, in slices (runSliced), so a request's AbortSignal
 * (a newer request of the panel, the panel closing) stops it between slices, and its phases report
 * progress. Analyses are cached by the options they depend on — view-only options (overview
 * statistic, communication weight, ring encoding, ribbon threshold) and edited segment bounds are
 * applied to a cached analysis without running it again — and share their distance matrices and
 * t-SNE layouts, so switching a detail metric back, or brushing back to a range, costs nothing.
 */
import { readPdesRun } from '../../analysis/formats/ross/pdes-run-reader';
import type { PdesAnalysisOptions } from '../../analysis/pdes/analysis-options';
import { resolvePdesAnalysisOptions } from '../../analysis/pdes/analysis-options';
import { pdesEditorProfile } from '../../analysis/pdes/editor-profile';
import { locateHandlerSources } from '../../analysis/pdes/handler-sources';
import { resolveHandlers } from '../../analysis/pdes/handlers';
import type { PdesRun } from '../../analysis/pdes/model/pdes-run';
import {
  editSegments,
  PdesAnalysisSession,
  pdesReportAnalyses,
  type PdesAnalysis,
} from '../../analysis/pdes/pdes-analysis';
import { pdesReport, type PdesReport } from '../../analysis/pdes/pdes-report';
import {
  pdesRunSummary,
  pdesViews,
  selectedEntities,
  selectionActivity,
  type PdesRunSummary,
  type PdesViews,
  type PdesViewState,
  type SelectionActivity,
} from '../../analysis/pdes/panel-views';
import { segmentCommunication, type SegmentCommunication } from '../../analysis/pdes/segments';
import { selectEntities, type PdesSelection } from '../../analysis/pdes/selection';
import { throwIfAborted } from '../../analysis/model/cancellation';
import type { Profile } from '../../analysis/model/profile';
import { runSliced } from '../../analysis/series/sliced';
import type { AnalysisSystem, SystemContext } from './analysis-system';

/** What the editor sends about the panel: its analysis options (settings `hpcLens.pdes.*` with the panel's changes) and state. */
export type PdesRequest =
  /** Every view of the panel for these options and this state (a stroke or lasso in `state.pick` first becomes the selection). */
  | {
      kind: 'views';
      options: Partial<PdesAnalysisOptions>;
      state: Omit<PdesViewState, 'handlers'> & { handlers?: unknown };
    }
  /** Events processed and rolled back per LP type by the selection's LPs: the handler CodeLenses. `handlers` as the setting holds it. */
  | { kind: 'handlerActivity'; options: Partial<PdesAnalysisOptions>; selection: PdesSelection; handlers?: unknown }
  /** The `hpc-lens pdes --json` report for these options. */
  | { kind: 'report'; options: Partial<PdesAnalysisOptions> };

export interface PdesShape {
  open: never;
  opened: PdesRunSummary;
  request: PdesRequest;
  results: { views: PdesViews; handlerActivity: SelectionActivity; report: PdesReport };
  event: never;
}

/** The PDES entry of ReadLimits.systems: `hpcLens.pdes.handlers` as set, and the folders model sources are searched in. */
export interface PdesOpenSettings {
  handlers?: unknown;
  sourceRoots?: string[];
}

/** An analysis being computed or done, shared by the requests that need it. */
interface AnalysisEntry {
  promise: Promise<PdesAnalysis>;
  controller: AbortController;
  /** Requests waiting for it; when the last one is cancelled, so is the computation. */
  waiters: number;
  done: boolean;
}

interface PdesState {
  run: PdesRun;
  summary: PdesRunSummary;
  /** Distance matrices and t-SNE layouts shared by every analysis of the run (see PdesAnalysisSession). */
  caches: { distances: Map<string, Float64Array>; layouts: Map<string, Float64Array> };
  analyses: Map<string, AnalysisEntry>;
  communication: { key: string; value: SegmentCommunication | null } | null;
}

/** Analyses kept per run (each a few clusterings and projections of n entities). */
const KEPT_ANALYSES = 6;
/** Distance matrices and layouts kept before the cache starts over. */
const KEPT_MATRICES = 32;
/** Points a stroke or lasso may have (a drawn path is a few hundred). */
const MAX_PICK_POINTS = 10_000;

/** Options that only change how views draw an analysis, not the analysis. */
const VIEW_OPTIONS = ['overviewStatistic', 'communicationWeight', 'ringEncoding', 'ribbonThreshold'] as const;

export const pdesSystem: AnalysisSystem<PdesShape, PdesState> = {
  async openPath(path, limits, ctx) {
    const settings = (limits?.systems?.['pdes'] ?? {}) as PdesOpenSettings;
    const run = await readPdesRun(path, { signal: ctx.signal, onProgress: ctx.onProgress });
    ctx.onProgress?.(0.99, 'finding the model’s event handlers');
    const { profile, summary } = await pdesEditor(run, settings, ctx.signal);
    return {
      state: {
        run,
        summary,
        caches: { distances: new Map(), layouts: new Map() },
        analyses: new Map(),
        communication: null,
      },
      opened: summary,
      profile,
    };
  },

  async answer(state, request, ctx) {
    switch (request.kind) {
      case 'views': {
        const analysis = await analysisFor(state, request.options, ctx);
        const { handlers } = resolveHandlers(request.state.handlers);
        const pick = request.state.pick;
        if (pick && !(Array.isArray(pick.points) && pick.points.length <= MAX_PICK_POINTS))
          throw new RangeError(`a stroke or lasso has at most ${MAX_PICK_POINTS} points`);
        return pdesViews(state.run, analysis, { ...request.state, handlers }, communicationFor(state, analysis));
      }
      case 'handlerActivity': {
        const { handlers } = resolveHandlers(request.handlers);
        const selection = request.selection ?? {};
        // Only a cluster filter needs the clustering; otherwise the session's behaviour and range suffice.
        if (selection.clusters) {
          const analysis = await analysisFor(state, request.options, ctx);
          return selectionActivity(state.run, analysis, selectedEntities(analysis, selection), handlers);
        }
        const session = new PdesAnalysisSession(state.run, request.options);
        const labels = new Int32Array(session.behaviour.count);
        const selected = selectEntities(session.behaviour, session.range, labels, selection);
        return selectionActivity(state.run, session, selected, handlers);
      }
      case 'report':
        return pdesReport(state.run, pdesReportAnalyses(state.run, request.options));
    }
  },
};

/**
 * A run's editor profile (the model's event handlers per PE, found under the source roots) and
 * what the editor is told about it: for a PDES run, and for the run a live monitor follows.
 */
export async function pdesEditor(
  run: PdesRun,
  settings: PdesOpenSettings,
  signal?: AbortSignal,
): Promise<{ profile: Profile; summary: PdesRunSummary }> {
  const { handlers, problems } = resolveHandlers(settings.handlers);
  const roots = Array.isArray(settings.sourceRoots) ? settings.sourceRoots.filter(r => typeof r === 'string') : [];
  const sources = await locateHandlerSources(handlers, roots, signal ? { signal } : {});
  return {
    profile: pdesEditorProfile(run, handlers, sources, problems),
    summary: await pdesRunSummary(run, handlers, sources, problems),
  };
}

/** The key of what an analysis depends on: the resolved options without view-only ones and edited bounds. */
function analysisKey(options: PdesAnalysisOptions): string {
  const o: Partial<PdesAnalysisOptions> = { ...options, changePoints: null };
  for (const k of VIEW_OPTIONS) delete o[k];
  return JSON.stringify(o);
}

/**
 * The analysis for `given` options: a cached one (with the view-only options and edited segment
 * bounds applied), or a new one computed in slices. Cancelling a request stops the computation
 * only when no other request waits for it.
 */
async function analysisFor(
  state: PdesState,
  given: Partial<PdesAnalysisOptions>,
  ctx: SystemContext<never>,
): Promise<PdesAnalysis> {
  const options = resolvePdesAnalysisOptions(given);
  const key = analysisKey(options);
  let entry = state.analyses.get(key);
  if (!entry) {
    if (state.caches.distances.size + state.caches.layouts.size > KEPT_MATRICES) {
      state.caches.distances.clear();
      state.caches.layouts.clear();
    }
    const session = new PdesAnalysisSession(state.run, { ...options, changePoints: null }, state.caches);
    const controller = new AbortController();
    const created: AnalysisEntry = { controller, waiters: 0, done: false, promise: Promise.resolve(null as never) };
    created.promise = runSliced(
      withProgress(session.analysisSteps(controller.signal), ctx.onProgress),
      controller.signal,
    )
      .then(a => {
        created.done = true;
        return a;
      })
      .catch((e: unknown) => {
        if (state.analyses.get(key) === created) state.analyses.delete(key);
        throw e;
      });
    entry = created;
    state.analyses.set(key, entry);
    while (state.analyses.size > KEPT_ANALYSES) state.analyses.delete(state.analyses.keys().next().value!);
  } else {
    // Most recently used last.
    state.analyses.delete(key);
    state.analyses.set(key, entry);
  }
  const analysis = await waitFor(entry, key, state, ctx.signal);
  const viewed: PdesAnalysis = { ...analysis, options: { ...analysis.options } };
  for (const k of VIEW_OPTIONS) (viewed.options as unknown as Record<string, unknown>)[k] = options[k];
  return options.changePoints !== null ? editSegments(viewed, options.changePoints) : viewed;
}

/** Waits for an analysis on behalf of one request; the computation stops when its last waiter is cancelled. */
async function waitFor(
  entry: AnalysisEntry,
  key: string,
  state: PdesState,
  signal: AbortSignal | undefined,
): Promise<PdesAnalysis> {
  throwIfAborted(signal);
  if (entry.done) return entry.promise;
  entry.waiters++;
  let cancelled = false;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      cancelled = true;
      if (--entry.waiters === 0 && !entry.done) {
        entry.controller.abort();
        if (state.analyses.get(key) === entry) state.analyses.delete(key);
      }
      const e = new Error('the operation was cancelled');
      e.name = 'AbortError';
      reject(e);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([entry.promise, aborted]);
  } finally {
    signal?.removeEventListener('abort', onAbort!);
    if (!cancelled) entry.waiters--;
  }
}

/** Progress by the analysis' phases (distances and clustering, the two projections, change points). */
function* withProgress<T>(
  steps: Generator<unknown, T, void>,
  onProgress: ((fraction: number, message?: string) => void) | undefined,
): Generator<unknown, T, void> {
  const phases: [number, string][] = [
    [0, 'clustering entities'],
    [0.35, 'projecting the top detail view'],
    [0.55, 'projecting the bottom detail view'],
    [0.75, 'detecting change points (E-Divisive)'],
  ];
  let phase = 0;
  onProgress?.(phases[0]![0], phases[0]![1]);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if ((next.value === 'clustering' || next.value === 'projection') && phase + 1 < phases.length) {
      phase++;
      onProgress?.(phases[phase]![0], phases[phase]![1]);
    }
    yield next.value;
  }
}

/** The segment communication of an analysis' segments (cached for the last segmentation asked). */
function communicationFor(state: PdesState, analysis: PdesAnalysis): SegmentCommunication | null {
  const b = analysis.behaviour;
  const key = JSON.stringify([b.level, b.axis, analysis.segments.map(s => [s.start, s.end])]);
  if (state.communication?.key !== key)
    state.communication = { key, value: segmentCommunication(state.run, b, analysis.segments) };
  return state.communication.value;
}

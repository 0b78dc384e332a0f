/**
 * The automated trace analysis (Wei & Mellor-Crummey, ICS '18; src/analysis/timeseries/) as a
 * system of the analysis service: it analyses trace datasets of every format that yields a
 * timeline (OTF2, HPCToolkit trace.db, Chrome/Kineto, Nsight Systems, perf…) in the worker that
 * holds the dataset. The lane phase runs in chunks (cancellable between them) and, where the
 * service has a second worker, with the right half of every role's lanes there (`part`, §4.2.2);
 * the last analysis is kept with the dataset, and the panel's level-of-detail views (iteration
 * matrix, the timeline's iteration bands) are answered from it.
 */
import type { Profile } from '../../analysis/model/profile';
import { analyseLanesInChunks, analyseTraceInParts } from '../../analysis/timeseries/analyse-in-parts';
import {
  planTraceAnalysis,
  type LaneRange,
  type PartialTraceAnalysis,
  type TraceAnalysis,
  type TracePlan,
} from '../../analysis/timeseries/analyze-trace';
import { parseControlFlow, type ControlFlowFile } from '../../analysis/timeseries/control-flow';
import { resolveOptions, TraceAnalysisError, type TraceAnalysisOptions } from '../../analysis/timeseries/model/options';
import { traceSourceOf, type TraceSource } from '../../analysis/timeseries/trace-source';
import {
  iterationMatrix,
  iterationSpans,
  traceAnalysisView,
  type IterationMatrix,
  type TraceAnalysisView,
} from '../../analysis/timeseries/view-data';
import { ProfileReadError } from '../../analysis/formats/reader';
import { readFile } from 'node:fs/promises';
import type { AnalysisSystem, SystemContext } from './analysis-system';

export type TraceAnalysisRequest =
  /** Runs the analysis with these options (the hpcLens.traceAnalysis.* settings), or answers the kept one when they did not change. */
  | { kind: 'analyse'; options: Partial<TraceAnalysisOptions> }
  /** The lane phase of some lane ranges, for the worker that asked (its other half). */
  | { kind: 'part'; options: Partial<TraceAnalysisOptions>; ranges: LaneRange[] }
  /** Lanes × iterations of a loop of the kept analysis (the panel's iteration view). */
  | { kind: 'iterations'; loop: number; rows: number; columns: number }
  /** A loop's iteration bands on some tracks within a window (the timeline's alternating bands). */
  | { kind: 'iterationSpans'; loop: number; tracks: number[]; window: { start: number; end: number } };

/** What `analyse` answers: the panel's view, and per call-tree node its class for the timeline's colours. */
export interface TraceAnalysisAnswer {
  /** Identifies the analysis (options and control-flow file): later requests are about this one. */
  key: string;
  view: TraceAnalysisView;
  /** Per call-tree node: 0 insignificant, 1 computation, 2 wait, 3 sync (CLASS_NAMES). */
  nodeClass: Uint8Array;
  /** Analysis time in ms (in the worker), and whether the lanes were split over two workers. */
  ms: number;
  split: boolean;
}

export interface TraceAnalysisShape {
  open: never;
  opened: never;
  request: TraceAnalysisRequest;
  results: {
    analyse: TraceAnalysisAnswer;
    part: PartialTraceAnalysis;
    iterations: IterationMatrix;
    iterationSpans: { track: number; spans: Float64Array; ids: Int32Array }[];
  };
  event: never;
}

interface TraceAnalysisState {
  profile: Profile;
  /** The lanes of the trace (one pass over the events), made on the first request. */
  source?: TraceSource;
  last?: { key: string; analysis: TraceAnalysis; answer: TraceAnalysisAnswer };
  running?: { key: string; promise: Promise<TraceAnalysisAnswer> };
}

function sourceOf(state: TraceAnalysisState): TraceSource {
  if (!state.profile.trace)
    throw new TraceAnalysisError(
      `nothing to analyse: a ${state.profile.format} profile has no trace (no samples or slices over time)`,
    );
  return (state.source ??= traceSourceOf(state.profile));
}

/** The options checked, and the control-flow file read (a bad one is an error naming the file and the entry). */
async function prepare(
  options: Partial<TraceAnalysisOptions>,
): Promise<{ resolved: TraceAnalysisOptions; cfg: ControlFlowFile | null; key: string }> {
  const resolved = resolveOptions(options);
  let cfg: ControlFlowFile | null = null,
    cfgText = '';
  if (resolved.cfgFile) {
    try {
      cfgText = await readFile(resolved.cfgFile, 'utf8');
    } catch (e) {
      throw new ProfileReadError(resolved.cfgFile, `cannot read the control-flow file (${(e as Error).message})`, {
        cause: e,
      });
    }
    cfg = parseControlFlow(resolved.cfgFile, cfgText);
  }
  return { resolved, cfg, key: JSON.stringify([resolved, cfgText]) };
}

function plan(state: TraceAnalysisState, resolved: TraceAnalysisOptions, cfg: ControlFlowFile | null): TracePlan {
  return planTraceAnalysis(sourceOf(state), resolved, cfg);
}

function kept(state: TraceAnalysisState): TraceAnalysis {
  if (!state.last) throw new Error('no trace analysis yet: run HPC Lens: Analyse Trace first');
  return state.last.analysis;
}

async function analyse(
  state: TraceAnalysisState,
  options: Partial<TraceAnalysisOptions>,
  ctx: SystemContext<never, TraceAnalysisRequest>,
): Promise<TraceAnalysisAnswer> {
  const { resolved, cfg, key } = await prepare(options);
  // A copy each time: answers are transferred, which detaches their buffers.
  const copy = (a: TraceAnalysisAnswer) => ({ ...a, nodeClass: a.nodeClass.slice() });
  if (state.last?.key === key) return copy(state.last.answer);
  if (state.running?.key === key) return copy(await state.running.promise);
  const started = performance.now();
  const p = plan(state, resolved, cfg);
  const peer = ctx.peer;
  const split = !!peer && p.roles.some(r => r.lanes.length > 1) && p.source.lanes.length > 1;
  const promise = (async () => {
    const analysis = await analyseTraceInParts(
      p,
      {
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        onProgress: (f, m) => ctx.onProgress?.(f, m),
      },
      split
        ? (ranges, onLanes) => {
            const lanes = ranges.reduce((s, r) => s + r.e - r.h, 0);
            return peer!({ kind: 'part', options, ranges }, f =>
              onLanes(Math.round(f * lanes), lanes),
            ) as Promise<PartialTraceAnalysis>;
          }
        : undefined,
    );
    const tree = state.profile.tree;
    const answer: TraceAnalysisAnswer = {
      key,
      view: traceAnalysisView(analysis, n => tree.depth(n)),
      nodeClass: analysis.nodeClass,
      ms: performance.now() - started,
      split,
    };
    state.last = { key, analysis, answer };
    return answer;
  })();
  state.running = { key, promise };
  try {
    return copy(await promise);
  } finally {
    if (state.running?.promise === promise) state.running = undefined;
  }
}

export const traceAnalysisSystem: AnalysisSystem<TraceAnalysisShape, TraceAnalysisState> = {
  attach: profile => ({ profile }),
  async answer(state, request, ctx) {
    switch (request.kind) {
      case 'analyse':
        return analyse(state, request.options, ctx);
      case 'part': {
        const { resolved, cfg } = await prepare(request.options);
        return analyseLanesInChunks(plan(state, resolved, cfg), request.ranges, {
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          onLanes: (done, total) => ctx.onProgress?.(total ? done / total : 1),
        });
      }
      case 'iterations':
        return iterationMatrix(kept(state), request.loop, request.rows, request.columns);
      case 'iterationSpans':
        return iterationSpans(kept(state), request.loop, request.tracks, request.window);
    }
  },
};

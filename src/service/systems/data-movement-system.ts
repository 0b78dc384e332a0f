/**
 * DMV (thesis ch. 7) as a system of the analysis service: it analyses trace datasets (Kineto,
 * Nsight, Chrome traces with copies) and ensembles of traces (a folder opened with Open Folder as
 * Ensemble…: the grid of clocks). The index of a trace is built once per category-rule set and kept
 * with the dataset in its home worker, with what is derived from it (flags, metric tracks, the
 * hardware topology) and the files the user added (`nvidia-smi topo -m`, an `nvidia-smi` CSV).
 * Every view of the DMV panel is answered here, in the dataset's worker.
 */
import { compileCategoryRules, type CompiledRules } from '../../analysis/dmv/categories';
import { DmvIndex } from '../../analysis/dmv/dmv-index';
import { dataMovementFlags, type DmvFlag } from '../../analysis/dmv/flags';
import { traceHostGpuTopology } from '../../analysis/dmv/hardware';
import { nvidiaSmiTracks, traceMetricTracks, type MetricTrack } from '../../analysis/dmv/metrics';
import {
  dmvCellCopies,
  dmvOverview,
  dmvWindowData,
  type DmvCellCopies,
  type DmvEnsembleResult,
  type DmvFiles,
  type DmvOverviewResult,
  type DmvWindowData,
  type DmvWindowOptions,
} from '../../analysis/dmv/panel-data';
import { dataMovementReport, type DataMovementReport } from '../../analysis/dmv/report';
import { clockGrid, digestRuns, type DmvRunDigest } from '../../analysis/dmv/trace-ensemble';
import type { RunProfile } from '../../analysis/ensemble/ensemble-runs';
import { readNvidiaSmiCsv } from '../../analysis/formats/nvidia-smi-csv';
import { linkTypesOrWarning } from '../../analysis/formats/nvidia-smi-topo';
import type { Profile } from '../../analysis/model/profile';
import type { TimeWindow } from '../../analysis/timeline/timeline-index';
import type { HostGpuTopology, NvidiaSmiTopology } from '../../analysis/topology/host-gpu';
import type { AnalysisSystem } from './analysis-system';

/** `rules`: the category rules as the setting hpcLens.dmv.categoryRules holds them (any JSON). */
export type DataMovementRequest =
  /** The `hpc-lens data-movement --json` summary (bad rules are an error, as in the CLI). */
  | { kind: 'report'; rules?: unknown }
  /** The whole run: clock, busy time, devices, tracks, metric list, flags, added files and warnings. */
  | { kind: 'overview'; rules?: unknown }
  /** Every view that follows a time window (the clock's arc). */
  | {
      kind: 'window';
      rules?: unknown;
      options: Pick<DmvWindowOptions, 'window' | 'expanded' | 'metricPoints' | 'glyph' | 'hardwareNodes'>;
    }
  /** A matrix cell's copies and issuing lines (in the window, or the whole run when null). */
  | { kind: 'cell'; rules?: unknown; src: number; dst: number; window: TimeWindow | null }
  /** The data-movement flags, on their issuing lines (the editor's CodeLens and the Data Movement view). */
  | { kind: 'flags'; rules?: unknown }
  /**
   * Adds (a path), removes (null) or keeps (absent) the node's `nvidia-smi topo -m` output and an
   * `nvidia-smi --format=csv` file of GPU metrics; read here, in the worker.
   */
  | { kind: 'files'; topology?: string | null; nvidiaSmi?: string | null; utcOffsetMinutes?: number }
  /** An ensemble of traces: the grid of clocks (Sort by runtime; Compare: one sector width for all). */
  | { kind: 'ensemble'; rules?: unknown; mode: 'own' | 'compare'; sort: boolean };

export interface DataMovementShape {
  open: never;
  opened: never;
  request: DataMovementRequest;
  results: {
    report: DataMovementReport;
    overview: DmvOverviewResult;
    window: DmvWindowData;
    cell: DmvCellCopies;
    flags: DmvFlag[];
    files: DmvFiles;
    ensemble: DmvEnsembleResult;
  };
  event: never;
}

interface DerivedFromIndex {
  rules: string;
  compiled: CompiledRules;
  index: DmvIndex;
  flags?: DmvFlag[];
  traceTracks?: MetricTrack[];
  hardware?: { topology: NvidiaSmiTopology | null; base: HostGpuTopology };
}

interface DataMovementState {
  profile: Profile;
  /** The runs of an ensemble dataset (each with its trace). */
  runs?: readonly RunProfile[];
  /** The index for the last rule set asked for (rules change rarely: one is kept). */
  derived?: DerivedFromIndex;
  digests?: { rules: string; digests: DmvRunDigest[] };
  topology?: { path: string; topology: NvidiaSmiTopology | null; warning: string | null };
  nvidiaSmi?: { path: string; tracks: MetricTrack[]; warnings: string[] };
}

function compiled(rules: unknown, strict: boolean): CompiledRules {
  const c = compileCategoryRules(rules);
  if (strict && c.errors.length) throw new Error(`category rules: ${c.errors.join('; ')}`);
  return c;
}

function derivedFor(state: DataMovementState, rules: unknown, strict = false): DerivedFromIndex {
  const key = JSON.stringify(rules ?? null);
  const d = state.derived;
  if (d?.rules === key) {
    if (strict) compiled(rules, true);
    return d;
  }
  if (!state.profile.trace) {
    if (state.runs) throw new Error(`${state.profile.path} is an ensemble: DMV shows it as a grid of clocks`);
    throw new Error(`a ${state.profile.format} profile has no timeline of events`);
  }
  const rulesCompiled = compiled(rules, strict);
  const index = new DmvIndex(state.profile, { rules: rulesCompiled });
  state.derived = { rules: key, compiled: rulesCompiled, index };
  return state.derived;
}

function flagsOf(d: DerivedFromIndex): DmvFlag[] {
  return (d.flags ??= dataMovementFlags(d.index));
}

/** The trace's own tracks (utilisation, allocator totals, counters) and the nvidia-smi file's. */
function metricsOf(state: DataMovementState, d: DerivedFromIndex): MetricTrack[] {
  d.traceTracks ??= traceMetricTracks(d.index);
  return state.nvidiaSmi ? [...d.traceTracks, ...state.nvidiaSmi.tracks] : d.traceTracks;
}

function hardwareOf(state: DataMovementState, d: DerivedFromIndex): NonNullable<DerivedFromIndex['hardware']> {
  const topology = state.topology?.topology ?? null;
  if (d.hardware?.topology !== topology) d.hardware = { topology, base: traceHostGpuTopology(d.index, topology) };
  return d.hardware;
}

function filesOf(state: DataMovementState): DmvFiles {
  const t = state.topology,
    s = state.nvidiaSmi;
  return {
    topology: t ? { path: t.path, linkTypes: t.topology !== null, warning: t.warning } : null,
    nvidiaSmi: s ? { path: s.path, tracks: s.tracks.length, warnings: [...s.warnings] } : null,
  };
}

/** A copy of what the state keeps (an in-process caller may change what it gets). */
function ownCopy<T>(value: T): T {
  return structuredClone(value);
}

export const dataMovementSystem: AnalysisSystem<DataMovementShape, DataMovementState> = {
  attach: (profile, context) => ({ profile, ...(context?.runs ? { runs: context.runs } : {}) }),
  async answer(state, request) {
    switch (request.kind) {
      case 'report':
        return dataMovementReport(derivedFor(state, request.rules, true).index);
      case 'overview': {
        const d = derivedFor(state, request.rules);
        const overview = dmvOverview(d.index, metricsOf(state, d), ownCopy(flagsOf(d)));
        const warnings = d.compiled.errors.map(e => `hpcLens.dmv.categoryRules: ${e}`);
        if (state.topology?.warning) warnings.push(`link types are not shown: ${state.topology.warning}`);
        if (state.nvidiaSmi) warnings.push(...state.nvidiaSmi.warnings);
        return { ...overview, files: filesOf(state), warnings };
      }
      case 'window': {
        const d = derivedFor(state, request.rules);
        const hw = hardwareOf(state, d);
        return dmvWindowData(d.index, metricsOf(state, d), {
          ...request.options,
          topology: hw.topology,
          hardwareBase: hw.base,
          ...(state.topology?.warning ? { topologyError: state.topology.warning } : {}),
        });
      }
      case 'cell':
        return dmvCellCopies(derivedFor(state, request.rules).index, request.src, request.dst, request.window);
      case 'flags':
        return ownCopy(flagsOf(derivedFor(state, request.rules)));
      case 'files': {
        if (request.topology === null) delete state.topology;
        else if (request.topology !== undefined) {
          // An unparsable file is kept as a warning: the matrix is then shown without link types.
          const r = await linkTypesOrWarning(request.topology);
          state.topology = { path: request.topology, ...r };
        }
        if (request.nvidiaSmi === null) delete state.nvidiaSmi;
        else if (request.nvidiaSmi !== undefined) {
          // A CSV that is not nvidia-smi's (no timestamp column) is an error naming the file.
          const samples = await readNvidiaSmiCsv(request.nvidiaSmi, {
            ...(request.utcOffsetMinutes !== undefined ? { utcOffsetMinutes: request.utcOffsetMinutes } : {}),
          });
          const trace = state.profile.trace;
          if (!trace) throw new Error(`a ${state.profile.format} profile has no timeline to place GPU metrics on`);
          state.nvidiaSmi = { path: request.nvidiaSmi, ...nvidiaSmiTracks(samples, trace) };
        }
        return filesOf(state);
      }
      case 'ensemble': {
        if (!state.runs) throw new Error(`${state.profile.path} is not an ensemble of traces`);
        const key = JSON.stringify(request.rules ?? null);
        if (state.digests?.rules !== key)
          state.digests = { rules: key, digests: digestRuns(state.runs, { rules: compiled(request.rules, false) }) };
        return {
          path: state.profile.path,
          ...clockGrid(state.digests.digests, { mode: request.mode, sort: request.sort }),
        };
      }
    }
  },
};

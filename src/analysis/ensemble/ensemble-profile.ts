import type { ExecutionContext } from '../model/context';
import type { MetricDescriptor } from '../model/metric';
import { Profile, type MetadataValue } from '../model/profile';
import { buildEnsemble, type Ensemble } from './ensemble';
import { ensembleCallGraph, functionSpreads, type EnsembleCallGraph, type FunctionSpread } from './ensemble-functions';
import type { RunLoadError, RunProfile } from './ensemble-runs';

export const ENSEMBLE_FORMAT = 'ensemble';

export interface EnsembleProfileOptions {
  /** The folder (or common folder of the files) the ensemble was read from. */
  path: string;
  /** Metric the overlays open with (default: the first run's primary metric). */
  metric?: string;
  /** Files that could not be read, kept for the Datasets tooltip and the profile's warnings. */
  errors?: readonly RunLoadError[];
}

/**
 * An ensemble seen as one Profile, so every single-profile view (heat, hot paths, top lists, the
 * Sankey) works on it unchanged: the tree is the union calling-context tree and the contexts are
 * the RUNS, each value being that run's mean over its own ranks/threads (buildEnsemble's rule, so an
 * 8-rank and a 512-rank run compare). A node missing from a run holds 0 there: it adds nothing to
 * sums and shares. Run-to-run statistics must not see those zeros, so they come from the Ensemble
 * itself (NaN = missing) through {@link spreads}, never from the profile's matrices.
 *
 * Metrics: those every run has, one Ensemble per metric (built on first need for the spreads; all
 * at construction for the profile, which needs every matrix).
 */
export class EnsembleProfile {
  readonly profile: Profile;
  /** The ensemble of the primary metric. */
  readonly ensemble: Ensemble;
  readonly errors: readonly RunLoadError[];
  private readonly byMetric = new Map<string, Ensemble>();
  private readonly spreadCache = new Map<string, Map<string, FunctionSpread>>();

  constructor(
    readonly runs: readonly RunProfile[],
    options: EnsembleProfileOptions,
  ) {
    if (runs.length < 2)
      throw new Error(
        `an ensemble needs at least 2 runs, ${runs.length === 1 ? `only ${runs[0]!.run.name} could be read` : 'none could be read'}`,
      );
    this.errors = options.errors ?? [];
    const first = runs[0]!.profile;
    const primaryName = options.metric ?? first.metrics[first.primaryMetric]?.name;
    const metrics = commonMetrics(runs);
    if (metrics.length === 0)
      throw new Error(
        `the runs share no metric (${runs.map(r => `${r.run.name}: ${r.profile.metrics.map(m => m.name).join(', ') || 'none'}`).join('; ')})`,
      );
    const primary = Math.max(
      0,
      metrics.findIndex(m => m.name === primaryName),
    );
    this.ensemble = buildEnsemble(runs, { metric: metrics[primary]!.name });
    this.byMetric.set(metrics[primary]!.name, this.ensemble);
    const e = this.ensemble;
    const exclusive: Float64Array[] = [],
      inclusive: Float64Array[] = [];
    for (const m of metrics) {
      const em = this.ensembleOf(m.name);
      // Same runs in the same order give the same union; a mismatch would silently misalign values.
      if (em.size !== e.size || em.runCount !== e.runCount)
        throw new Error(
          `metric ${m.name}: union of ${em.size} nodes × ${em.runCount} runs differs from ${e.size} × ${e.runCount}`,
        );
      exclusive.push(zeroMissing(em.exclusive));
      inclusive.push(zeroMissing(em.inclusive));
    }
    const contexts: ExecutionContext[] = e.runs.map((r, run) => ({
      rank: -1,
      thread: -1,
      gpuDevice: -1,
      gpuStream: -1,
      run,
      label: r.name,
    }));
    const formats = [...new Set(e.runs.map(r => r.format))];
    const metadata: Record<string, MetadataValue> = {
      'ensemble.runs': e.runCount,
      'ensemble.formats': formats.join(', '),
      'ensemble.values': 'per-run mean over ranks; a node missing in a run counts 0',
    };
    const warnings = [
      ...e.skipped.map(s => `${s.name} left out: ${s.reason}`),
      ...e.moduleConflicts.map(
        c =>
          `${c.path.at(-1)} is in module ${c.kept} in one run and in ${c.other} in ${c.run} (${c.path.join(' → ')}); shown under ${c.kept}`,
      ),
      ...this.errors.map(err => `${err.name} could not be read: ${err.reason}`),
    ];
    const columns = e.tree.columns;
    this.profile = new Profile({
      format: ENSEMBLE_FORMAT,
      path: options.path,
      strings: e.tree.strings.toArray(),
      tree: columns,
      contexts,
      metrics: metrics.map(m => ({ ...m, kind: 'both', aggregation: 'sum' })),
      exclusive,
      inclusive,
      primaryMetric: primary,
      metadata,
      warnings,
    });
  }

  get runCount(): number {
    return this.ensemble.runCount;
  }

  /** The ensemble of a metric every run has (built once). */
  ensembleOf(metric: string): Ensemble {
    let e = this.byMetric.get(metric);
    if (!e) this.byMetric.set(metric, (e = buildEnsemble(this.runs, { metric })));
    return e;
  }

  /**
   * Run-to-run spread per function name (inclusive) of a metric: min/median/max with the runs that
   * hold them and the CV, over the runs where the function exists (missing runs excluded).
   */
  spreads(metric: string): Map<string, FunctionSpread> {
    let s = this.spreadCache.get(metric);
    if (!s) {
      s = new Map(functionSpreads(this.ensembleOf(metric), this.functionGraph(metric)).map(f => [f.name, f]));
      this.spreadCache.set(metric, s);
    }
    return s;
  }

  /** A function's per-run inclusive values (NaN where it is missing), in run order. */
  functionValues(metric: string, name: string): Float64Array | null {
    const g = this.functionGraph(metric);
    // A lookup per CodeLens and hover: by map, not by a scan of every function name.
    let index = this.functionIndex.get(g);
    if (!index) this.functionIndex.set(g, (index = new Map(g.names.map((n, f) => [n, f]))));
    const f = index.get(name);
    return f === undefined ? null : g.inclusive.slice(f * g.runCount, (f + 1) * g.runCount);
  }

  private readonly functionIndex = new WeakMap<EnsembleCallGraph, Map<string, number>>();

  private readonly graphs = new Map<string, EnsembleCallGraph>();

  /** The function-level call graph of a metric across runs (built once). */
  functionGraph(metric: string): EnsembleCallGraph {
    let g = this.graphs.get(metric);
    if (!g) this.graphs.set(metric, (g = ensembleCallGraph(this.ensembleOf(metric))));
    return g;
  }
}

/** Metrics (by name) present in every run, in the first run's order, with its descriptors. */
function commonMetrics(runs: readonly RunProfile[]): MetricDescriptor[] {
  return runs[0]!.profile.metrics.filter(m => runs.every(r => r.profile.metricIndex(m.name) >= 0));
}

/**
 * The values with 0 for missing, in shared memory: the service hands this profile to the extension
 * host through SharedArrayBuffers, and a shared array is kept as it is there instead of copied
 * again (at 1,000 runs × 10⁴ nodes, 140 MB less to copy on open).
 */
function zeroMissing(values: Float64Array): Float64Array {
  const out = new Float64Array(new SharedArrayBuffer(values.byteLength));
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    out[i] = v === v ? v : 0;
  }
  return out;
}

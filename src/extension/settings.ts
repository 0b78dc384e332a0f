import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DEFAULT_CALLFLOW_FILTER,
  validateCallflowSettings,
  type CallflowFilter,
} from '../analysis/graph/callflow-filter-settings';
import { parseModuleRules, type ModuleRule } from '../analysis/graph/module-map';
import { DEFAULT_TRACE_ANALYSIS_OPTIONS, type TraceAnalysisOptions } from '../analysis/timeseries/model/options';
import type { PdesAnalysisOptions } from '../analysis/pdes/analysis-options';
import type { ReadLimits } from '../service/read-limits';
import type { PdesOpenSettings } from '../service/systems/pdes-system';
import { PDES_SETTING_KEYS } from '../shared/pdes-protocol';
import { DEFAULT_ENSEMBLE_OPTIONS } from '../shared/ensemble-protocol';

/** Setting keys, checked against package.json by the integration tests. */
export const Setting = {
  overlaysEnabled: 'overlays.enabled',
  heatMinShare: 'heat.minShare',
  heatAnnotations: 'heat.annotations',
  heatScale: 'heat.scale',
  sourceSearchRoots: 'sourceSearchRoots',
  pathMappings: 'pathMappings',
  hotPathThreshold: 'hotPath.threshold',
  dataMovementAnnotations: 'dataMovement.annotations',
  moduleMap: 'moduleMap',
  openOnStartup: 'openOnStartup',
  analysisWorkers: 'analysis.workers',
  parseTimeoutSeconds: 'analysis.parseTimeoutSeconds',
  workerMemoryLimitMb: 'analysis.workerMemoryLimitMB',
  dmvCategoryRules: 'dmv.categoryRules',
  memoryFollowSelection: 'memory.followSelection',
  callflowFilterThreshold: 'callflow.filterThreshold',
  callflowFilterBy: 'callflow.filterBy',
  pdesHandlers: 'pdes.handlers',
  ensembleClusters: 'ensemble.clusters',
  ensembleSummaryCacheMaxAgeDays: 'ensemble.summaryCache.maxAgeDays',
  ensembleSummaryCacheMaxSizeMB: 'ensemble.summaryCache.maxSizeMB',
} as const;

const config = () => vscode.workspace.getConfiguration('hpcLens');

export function overlaysEnabled(): boolean {
  return config().get<boolean>(Setting.overlaysEnabled, true);
}
export function heatMinShare(): number {
  return config().get<number>(Setting.heatMinShare, 0.001);
}
export function heatAnnotations(): boolean {
  return config().get<boolean>(Setting.heatAnnotations, false);
}
/** `file`: heat relative to the hottest line of the file; `global`: to the hottest line of the whole profile. */
export function heatScale(): 'file' | 'global' {
  return config().get<string>(Setting.heatScale, 'file') === 'global' ? 'global' : 'file';
}
export function hotPathThreshold(): number {
  return config().get<number>(Setting.hotPathThreshold, 0.05);
}
/**
 * The user's module map for the call graph (rules in order, first match wins). Malformed rules are
 * skipped and described through `onProblem`, so one typo does not discard the whole map.
 */
export function moduleMap(onProblem?: (message: string) => void): ModuleRule[] {
  const { rules, problems } = parseModuleRules(config().get<unknown>(Setting.moduleMap, []));
  problems.forEach(p => onProblem?.(`hpcLens.moduleMap: ${p}`));
  return rules;
}
/** The last valid CallFlow filter of the settings, and the warnings already shown for the present bad values. */
let lastValidFilter: CallflowFilter = DEFAULT_CALLFLOW_FILTER;
let warnedFor = '';

/**
 * CallFlow's filter from `hpcLens.callflow.filterThreshold` (percent) and `hpcLens.callflow.filterBy`.
 * A value out of range or of the wrong type is reported once through `onWarning`, naming the
 * setting, and the last valid value stays in force.
 */
export function callflowFilter(onWarning?: (message: string) => void): CallflowFilter {
  const c = config();
  const { filter, warnings } = validateCallflowSettings(
    {
      filterThreshold: c.get<unknown>(Setting.callflowFilterThreshold),
      filterBy: c.get<unknown>(Setting.callflowFilterBy),
    },
    lastValidFilter,
  );
  lastValidFilter = filter;
  const key = warnings.join('\n');
  if (onWarning && key !== warnedFor) {
    warnedFor = key;
    warnings.forEach(w => onWarning(w));
  }
  return filter;
}

/** k-means clusters an ensemble's parameter projection opens with (2–8; the session refuses others). */
export function ensembleClusters(): number {
  return config().get<number>(Setting.ensembleClusters, DEFAULT_ENSEMBLE_OPTIONS.clusters);
}

/** Limits of the run summaries cached in the extension's storage: days unused (0: no limit) and total bytes (0: no cap). */
export function ensembleSummaryCacheLimits(): { maxAgeDays: number; maxBytes: number } {
  const days = config().get<number>(Setting.ensembleSummaryCacheMaxAgeDays, 30);
  const mb = config().get<number>(Setting.ensembleSummaryCacheMaxSizeMB, 2048);
  return {
    maxAgeDays: Number.isFinite(days) && days > 0 ? days : 0,
    maxBytes: Number.isFinite(mb) && mb > 0 ? mb * 1024 * 1024 : 0,
  };
}

/** After-line text on the lines that issue copies (`⇅ H→D 96 MB · 24× · …`). */
export function dataMovementAnnotations(): boolean {
  return config().get<boolean>(Setting.dataMovementAnnotations, true);
}

/**
 * DMV's category rules as the user wrote them (any JSON): the data-movement system validates them,
 * applies the good ones and reports the others (src/analysis/dmv/categories.ts).
 */
export function dmvCategoryRules(): unknown {
  return config().get<unknown>(Setting.dmvCategoryRules, []);
}

/** How the analysis service runs: home workers, the read time limit and each worker's heap limit. */
export function analysisPoolSettings(): { workers: number; readTimeoutMs: number; memoryLimitMb: number } {
  const c = config();
  const int = (key: string, fallback: number, min: number, max: number) => {
    const v = c.get<number>(key, fallback);
    return Number.isFinite(v) ? Math.min(max, Math.max(min, Math.floor(v))) : fallback;
  };
  return {
    workers: int(Setting.analysisWorkers, 2, 1, 8),
    readTimeoutMs: int(Setting.parseTimeoutSeconds, 600, 1, 86_400) * 1000,
    memoryLimitMb: int(Setting.workerMemoryLimitMb, 0, 0, 1 << 20),
  };
}

/**
 * What every read runs under: no limits are settings yet beyond the worker's own; the PDES system
 * gets `hpcLens.pdes.handlers` and the folders its handler sources are searched in (the workspace
 * folders on disk and `hpcLens.sourceSearchRoots`).
 */
export function analysisLimits(): ReadLimits {
  return { systems: { pdes: pdesOpenSettings() } };
}

/** `hpcLens.pdes.handlers` and the folders the handlers' sources are searched in, for a PDES run or a live monitor's run. */
export function pdesOpenSettings(): PdesOpenSettings {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
  const first = folders[0];
  const roots = config()
    .get<string[]>(Setting.sourceSearchRoots, [])
    .filter(r => typeof r === 'string' && r.length > 0)
    .map(r => (path.isAbsolute(r) || !first ? r : path.join(first, r)));
  return { handlers: pdesHandlers(), sourceRoots: [...folders, ...roots] };
}

/** `hpcLens.pdes.handlers` as set (checked by the PDES system, which names malformed entries). */
export function pdesHandlers(): unknown {
  return plainCopy(config().get<unknown>(Setting.pdesHandlers, {}));
}

/**
 * A setting's value as plain data: VS Code hands out objects and arrays that cannot be cloned into a
 * worker ("could not be cloned"), and settings are JSON anyway.
 */
function plainCopy(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** The PDES analysis options the settings `hpcLens.pdes.*` set (the panel's controls change them per run). */
export function pdesAnalysisSettings(): Partial<PdesAnalysisOptions> {
  const c = vscode.workspace.getConfiguration('hpcLens.pdes');
  const out: Record<string, unknown> = {};
  for (const key of PDES_SETTING_KEYS) {
    const v = c.get<unknown>(key);
    if (v !== undefined) out[key] = plainCopy(v);
  }
  return out as Partial<PdesAnalysisOptions>;
}

/** A selection in the Memory view re-weights the editor overlays to the selected samples. */
export function memoryFollowsSelection(): boolean {
  return config().get<boolean>(Setting.memoryFollowSelection, true);
}

/**
 * The trace analysis's options from `hpcLens.traceAnalysis.*` (every option of the analysis, with
 * the paper's values as defaults). `cfgFile` is resolved: `${workspaceFolder}` replaced, a relative
 * path taken from the first workspace folder. The service checks the values and names a bad one.
 */
export function traceAnalysisOptions(): Partial<TraceAnalysisOptions> {
  const c = vscode.workspace.getConfiguration('hpcLens.traceAnalysis');
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_TRACE_ANALYSIS_OPTIONS) as (keyof TraceAnalysisOptions)[]) {
    const v = c.get<unknown>(key);
    if (v !== undefined) out[key] = v;
  }
  const cfg = typeof out.cfgFile === 'string' ? out.cfgFile.trim() : '';
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (cfg) {
    const expanded = folder ? cfg.replace(/\$\{workspaceFolder\}/g, folder) : cfg;
    out.cfgFile = folder && !path.isAbsolute(expanded) ? path.join(folder, expanded) : expanded;
  }
  return out as Partial<TraceAnalysisOptions>;
}

/** The `name = value` of options that differ from the paper's defaults (shown with the results). */
export function changedTraceAnalysisOptions(options: Partial<TraceAnalysisOptions>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(options)) {
    const d = DEFAULT_TRACE_ANALYSIS_OPTIONS[k as keyof TraceAnalysisOptions];
    if (JSON.stringify(v) !== JSON.stringify(d)) out.push(`${k} = ${JSON.stringify(v)}`);
  }
  return out;
}

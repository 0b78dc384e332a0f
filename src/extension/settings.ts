import * as vscode from 'vscode';
import { parseModuleRules, type ModuleRule } from '../analysis/graph/module-map';
import * as path from 'node:path';
import type { PdesAnalysisOptions } from '../analysis/pdes/analysis-options';
import type { ReadLimits } from '../service/read-limits';
import type { PdesOpenSettings } from '../service/systems/pdes-system';
import { PDES_SETTING_KEYS } from '../shared/pdes-protocol';

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
  pdesHandlers: 'pdes.handlers',
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
/** After-line text on the lines that issue copies (`⇅ H→D 96 MB · 24× · …`). */
export function dataMovementAnnotations(): boolean {
  return config().get<boolean>(Setting.dataMovementAnnotations, true);
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
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
  const first = folders[0];
  const roots = config()
    .get<string[]>(Setting.sourceSearchRoots, [])
    .filter(r => typeof r === 'string' && r.length > 0)
    .map(r => (path.isAbsolute(r) || !first ? r : path.join(first, r)));
  const pdes: PdesOpenSettings = { handlers: pdesHandlers(), sourceRoots: [...folders, ...roots] };
  return { systems: { pdes } };
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

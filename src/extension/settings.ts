import * as vscode from 'vscode';

/** Setting keys, checked against package.json by the integration tests. */
export const Setting = {
  overlaysEnabled: 'overlays.enabled',
  heatMinShare: 'heat.minShare',
  heatAnnotations: 'heat.annotations',
  heatScale: 'heat.scale',
  sourceSearchRoots: 'sourceSearchRoots',
  pathMappings: 'pathMappings',
  hotPathThreshold: 'hotPath.threshold',
} as const;

const config = () => vscode.workspace.getConfiguration('hpcLens');

export function overlaysEnabled(): boolean { return config().get<boolean>(Setting.overlaysEnabled, true); }
export function heatMinShare(): number { return config().get<number>(Setting.heatMinShare, 0.001); }
export function heatAnnotations(): boolean { return config().get<boolean>(Setting.heatAnnotations, false); }
/** `file`: heat relative to the hottest line of the file; `global`: to the hottest line of the whole profile. */
export function heatScale(): 'file' | 'global' { return config().get<string>(Setting.heatScale, 'file') === 'global' ? 'global' : 'file'; }
export function hotPathThreshold(): number { return config().get<number>(Setting.hotPathThreshold, 0.05); }

import * as vscode from 'vscode';

/** Setting keys, checked against package.json by the integration tests. */
export const Setting = {
  overlaysEnabled: 'overlays.enabled',
  heatMinShare: 'heat.minShare',
  sourceSearchRoots: 'sourceSearchRoots',
  hotPathThreshold: 'hotPath.threshold',
} as const;

const config = () => vscode.workspace.getConfiguration('hpcLens');

export function overlaysEnabled(): boolean { return config().get<boolean>(Setting.overlaysEnabled, true); }
export function heatMinShare(): number { return config().get<number>(Setting.heatMinShare, 0.001); }
export function hotPathThreshold(): number { return config().get<number>(Setting.hotPathThreshold, 0.05); }

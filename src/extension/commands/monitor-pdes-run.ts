import * as vscode from 'vscode';
import type { SamplingMode } from '../../analysis/pdes/model/sample-set';
import type { MonitorSource } from '../../analysis/pdes/stream/monitor-protocol';
import type { PdesStreamSettings } from '../../analysis/pdes/stream/stream-options';
import { pdesOpenSettings } from '../settings';
import type { PdesMonitorPanel } from '../webviews/pdes-monitor-panel';

export const MONITOR_PDES_RUN = 'hpcLens.monitorPdesRun';

/** ROSS stats files the monitor follows (the GVT, real-time and virtual-time samplers' output). */
const STATS_FILTERS = { 'ROSS stats': ['bin'] };

/**
 * **HPC Lens: Monitor PDES Run…**: follow a growing ROSS stats file, replay a recorded one, or listen
 * on a localhost port for a ROSS instrumentation hook. Tests and other extensions pass the source.
 */
export function registerMonitorPdesRun(panel: PdesMonitorPanel): vscode.Disposable {
  return vscode.commands.registerCommand(MONITOR_PDES_RUN, async (given?: MonitorSource) => {
    const source = given ?? (await pickSource());
    if (!source) return false;
    return panel.start(source, streamSettings(), pdesOpenSettings());
  });
}

/**
 * `hpcLens.pdes.stream`: the live analyses' options (their ranges are checked in the worker). VS Code
 * hands settings objects as read-only proxies, which cannot be cloned to a worker: a plain copy goes.
 */
function streamSettings(): PdesStreamSettings | undefined {
  const value = vscode.workspace.getConfiguration('hpcLens.pdes').get<PdesStreamSettings>('stream');
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as PdesStreamSettings);
}

async function pickSource(): Promise<MonitorSource | undefined> {
  const kinds = [
    {
      label: vscode.l10n.t('Follow a growing stats file…'),
      detail: vscode.l10n.t(
        'A simulation writing *-gvt.bin, *-rt.bin or *-analysis-lps.bin now (also over Remote-SSH)',
      ),
      source: 'file' as const,
    },
    {
      label: vscode.l10n.t('Replay a recorded stats file…'),
      detail: vscode.l10n.t('At a multiple of its recorded real time, for demos and for looking again'),
      source: 'replay' as const,
    },
    {
      label: vscode.l10n.t('Listen on a local port…'),
      detail: vscode.l10n.t('A ROSS instrumentation hook streams records to 127.0.0.1'),
      source: 'socket' as const,
    },
  ];
  const kind = await vscode.window.showQuickPick(kinds, { title: vscode.l10n.t('HPC Lens: Monitor PDES Run') });
  if (!kind) return undefined;
  if (kind.source === 'socket') {
    const port = await vscode.window.showInputBox({
      title: vscode.l10n.t('HPC Lens: port to listen on (127.0.0.1)'),
      value: '0',
      prompt: vscode.l10n.t('0 picks a free port; the panel shows which'),
      validateInput: v => (/^\d+$/.test(v) && Number(v) < 65536 ? null : vscode.l10n.t('a port number, 0–65535')),
    });
    if (port === undefined) return undefined;
    const modes: { label: string; mode: SamplingMode }[] = [
      { label: vscode.l10n.t('GVT rounds'), mode: 'gvt' },
      { label: vscode.l10n.t('real-time intervals'), mode: 'rt' },
      { label: vscode.l10n.t('virtual-time intervals'), mode: 'vt' },
    ];
    const mode = await vscode.window.showQuickPick(modes, {
      title: vscode.l10n.t('Sampling mode of the streamed records'),
    });
    return mode ? { kind: 'socket', port: Number(port), mode: mode.mode } : undefined;
  }
  const file = (
    await vscode.window.showOpenDialog({
      title: kind.label,
      openLabel: vscode.l10n.t('Monitor'),
      canSelectFiles: true,
      canSelectMany: false,
      filters: STATS_FILTERS,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    })
  )?.[0];
  if (!file) return undefined;
  if (kind.source === 'file') return { kind: 'file', path: file.fsPath };
  const speeds = [1, 10, 100, Infinity].map(speed => ({
    label: Number.isFinite(speed) ? `${speed}×` : vscode.l10n.t('as fast as possible'),
    speed,
  }));
  const speed = await vscode.window.showQuickPick(speeds, { title: vscode.l10n.t('Replay speed') });
  return speed ? { kind: 'replay', path: file.fsPath, speed: speed.speed } : undefined;
}

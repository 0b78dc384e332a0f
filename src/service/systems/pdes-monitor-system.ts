/**
 * The live PDES monitor as a system of the analysis service (thesis ch. 6): a dataset opened from a
 * source (a growing ROSS stats file, a replay, or a localhost socket) whose worker ingests the bytes,
 * runs the per-tick analyses and pushes each tick to the panel as an event; the panel's questions
 * (behaviour windows, matrices, causality, lasso, Show) are answered from the monitor's cache in the
 * same worker. The monitor lives in its own worker, so a busy stream never delays another dataset.
 */
import type { SamplingMode } from '../../analysis/pdes/model/sample-set';
import type { PdesRunSummary } from '../../analysis/pdes/panel-views';
import type { ChangePointActivity } from '../../analysis/pdes/stream/monitor-run';
import type { FromMonitor, MonitorQuery, MonitorSource } from '../../analysis/pdes/stream/monitor-protocol';
import { MonitorSession } from '../../analysis/pdes/stream/monitor-session';
import type { PdesStreamSettings } from '../../analysis/pdes/stream/stream-options';
import type { PdesTickSummary, PdesTickUpdate, StreamChangePoint } from '../../analysis/pdes/stream/stream-analyser';
import type {
  changePointEntities,
  BehaviourWindow,
  CausalityTableRow,
  DiffMatrix,
  MatrixView,
  SummarySeries,
} from '../../analysis/pdes/stream/stream-views';
import type { Profile } from '../../analysis/model/profile';
import type { AnalysisSystem, SystemShape } from './analysis-system';
import { pdesEditor, type PdesOpenSettings } from './pdes-system';

/** What the monitor pushes: everything its session says except answers (those come back as results). */
export type PdesMonitorEvent = Exclude<FromMonitor, { type: 'answer' }>;

/** How the monitor started: the source's name, its sampling mode, the trace it tails and the PEs a tick waits for. */
export interface PdesMonitorOpened {
  source: string;
  mode: SamplingMode;
  port?: number;
  tracePath: string | null;
  expectedPes: number;
  /**
   * The run the editor shows while the monitor runs (its handlers, as a PDES run's): null when the
   * run's LPs are unknown — a socket, or a folder without `ross.csv`, `command.txt` or `ross_all_lp_stats/`.
   */
  editor: PdesRunSummary | null;
}

export interface PdesMonitorShape extends SystemShape {
  /** `editor`: `hpcLens.pdes.handlers` and the folders model sources are searched in, as for a PDES run. */
  open: { source: MonitorSource; settings?: PdesStreamSettings; editor?: PdesOpenSettings };
  opened: PdesMonitorOpened;
  request: MonitorQuery | { kind: 'pause' } | { kind: 'resume' } | { kind: 'stop' };
  results: {
    /** Every tick so far, and how the source ended or why tailing stopped (events pushed before anyone listened are lost). */
    history: {
      ticks: PdesTickSummary[];
      changePoints: StreamChangePoint[];
      latest: PdesTickUpdate | null;
      ended: { ticks: number; reason: string } | null;
      failure: string | null;
    };
    behaviour: BehaviourWindow;
    summary: SummarySeries;
    'live-matrix': MatrixView | null;
    'base-matrix': MatrixView;
    'diff-matrices': DiffMatrix[];
    causality: CausalityTableRow[];
    lasso: number[];
    show: ReturnType<typeof changePointEntities>;
    'handler-activity': ChangePointActivity | null;
    pause: null;
    resume: null;
    stop: null;
  };
  event: PdesMonitorEvent;
}

export const pdesMonitorSystem: AnalysisSystem<PdesMonitorShape, MonitorSession> = {
  async open(args, ctx) {
    let started: Omit<PdesMonitorOpened, 'editor'> | undefined;
    // Events cross to the host by transfer: the session keeps the latest tick's arrays, so it sends copies.
    const session = new MonitorSession(message => {
      if (message.type === 'answer') return;
      if (message.type === 'started') {
        const { type: _, ...opened } = message;
        started = opened;
      }
      ctx.emit(structuredClone(message));
    });
    await session.handle({ type: 'start', source: args.source, settings: args.settings });
    if (!started) throw new Error(`the monitor of ${sourceName(args.source)} did not start`);
    const editor = await editorOf(session, args.editor ?? {}, ctx.signal);
    return { state: session, opened: { ...started, editor: editor?.summary ?? null }, profile: editor?.profile };
  },

  async answer(session, request) {
    switch (request.kind) {
      case 'pause':
      case 'resume':
      case 'stop':
        await session.handle({ type: request.kind });
        return null;
      default:
        // Answers cross by transfer, and some hold arrays the monitor keeps (the latest tick, the
        // clustering's labels in a behaviour window): a copy goes, never the monitor's own.
        return structuredClone(session.query(request));
    }
  },

  close(session) {
    void session.handle({ type: 'stop' });
  },
};

/**
 * The monitored run's editor profile — the model's event handlers per PE, built by the PDES system's
 * own function (editor-profile.ts) — so **Show** puts the handler CodeLenses of a PDES run on the
 * model's source. Only when the run folder declares its LPs (which LPs a PE or KP holds).
 */
async function editorOf(
  session: MonitorSession,
  settings: PdesOpenSettings,
  signal: AbortSignal | undefined,
): Promise<{ profile: Profile; summary: PdesRunSummary } | null> {
  if (!session.layout?.entities?.count('lp')) return null;
  return pdesEditor(session.run(), settings, signal);
}

function sourceName(source: MonitorSource): string {
  return source.kind === 'socket' ? `tcp://127.0.0.1:${source.port}` : source.path;
}

import type { SamplingMode } from '../model/sample-set';
import type { PdesTickSummary, PdesTickUpdate, StreamChangePoint } from './stream-analyser';
import type { PdesStreamSettings } from './stream-options';
import type { MatrixQuery } from './stream-views';

/**
 * Messages between the live monitor's worker ({@link MonitorSession}) and its host: plain,
 * structured-clonable data (typed arrays included), so the host posts them to a webview as they are.
 */

/** Where the bytes come from. */
export type MonitorSource =
  | {
      kind: 'file';
      /** A growing `*-gvt.bin`, `*-rt.bin` or `*-analysis-lps.bin`. */
      path: string;
      /** The event trace to tail beside it: a path, null for none, or (default) the sibling `*-evtrace.bin`. */
      tracePath?: string | null;
      /** Sampling mode (default: from the file name, else `gvt`). */
      mode?: SamplingMode;
      /** Polling interval (default 250 ms). */
      pollMs?: number;
      /** End once the file has not grown for this long (default: never). */
      idleMs?: number;
    }
  | {
      kind: 'socket';
      /** Port on 127.0.0.1 (0: any free port; the `started` message says which). */
      port: number;
      mode: SamplingMode;
      /** A name for messages (default `tcp://127.0.0.1:PORT`). */
      name?: string;
    }
  | {
      kind: 'replay';
      /** A recorded stats file, replayed in real-time order. */
      path: string;
      tracePath?: string | null;
      mode?: SamplingMode;
      /** Multiple of the recorded real time (2 = twice as fast; Infinity = as fast as possible). */
      speed: number;
    };

/** Questions the panel asks; answered with `answer` messages carrying the same id. */
export type MonitorQuery =
  | { kind: 'history' }
  | { kind: 'behaviour'; view: 'top' | 'bottom' | string; window?: number }
  | { kind: 'summary'; view: 'top' | 'bottom' | string }
  | { kind: 'live-matrix'; matrix?: MatrixQuery }
  | { kind: 'base-matrix'; tick: number; matrix?: MatrixQuery }
  | { kind: 'diff-matrices'; baseTick: number; matrix?: MatrixQuery }
  | { kind: 'causality'; direction?: 'from' | 'to'; sortBy?: 'metric' | 'pValue' | 'impulse' | 'varianceShare' }
  | { kind: 'lasso'; view: 'top' | 'bottom'; polygon: [number, number][] }
  | { kind: 'show'; changePoint: number }
  /** Show's handler CodeLenses: the activity of the change point's entities, `handlers` as `hpcLens.pdes.handlers` holds it. */
  | { kind: 'handler-activity'; changePoint: number; handlers?: unknown };

export type ToMonitor =
  | { type: 'start'; source: MonitorSource; settings?: PdesStreamSettings }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'stop' }
  | { type: 'query'; id: number; query: MonitorQuery };

export type FromMonitor =
  | {
      type: 'started';
      /** The source's name (path or tcp:// address). */
      source: string;
      mode: SamplingMode;
      /** The socket's port when listening on one. */
      port?: number;
      tracePath: string | null;
      expectedPes: number;
    }
  /** A tick to draw (only while not paused). */
  | { type: 'tick'; update: PdesTickUpdate }
  /** Resume jumped to now: the newest tick and what was missed. */
  | { type: 'resumed'; update: PdesTickUpdate | null; history: PdesTickSummary[]; changePoints: StreamChangePoint[] }
  | { type: 'notice'; message: string }
  /** Tailing stopped on bad input: the message names the file and the byte offset. */
  | { type: 'error'; message: string; path?: string; offset?: number }
  | { type: 'ended'; ticks: number; reason: string }
  | { type: 'answer'; id: number; result: unknown; error?: string };

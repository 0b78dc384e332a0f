import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ByteSocketServer } from '../../formats/io/byte-socket';
import { tailFile } from '../../formats/io/file-tail';
import { RossRecordError } from '../../formats/ross/record-decoder';
import { playReplay, replayPlan, statsRecordSpans, traceRecordSpans } from '../../formats/ross/record-replay';
import { ProfileReadError } from '../../formats/reader';
import type { Clock } from '../../series/time-budget';
import { PdesEntities } from '../model/entities';
import type { SamplingMode } from '../model/sample-set';
import type { FromMonitor, MonitorQuery, MonitorSource, ToMonitor } from './monitor-protocol';
import { PdesMonitor } from './pdes-monitor';
import { RenderCursor } from './render-cursor';
import type { PdesTickUpdate } from './stream-analyser';
import { resolveHandlers } from '../handlers';
import type { PdesRun } from '../model/pdes-run';
import { changePointActivity, monitorRun } from './monitor-run';
import { readStreamLayout, type StreamLayout } from './stream-layout';
import type { PdesStreamSettings } from './stream-options';
import {
  behaviourWindow,
  causalityTable,
  changePointEntities,
  communicationView,
  diffMatrices,
  lassoSelect,
  liveMatrix,
  summarySeries,
} from './stream-views';

/**
 * The live monitor as a message-driven session, ready to run in a worker thread: the host posts
 * {@link ToMonitor} messages and forwards what `post` emits. A worker needs only
 *
 *   const session = new MonitorSession(m => parentPort!.postMessage(m));
 *   parentPort!.on('message', m => void session.handle(m));
 *
 * The session tails a file (and its event trace), listens on a localhost socket or replays a
 * recorded file; pushes the bytes through a {@link PdesMonitor}; posts each tick unless paused
 * (Pause stops rendering only, Resume jumps to now); restarts with a notice when a tailed file
 * shrinks; stops tailing with an error naming the file and byte offset on a bad record; drops (and
 * reports) a socket connection that sends garbage; and answers the views' queries.
 */
export class MonitorSession {
  monitor: PdesMonitor | null = null;
  readonly cursor = new RenderCursor();
  private latest: PdesTickUpdate | null = null;
  private abort: AbortController | null = null;
  private server: ByteSocketServer | null = null;
  private running: Promise<void> | null = null;
  private settings: PdesStreamSettings | undefined;
  /** What the followed file's run folder declares (null for a socket, or before a start). */
  layout: StreamLayout | null = null;
  private runView: { monitor: PdesMonitor; run: PdesRun } | null = null;
  private sourceName = '';

  /** How the current source ended, and why tailing stopped (kept for a host that listens late: `history` says them). */
  private end: { ticks: number; reason: string } | null = null;
  private failure: string | null = null;
  private readonly post: (message: FromMonitor) => void;

  constructor(
    post: (message: FromMonitor) => void,
    private readonly clock?: Clock,
  ) {
    this.post = message => {
      if (message.type === 'started') this.end = this.failure = null;
      else if (message.type === 'ended') this.end = { ticks: message.ticks, reason: message.reason };
      else if (message.type === 'error') this.failure = message.message;
      post(message);
    };
  }

  /** Handles one message; resolves once it is dealt with (a start: once the source is open). */
  async handle(message: ToMonitor): Promise<void> {
    switch (message.type) {
      case 'start':
        await this.stop('restarted');
        this.settings = message.settings;
        await this.start(message.source);
        return;
      case 'pause':
        this.cursor.pause();
        return;
      case 'resume': {
        const jumped = this.cursor.resume();
        const a = this.monitor?.analyser;
        this.post({
          type: 'resumed',
          update: jumped >= 0 ? this.latest : null,
          history: a ? a.history.slice() : [],
          changePoints: a ? a.changePoints.slice() : [],
        });
        return;
      }
      case 'stop':
        await this.stop('stopped');
        return;
      case 'query':
        try {
          this.post({ type: 'answer', id: message.id, result: this.query(message.query) });
        } catch (e) {
          this.post({ type: 'answer', id: message.id, result: null, error: (e as Error).message });
        }
        return;
    }
  }

  /** Resolves when the current source has ended (for tests and the CLI). */
  finished(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async start(source: MonitorSource): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    if (source.kind === 'socket') {
      const name = source.name ?? 'tcp://127.0.0.1';
      this.layout = null;
      this.sourceName = name;
      this.monitor = this.newMonitor(source.mode, name, null, null, 0);
      let connection = 0;
      this.server = await ByteSocketServer.listen(
        {
          connection: (id, remote) => {
            connection = id;
            const partial = this.monitor!.restartStatsStream(`${name} (connection ${id} from ${remote})`);
            if (partial) this.notice(`the previous connection ended inside a record: ${partial} bytes dropped`);
          },
          chunk: (_id, bytes) => this.push(bytes),
          dropped: (id, reason) => {
            this.notice(`connection ${id} dropped: ${reason}`);
            if (id === connection) this.monitor!.restartStatsStream(name);
          },
        },
        source.port,
      );
      this.post({
        type: 'started',
        source: `tcp://127.0.0.1:${this.server.port}`,
        mode: source.mode,
        port: this.server.port,
        tracePath: null,
        expectedPes: 0,
      });
      this.running = new Promise<void>(resolve => abort.signal.addEventListener('abort', () => resolve()));
      return;
    }
    const layout = await readStreamLayout(source.path);
    this.layout = layout;
    this.sourceName = source.path;
    for (const w of layout.warnings) this.notice(w);
    const mode = source.mode ?? layout.mode ?? 'gvt';
    const tracePath = source.tracePath === undefined ? layout.tracePath : source.tracePath;
    const expectedPes = this.settings?.expectedPes || layout.expectedPes;
    this.monitor = this.newMonitor(mode, source.path, tracePath, layout.entities, expectedPes);
    this.post({ type: 'started', source: source.path, mode, tracePath, expectedPes });
    this.running =
      source.kind === 'file'
        ? this.tail(source, tracePath, abort.signal, () =>
            this.newMonitor(mode, source.path, tracePath, layout.entities, expectedPes),
          )
        : this.replay(source, mode, tracePath, abort.signal);
  }

  private newMonitor(
    mode: SamplingMode,
    path: string,
    tracePath: string | null,
    entities: PdesEntities | null,
    expectedPes: number,
  ): PdesMonitor {
    this.latest = null;
    return new PdesMonitor({
      mode,
      path,
      tracePath: tracePath ?? undefined,
      entities: entities ? cloneLayout(entities) : undefined,
      expectedPes,
      settings: this.settings,
      clock: this.clock,
    });
  }

  private async tail(
    source: Extract<MonitorSource, { kind: 'file' }>,
    tracePath: string | null,
    signal: AbortSignal,
    fresh: () => PdesMonitor,
  ): Promise<void> {
    const options = { pollMs: source.pollMs, idleMs: source.idleMs, signal };
    const inner = new AbortController();
    const both = AbortSignal.any([signal, inner.signal]);
    let reason: string;
    try {
      const stats = tailFile(
        source.path,
        {
          chunk: bytes => this.push(bytes),
          restart: why => {
            this.notice(`${why}; the monitor starts over`);
            this.monitor = fresh();
          },
        },
        { ...options, signal: both },
      );
      const trace = tracePath
        ? tailFile(tracePath, { chunk: bytes => this.monitor!.pushTrace(bytes) }, { ...options, signal: both }).catch(
            (e: unknown) => this.fail(e),
          )
        : null;
      await stats;
      reason = signal.aborted ? 'stopped' : `${basename(source.path)} did not grow for ${source.idleMs} ms`;
      inner.abort();
      await trace;
      if (!signal.aborted) this.deliver(this.monitor!.finish());
    } catch (e) {
      inner.abort();
      reason = 'bad input';
      this.fail(e);
    }
    this.post({ type: 'ended', ticks: this.monitor?.ticks ?? 0, reason });
  }

  private async replay(
    source: Extract<MonitorSource, { kind: 'replay' }>,
    mode: SamplingMode,
    tracePath: string | null,
    signal: AbortSignal,
  ): Promise<void> {
    let reason = 'replayed';
    try {
      const bytes = new Uint8Array(await readFile(source.path));
      const stats = { bytes, spans: statsRecordSpans(bytes, source.path, mode === 'vt') };
      let trace = null;
      if (tracePath) {
        const tb = new Uint8Array(await readFile(tracePath));
        trace = { bytes: tb, spans: traceRecordSpans(tb, tracePath) };
      }
      await playReplay(
        replayPlan(stats, trace),
        source.speed,
        step => {
          if (step.trace) this.monitor!.pushTrace(step.trace);
          if (step.stats) this.push(step.stats);
        },
        signal,
      );
      if (signal.aborted) reason = 'stopped';
      else this.deliver(this.monitor!.finish());
    } catch (e) {
      reason = 'bad input';
      this.fail(e);
    }
    this.post({ type: 'ended', ticks: this.monitor?.ticks ?? 0, reason });
  }

  /** Pushes stats bytes; the ticks completed before a bad record are delivered before it is reported. */
  private push(bytes: Uint8Array): void {
    try {
      this.deliver(this.monitor!.pushStats(bytes));
    } catch (e) {
      this.deliver(this.monitor!.collect());
      throw e;
    }
  }

  private deliver(updates: PdesTickUpdate[]): void {
    for (const u of updates) {
      this.latest = u;
      for (const notice of u.notices) this.notice(notice);
      if (this.cursor.offer(u.tick)) this.post({ type: 'tick', update: u });
    }
  }

  private notice(message: string): void {
    this.post({ type: 'notice', message });
  }

  private fail(e: unknown): void {
    if (e instanceof RossRecordError) this.post({ type: 'error', message: e.message, path: e.path, offset: e.offset });
    else if (e instanceof ProfileReadError) this.post({ type: 'error', message: e.message, path: e.path });
    else this.post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }

  private async stop(reason: string): Promise<void> {
    this.abort?.abort(reason);
    this.abort = null;
    if (this.server) {
      await this.server.close();
      this.server = null;
      this.post({ type: 'ended', ticks: this.monitor?.ticks ?? 0, reason });
    }
    await this.running;
    this.running = null;
  }

  /** Answers one of the panel's questions from the monitor's cache and analyses. */
  query(query: MonitorQuery): unknown {
    const m = this.monitor;
    if (!m) throw new Error('the monitor has not started');
    switch (query.kind) {
      case 'history':
        return {
          ticks: m.analyser.history,
          changePoints: m.analyser.changePoints,
          latest: this.latest,
          ended: this.end,
          failure: this.failure,
        };
      case 'behaviour':
        return behaviourWindow(m, query.view, query.window);
      case 'summary':
        return summarySeries(m, query.view);
      case 'live-matrix':
        return liveMatrix(m, query.matrix);
      case 'base-matrix':
        return communicationView(m, [query.tick], query.matrix);
      case 'diff-matrices':
        return diffMatrices(m, query.baseTick, query.matrix);
      case 'causality':
        return causalityTable(m, query.direction, query.sortBy);
      case 'lasso': {
        const p = m.analyser.projections[query.view];
        return p ? lassoSelect(p, query.polygon) : [];
      }
      case 'show':
        return changePointEntities(m, query.changePoint);
      case 'handler-activity':
        return changePointActivity(m, this.run(), query.changePoint, resolveHandlers(query.handlers).handlers);
    }
  }

  /** The monitored run as a PdesRun (monitor-run.ts), made again when a restart replaced the monitor. */
  run(): PdesRun {
    const m = this.monitor;
    if (!m) throw new Error('the monitor has not started');
    if (this.runView?.monitor !== m) this.runView = { monitor: m, run: monitorRun(m, this.layout, this.sourceName) };
    return this.runView.run;
  }
}

/**
 * A restart needs the layout as it was declared, not as the previous monitor grew it: the entities
 * are re-read from the same declaration by interning them in the same order.
 */
function cloneLayout(source: PdesEntities): PdesEntities {
  const copy = new PdesEntities();
  for (let k = 0; k < source.count('kp'); k++) copy.internKp(source.peId(source.kpPe(k)), source.kpLocal(k));
  for (let p = 0; p < source.count('pe'); p++) copy.internPe(source.peId(p));
  for (let lp = 0; lp < source.count('lp'); lp++) {
    const i = copy.internLp(source.lpGid(lp));
    const pe = source.lpPe(lp);
    if (pe >= 0) {
      const kp = source.lpKp(lp);
      copy.placeLp(
        i,
        copy.internPe(source.peId(pe)),
        kp >= 0 ? copy.internKp(source.peId(source.kpPe(kp)), source.kpLocal(kp)) : -1,
      );
    }
  }
  return copy;
}

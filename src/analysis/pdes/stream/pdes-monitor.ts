import { systemClock, type Clock } from '../../series/time-budget';
import { PdesStreamAnalyser, type PdesTickUpdate } from './stream-analyser';
import { PdesStreamCache, type StreamCacheInit } from './stream-cache';
import { resolvePdesStreamOptions, type PdesStreamOptions, type PdesStreamSettings } from './stream-options';

export interface PdesMonitorInit extends StreamCacheInit {
  settings?: PdesStreamSettings;
  /** Clock of the latency budgets (tests inject one). */
  clock?: Clock;
}

/**
 * A monitored PDES run: the append-only {@link PdesStreamCache} and the per-tick
 * {@link PdesStreamAnalyser}, with the backlog rule between them. Push the bytes each source
 * produced; every push returns the updates of the ticks it completed, in tick order. When several
 * ticks complete at once, the change-point detection still sees each of them, but only the newest
 * gets the progressive analyses (unless `skipStaleTicks` is off); the others are counted as
 * skipped. Synchronous and free of I/O, so it runs in a worker thread as it is (see
 * `monitor-session.ts`) and in the CLI.
 */
export class PdesMonitor {
  readonly options: PdesStreamOptions;
  readonly cache: PdesStreamCache;
  readonly analyser: PdesStreamAnalyser;
  /** Ticks whose key came after a later tick's (virtual-time grouping only): kept, not analysed. */
  lateTicks = 0;
  private next = 0;
  private lastKey = -Infinity;

  constructor(init: PdesMonitorInit) {
    this.options = resolvePdesStreamOptions(init.settings);
    this.cache = new PdesStreamCache({ ...init, expectedPes: init.expectedPes ?? this.options.expectedPes });
    this.analyser = new PdesStreamAnalyser(this.options, init.clock ?? systemClock);
  }

  /**
   * Appended bytes of the stats stream. A bad record throws a RossRecordError naming the source and
   * byte offset; the ticks the records before it completed are then left for {@link collect}.
   */
  pushStats(chunk: Uint8Array): PdesTickUpdate[] {
    this.cache.pushStats(chunk);
    return this.collect();
  }

  /** Appended bytes of the event trace (communication views); completes no tick by itself. */
  pushTrace(chunk: Uint8Array): void {
    this.cache.pushTrace(chunk);
  }

  /** A new stats byte stream (socket connection) starts on a record boundary; ticks are kept. */
  restartStatsStream(path: string): number {
    return this.cache.restartStatsStream(path);
  }

  /** The input is over (or idle for good): completes and analyses the remaining ticks. */
  finish(): PdesTickUpdate[] {
    this.cache.finish();
    return this.collect();
  }

  /** Ticks complete and analysed (or skipped) so far. */
  get ticks(): number {
    return this.next;
  }

  /** Analyses the ticks completed but not analysed yet (after a push that threw) and returns their updates. */
  collect(): PdesTickUpdate[] {
    const complete = this.cache.completeTicks;
    const updates: PdesTickUpdate[] = [];
    const ordered = this.cache.samples.grouping === 'virtual-time';
    for (; this.next < complete; this.next++) {
      const t = this.next;
      const key = this.cache.samples.tickKey(t);
      if (ordered && key < this.lastKey) {
        this.lateTicks++;
        continue;
      }
      this.lastKey = key;
      const progressive = !this.options.skipStaleTicks || t === complete - 1;
      updates.push(this.analyser.analyse(this.cache, t, progressive));
    }
    return updates;
  }
}

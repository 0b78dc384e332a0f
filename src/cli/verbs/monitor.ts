import { once } from 'node:events';
import type { FromMonitor, MonitorSource } from '../../analysis/pdes/stream/monitor-protocol';
import { MonitorSession } from '../../analysis/pdes/stream/monitor-session';
import type { PdesTickUpdate } from '../../analysis/pdes/stream/stream-analyser';
import type { SamplingMode } from '../../analysis/pdes/model/sample-set';
import { parseArgs, UsageError, type Verb, type VerbIO } from '../verb';

/** One line of `hpc-lens monitor --json` (issue #20): key order as documented. */
export interface MonitorJsonLine {
  tick: number;
  /** GVT of the tick (wall-clock seconds for real-time sampling); null after the end (ROSS's DBL_MAX). */
  time: number | null;
  entities: number;
  totals: { eventsProcessed: number; rollbacks: number; primaryRollbacks: number; secondaryRollbacks: number };
  changePoint: boolean;
  /** Clusters of the latest clustering (0 before the first). */
  clusters: number;
  skippedTicks: number;
}

/** The JSON line of a tick update. */
export function monitorJsonLine(u: PdesTickUpdate): MonitorJsonLine {
  return {
    tick: u.tick,
    time: Number.isFinite(u.time) ? u.time : null,
    entities: u.entities,
    totals: {
      eventsProcessed: u.totals.eventsProcessed,
      rollbacks: u.totals.rollbacks,
      primaryRollbacks: u.totals.primaryRollbacks,
      secondaryRollbacks: u.totals.secondaryRollbacks,
    },
    changePoint: u.changePoint !== null,
    clusters: u.clustering?.k ?? 0,
    skippedTicks: u.skippedTicks,
  };
}

const MODES: Record<string, SamplingMode> = { gvt: 'gvt', rt: 'rt', vt: 'vt' };

export const monitorVerb: Verb = {
  usage: `usage: hpc-lens monitor [--json] [--idle-exit SECONDS] FILE
       hpc-lens monitor --replay [--speed X] [--json] FILE

Follows a growing ROSS stats file (*-gvt.bin, *-rt.bin, *-analysis-lps.bin) while the simulation
writes it, with the same ingest and analyses as the editor's live PDES panel (online change points,
progressive clustering, projections and causality), and prints one line per tick (GVT round or
real-time / virtual-time interval). A tick is printed once every PE has moved past it.
  --json             one JSON object per line: {"tick", "time", "entities", "totals": {"eventsProcessed",
                     "rollbacks", "primaryRollbacks", "secondaryRollbacks"}, "changePoint", "clusters",
                     "skippedTicks"}
  --idle-exit S      exit 0 once the file has not grown for S seconds (default: never)
  --replay           replay a recorded file in the order its records were written (real time)
  --speed X          replay at X times the recorded real time (default 1)
  --mode gvt|rt|vt   sampling mode when the file name does not say it
  --pes N            PEs a tick waits for (default: ross.csv or command.txt beside the file, else those seen)
  --poll MS          polling interval while tailing (default 250)`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, {
      boolean: ['json', 'replay'],
      valued: ['idle-exit', 'speed', 'mode', 'pes', 'poll'],
    });
    if (positional.length !== 1) throw new UsageError('monitor follows exactly one FILE');
    const path = positional[0]!;
    const number = (name: string, min: number): number | undefined => {
      const raw = flags.get(name);
      if (raw === undefined) return undefined;
      const v = Number(raw);
      if (!(v >= min) || raw === true) throw new UsageError(`--${name} needs a number ≥ ${min}, got ${String(raw)}`);
      return v;
    };
    const idle = number('idle-exit', 0);
    const speed = number('speed', Number.MIN_VALUE) ?? 1;
    const pes = number('pes', 0);
    const poll = number('poll', 5);
    const modeFlag = flags.get('mode');
    if (modeFlag !== undefined && !(typeof modeFlag === 'string' && modeFlag in MODES))
      throw new UsageError(`--mode must be gvt, rt or vt, got ${String(modeFlag)}`);
    const mode = modeFlag ? MODES[modeFlag as string] : undefined;
    if (flags.has('replay') && idle !== undefined)
      throw new UsageError('--idle-exit applies to tailing, not to --replay');
    if (!flags.has('replay') && flags.has('speed')) throw new UsageError('--speed needs --replay');
    const source: MonitorSource = flags.has('replay')
      ? { kind: 'replay', path, mode, speed, tracePath: null }
      : {
          kind: 'file',
          path,
          mode,
          tracePath: null,
          idleMs: idle === undefined ? undefined : idle * 1000,
          pollMs: poll,
        };
    return monitor(source, { json: flags.has('json'), expectedPes: pes }, io);
  },
};

async function monitor(
  source: MonitorSource,
  options: { json: boolean; expectedPes?: number },
  io: VerbIO,
): Promise<number> {
  let failed = false;
  const session = new MonitorSession((m: FromMonitor) => {
    switch (m.type) {
      case 'tick':
        io.out((options.json ? JSON.stringify(monitorJsonLine(m.update)) : textLine(m.update)) + '\n');
        break;
      case 'notice':
        io.err(`note: ${m.message}\n`);
        break;
      case 'error':
        failed = true;
        io.err(`hpc-lens: ${m.message}\n`);
        break;
      default:
        break;
    }
  });
  const stop = () => void session.handle({ type: 'stop' });
  process.once('SIGINT', stop);
  try {
    await session.handle({ type: 'start', source, settings: { expectedPes: options.expectedPes } });
    await Promise.race([session.finished(), once(process, 'beforeExit')]);
  } finally {
    process.off('SIGINT', stop);
  }
  return failed ? 1 : 0;
}

function textLine(u: PdesTickUpdate): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const time = Number.isFinite(u.time) ? n(Math.round(u.time * 1000) / 1000) : 'end';
  const t = u.totals;
  return [
    `tick ${u.tick}`,
    `time ${time}`,
    `${n(u.entities)} ${u.level.toUpperCase()}s`,
    `${n(t.eventsProcessed)} events, ${n(t.rollbacks)} rollbacks (${n(t.primaryRollbacks)} primary, ${n(t.secondaryRollbacks)} secondary)`,
    u.clustering ? `${u.clustering.k} clusters` : '',
    u.changePoint ? `change point ${u.changePoint.number}` : '',
    u.skippedTicks ? `${n(u.skippedTicks)} stale ticks skipped` : '',
  ]
    .filter(Boolean)
    .join('  ');
}

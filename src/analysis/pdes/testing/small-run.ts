import { PdesEntities } from '../model/entities';
import { EventTrace } from '../model/event-trace';
import { KP_METRICS, PE_METRICS } from '../model/metrics';
import type { PdesRun } from '../model/pdes-run';
import { placeLps } from '../model/placement';
import { SampleSet } from '../model/sample-set';

/**
 * A hand-sized PDES run for unit tests whose answers are checked by hand: `pes` PEs × `kpsPerPe`
 * KPs × `lpsPerKp` LPs (ROSS linear mapping, so LP g sits on KP ⌊g / lpsPerKp⌋), GVT samples at
 * virtual times 10, 20, … with KP records from `kp(kp, tick)` (PE records add their KPs), and an
 * event trace of the given (source LP, destination LP, receive time) triples.
 */
export interface SmallRunSpec {
  pes: number;
  kpsPerPe: number;
  lpsPerKp?: number;
  ticks: number;
  /** KP values at a tick: any of processed, secondary, primary, sends, receives, ahead (time ahead of GVT; NaN: no record). */
  kp: (
    kp: number,
    tick: number,
  ) => Partial<Record<'processed' | 'secondary' | 'primary' | 'sends' | 'receives' | 'ahead', number>>;
  events?: readonly (readonly [number, number, number])[];
  /** Leave out PE records (PE series then roll up from KPs). */
  noPeRecords?: boolean;
}

export const SMALL_RUN_GVT_STEP = 10;

export function smallRun(spec: SmallRunSpec): PdesRun {
  const lpsPerKp = spec.lpsPerKp ?? 1;
  const kps = spec.pes * spec.kpsPerPe;
  const entities = new PdesEntities();
  const placement = placeLps(entities, {
    mapping: 'linear',
    totalPe: spec.pes,
    totalLp: kps * lpsPerKp,
    kpsPerPe: spec.kpsPerPe,
  });
  entities.sort();
  const gvt = new SampleSet('gvt');
  for (let t = 0; t < spec.ticks; t++) {
    const vt = (t + 1) * SMALL_RUN_GVT_STEP;
    for (let pe = 0; pe < spec.pes; pe++) {
      const peValues = new Array<number>(PE_METRICS.length).fill(0);
      for (let local = 0; local < spec.kpsPerPe; local++) {
        const k = pe * spec.kpsPerPe + local;
        const v = spec.kp(k, t);
        const values = new Array<number>(KP_METRICS.length).fill(0);
        const secondary = v.secondary ?? 0,
          primary = v.primary ?? 0;
        values[0] = v.processed ?? 0;
        values[3] = secondary + primary;
        values[4] = secondary;
        values[5] = v.sends ?? 0;
        values[6] = v.receives ?? 0;
        values[7] = v.ahead ?? 0;
        values[9] = primary;
        // ahead NaN: the KP sends no record this tick (other entities keep the tick in the set).
        if (Number.isNaN(v.ahead)) continue;
        gvt.add('kp', entities.findKp(pe, local), pe, vt, t, values);
        for (const [from, to] of [
          [0, 0],
          [3, 3],
          [4, 4],
          [5, 7],
          [6, 8],
          [9, 25],
        ] as const)
          peValues[to]! += values[from]!;
      }
      if (!spec.noPeRecords) gvt.add('pe', entities.findPe(pe), pe, vt, t, peValues);
    }
  }
  const trace = new EventTrace();
  for (const [src, dst, t] of spec.events ?? []) trace.append(src, dst, t - 1, t, t / 100);
  return {
    format: 'ross-codes',
    path: '/small-run',
    name: 'small-run',
    files: { lpStats: [], packetLatency: [], routerTiming: [] },
    summary: null,
    command: { program: 'small', options: { 'event-trace': '1' }, args: [] },
    codesConfig: null,
    lpTypes: null,
    entities,
    placement,
    samples: { gvt },
    modelSamples: null,
    eventTrace: spec.events ? trace : null,
    unknownTraceLps: null,
    lpStats: null,
    packets: null,
    routerHops: null,
    links: null,
    terminalStats: null,
    warnings: [],
  };
}

/**
 * The 2 PEs × 2 KPs × 1 LP run several tests check by hand: 4 GVT samples at 10 … 40; KP k has
 * k·10 + t secondary rollbacks at sample t and 1 (then, from sample 2, 3) primary rollbacks; six
 * traced events inside the samples and one after the last.
 */
export function fourKpRun(): PdesRun {
  return smallRun({
    pes: 2,
    kpsPerPe: 2,
    ticks: 4,
    kp: (k, t) => ({ secondary: k * 10 + t, primary: t < 2 ? 1 : 3 }),
    events: [
      [0, 1, 5], // sample 0: KP 0 → KP 1 (PE 0 → PE 0)
      [0, 2, 15], // sample 1: KP 0 → KP 2 (PE 0 → PE 1)
      [0, 2, 18],
      [3, 1, 25], // sample 2: KP 3 → KP 1 (PE 1 → PE 0)
      [2, 3, 35], // sample 3: KP 2 → KP 3 (PE 1 → PE 1)
      [1, 2, 38], // sample 3: KP 1 → KP 2 (PE 0 → PE 1)
      [0, 1, 45], // after the last sample: in no segment
    ],
  });
}

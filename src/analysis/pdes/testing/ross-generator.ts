import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RossRecordWriter } from '../../formats/ross/record-writer';
import { seededRandom } from '../../stats/seeded-random';
import { codesDragonflyConfigText, codesLpCount, type DragonflyShape } from '../../topology/dragonfly';
import { KP_METRICS, LP_METRICS, PE_METRICS } from '../model/metrics';

/**
 * A seeded ROSS-like run generator for the seed acceptance tests (seed digest §6.4): it writes real
 * ROSS bytes — `stats/<prefix>-gvt.bin` (PE, KP and optionally LP records), `<prefix>-evtrace.bin`
 * (every processed event), optionally `<prefix>-rt.bin` — with `ross.csv`, `ross_all_lp_stats/` and
 * `command.txt`, so the readers take them like a real run, and returns the planted truth beside:
 *
 * - **groups**: KPs behave by PE block (groups of consecutive PEs): each group has its own rollback
 *   level and shape (flat, rising, oscillating), so clustering the rollback series should recover
 *   the blocks;
 * - **bursts**: tick ranges where every KP's rollbacks jump (the planted change points are their
 *   starts and ends), and during which two PEs (PE 7 and PE 8 by default) exchange many more events
 *   than any other pair;
 * - **outliers**: KPs that send several times more remote events than the rest;
 * - **self communication**: optionally, the KPs of one PE send most of their events to their own LPs
 *   (a dominant diagonal block, seed digest §4.6).
 *
 * Every record is consistent with the trace: a KP's `events_processed` in a tick is the number of
 * trace events its LPs received in that tick, `network_sends`/`network_recvs` count its events to and
 * from other PEs, PE records sum their KPs, and `ross.csv` sums everything.
 */
export interface RossRunParameters {
  seed: number;
  /** PEs (MPI ranks). Default 16. */
  pes?: number;
  /** KPs per PE. Default 16. */
  kpsPerPe?: number;
  /** LPs in all (ROSS linear mapping: an equal share per PE). Default 4 per KP. */
  lps?: number;
  /** GVT rounds sampled. Default 100. */
  ticks?: number;
  /** Mean events each KP receives per tick. Default 12. */
  eventsPerKp?: number;
  /** Share of a KP's events that go to LPs on its own PE. Default 0.7. */
  localShare?: number;
  /** Planted behaviour groups, as blocks of consecutive PEs. Default 3. */
  groups?: number;
  /** Tick ranges [start, end) of rollback bursts. Default: 30–45 and 70–80 of 100, scaled to `ticks`. */
  bursts?: { start: number; end: number }[];
  /** Rollbacks multiply by this during bursts. Default 3. */
  burstFactor?: number;
  /** The PE pair whose exchange surges during bursts (null for none). Default [7, 8] (or the last two PEs). */
  surge?: [number, number] | null;
  /** Events each KP of the surging PEs sends to the other PE per tick during bursts. Default 4 × `eventsPerKp`. */
  surgeEvents?: number;
  /** KPs with distinct (4×) remote sends. Default 0. */
  outliers?: number;
  /** A PE whose KPs send 90 % of their events to their own LPs. Default none. */
  selfCommunicationPe?: number;
  /** Also write LP records (`--lp-data=1`). Default false. */
  lpData?: boolean;
  /** Also write the trace (`--event-trace=1`). Default true. */
  eventTrace?: boolean;
  /** Also write a real-time sampling file with the same rounds. Default false. */
  realTime?: boolean;
  /** A CODES dragonfly the run simulates: writes its config (`dragonfly.conf`) and uses its LP count. */
  dragonfly?: DragonflyShape;
  /** File-name prefix of the stats files. Default `synthetic`. */
  prefix?: string;
}

export interface RossRunTruth {
  /** The parameters with defaults filled in. */
  parameters: Required<Omit<RossRunParameters, 'selfCommunicationPe' | 'dragonfly' | 'surge'>> & {
    surge: [number, number] | null;
    selfCommunicationPe: number | null;
  };
  /** Tick indices where a new segment starts (starts and ends of bursts), ascending. */
  changePoints: number[];
  /** Consecutive segments covering all ticks. */
  segments: { start: number; end: number; burst: boolean }[];
  /** Planted group of each PE, and of each KP (global KP number pe·kpsPerPe + kp). */
  peGroup: Int32Array;
  kpGroup: Int32Array;
  /** Global KP numbers with distinct sends. */
  outlierKps: number[];
  /** GVT of each tick (virtual time; tick k covers (gvt[k−1], gvt[k]]). */
  gvt: Float64Array;
  totals: { events: number; rollbacks: number; primaryRollbacks: number; secondaryRollbacks: number };
  files: { gvt: string; rt?: string; evtrace?: string; rossCsv: string; dragonflyConfig?: string };
}

/**
 * A run small enough for the editor's tests whose rollback bursts the live monitor flags as change
 * points (the PDES monitor suite, the monitor system's and Show's tests): 4 PEs × 8 KPs, 50 GVT rounds.
 */
export const MONITOR_TEST_RUN: RossRunParameters = {
  seed: 3,
  pes: 4,
  kpsPerPe: 8,
  ticks: 50,
  eventsPerKp: 8,
  surge: [1, 2],
};

const GVT_STEP = 100;

/** Writes a synthetic run into `dir` (created when missing) and returns what was planted. */
export function generateRossRun(dir: string, params: RossRunParameters): RossRunTruth {
  const pes = params.pes ?? 16;
  const kpsPerPe = params.kpsPerPe ?? 16;
  const kps = pes * kpsPerPe;
  const lps = params.lps ?? (params.dragonfly ? codesLpCount(params.dragonfly) : kps * 4);
  if (lps % pes !== 0) throw new Error(`${lps} LPs do not split evenly over ${pes} PEs (ROSS linear mapping)`);
  const lpsPerPe = lps / pes;
  const perKp = Math.ceil(lpsPerPe / kpsPerPe);
  if (perKp * (kpsPerPe - 1) >= lpsPerPe)
    throw new Error(`${lpsPerPe} LPs per PE leave KPs of ${kpsPerPe} without LPs`);
  const ticks = params.ticks ?? 100;
  const scale = (t: number) => Math.round((t * ticks) / 100);
  const p = {
    seed: params.seed,
    pes,
    kpsPerPe,
    lps,
    ticks,
    eventsPerKp: params.eventsPerKp ?? 12,
    localShare: params.localShare ?? 0.7,
    groups: Math.min(params.groups ?? 3, pes),
    bursts: params.bursts ?? [
      { start: scale(30), end: scale(45) },
      { start: scale(70), end: scale(80) },
    ],
    burstFactor: params.burstFactor ?? 3,
    surge:
      params.surge === undefined ? ([Math.min(7, pes - 2), Math.min(8, pes - 1)] as [number, number]) : params.surge,
    surgeEvents: params.surgeEvents ?? 4 * (params.eventsPerKp ?? 12),
    outliers: params.outliers ?? 0,
    selfCommunicationPe: params.selfCommunicationPe ?? null,
    lpData: params.lpData ?? false,
    eventTrace: params.eventTrace ?? true,
    realTime: params.realTime ?? false,
    prefix: params.prefix ?? 'synthetic',
  };
  const rand = seededRandom(p.seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const pick = (n: number) => Math.min(n - 1, Math.floor(rand() * n));
  const count = (mean: number) => Math.max(0, Math.round(mean * (1 + 0.2 * gauss())));

  // Planted structure.
  const peGroup = Int32Array.from({ length: pes }, (_, pe) => Math.floor((pe * p.groups) / pes));
  const kpGroup = Int32Array.from({ length: kps }, (_, k) => peGroup[Math.floor(k / kpsPerPe)]!);
  const inBurst = new Uint8Array(ticks);
  for (const b of p.bursts) inBurst.fill(1, Math.max(0, b.start), Math.min(ticks, b.end));
  const candidates = Array.from({ length: kps }, (_, k) => k).filter(k => {
    const pe = Math.floor(k / kpsPerPe);
    return !(p.surge && p.surge.includes(pe)) && pe !== p.selfCommunicationPe;
  });
  const outlierKps: number[] = [];
  while (outlierKps.length < Math.min(p.outliers, candidates.length))
    outlierKps.push(candidates.splice(pick(candidates.length), 1)[0]!);
  outlierKps.sort((a, b) => a - b);
  const isOutlier = new Uint8Array(kps);
  for (const k of outlierKps) isOutlier[k] = 1;

  // LP placement (ROSS map_linear): consecutive LPs per PE, ceil(n / nkp) consecutive LPs per KP.
  const kpFirstLp = (k: number) => Math.floor(k / kpsPerPe) * lpsPerPe + (k % kpsPerPe) * perKp;
  const kpLpCount = (k: number) => Math.min(perKp, lpsPerPe - (k % kpsPerPe) * perKp);
  const randomLpOf = (k: number) => kpFirstLp(k) + pick(kpLpCount(k));

  const trace = new RossRecordWriter();
  const gvtFile = new RossRecordWriter();
  const rtFile = new RossRecordWriter();
  const gvt = Float64Array.from({ length: ticks }, (_, t) => (t + 1) * GVT_STEP);
  const totals = { events: 0, rollbacks: 0, primaryRollbacks: 0, secondaryRollbacks: 0, rolledBack: 0 };
  // Per tick: received, sent remote, received remote per KP; received per LP.
  const received = new Float64Array(kps);
  const sentRemote = new Float64Array(kps);
  const recvRemote = new Float64Array(kps);
  const lpReceived = new Float64Array(p.lpData ? lps : 0);
  const lpSent = new Float64Array(p.lpData ? lps : 0);
  const kpValues = new Float64Array(KP_METRICS.length);
  const peValues = new Float64Array(PE_METRICS.length);
  const lpValues = new Float64Array(LP_METRICS.length);
  const peSums = new Float64Array(PE_METRICS.length);

  const sendEvent = (srcKp: number, dstKp: number, t: number) => {
    const src = randomLpOf(srcKp);
    const dst = randomLpOf(dstKp);
    received[dstKp]!++;
    if (Math.floor(srcKp / kpsPerPe) !== Math.floor(dstKp / kpsPerPe)) {
      sentRemote[srcKp]!++;
      recvRemote[dstKp]!++;
    }
    if (p.lpData) {
      lpReceived[dst]!++;
      lpSent[src]!++;
    }
    totals.events++;
    if (p.eventTrace) {
      const recv = gvt[t]! - GVT_STEP * (0.01 + 0.98 * rand()); // clear of the float32 rounding at the GVTs
      trace.event(src, dst, recv - 1 - rand(), recv, realTimeOf(t, rand()));
    }
  };

  for (let t = 0; t < ticks; t++) {
    received.fill(0);
    sentRemote.fill(0);
    recvRemote.fill(0);
    lpReceived.fill(0);
    lpSent.fill(0);
    const burst = inBurst[t] === 1;
    for (let k = 0; k < kps; k++) {
      const pe = Math.floor(k / kpsPerPe);
      const n = count(p.eventsPerKp);
      for (let e = 0; e < n; e++) {
        let dstKp: number;
        const self = pe === p.selfCommunicationPe && rand() < 0.9;
        if (self) dstKp = k;
        else if (rand() < p.localShare || pes === 1) dstKp = pe * kpsPerPe + pick(kpsPerPe);
        else {
          const other = (pe + 1 + pick(pes - 1)) % pes;
          dstKp = other * kpsPerPe + pick(kpsPerPe);
        }
        sendEvent(k, dstKp, t);
      }
      // Outliers send many more events to other PEs.
      if (isOutlier[k])
        for (let e = count(3 * p.eventsPerKp); e > 0; e--) {
          const other = (pe + 1 + pick(pes - 1)) % pes;
          sendEvent(k, other * kpsPerPe + pick(kpsPerPe), t);
        }
      // The planted surge between two PEs, in both directions, during bursts.
      if (burst && p.surge && p.surge.includes(pe)) {
        const partner = p.surge[0] === pe ? p.surge[1] : p.surge[0];
        for (let e = count(p.surgeEvents); e > 0; e--) sendEvent(k, partner * kpsPerPe + pick(kpsPerPe), t);
      }
    }
    // Records of this GVT round.
    for (let pe = 0; pe < pes; pe++) {
      peSums.fill(0);
      const kpRecords: Float64Array[] = [];
      for (let local = 0; local < kpsPerPe; local++) {
        const k = pe * kpsPerPe + local;
        const g = kpGroup[k]!;
        const level = rollbackLevel(g, t, ticks) * (p.eventsPerKp / 12) * (burst ? p.burstFactor : 1);
        const secondary = count(level);
        const primary = count(0.6 * level);
        const processed = received[k]!;
        // A rollback undoes at least one event, possibly processed in earlier rounds.
        const rolledBack = Math.round((primary + secondary) * (1.5 + rand()));
        kpValues.fill(0);
        kpValues[0] = processed;
        kpValues[2] = rolledBack;
        kpValues[3] = primary + secondary;
        kpValues[4] = secondary;
        kpValues[5] = sentRemote[k]!;
        kpValues[6] = recvRemote[k]!;
        kpValues[7] = (g + 1) * 20 * (1 + 0.1 * gauss()); // time ahead of GVT
        kpValues[8] = efficiency(processed, rolledBack);
        kpRecords.push(kpValues.slice());
        for (const [from, to] of [
          [0, 0],
          [2, 2],
          [3, 3],
          [4, 4],
          [5, 7],
          [6, 8],
        ] as const)
          peSums[to]! += kpValues[from]!;
        totals.rollbacks += primary + secondary;
        totals.secondaryRollbacks += secondary;
        totals.primaryRollbacks += primary;
        totals.rolledBack += rolledBack;
      }
      peValues.set(peSums);
      peValues[5] = 1; // fossil-collection attempts
      peValues[6] = Math.round(peSums[0]! * 0.5); // priority-queue size
      peValues[9] = 1; // GVT computations
      peValues[12] = efficiency(peSums[0]!, peSums[2]!);
      peValues[17] = peSums[0]! * 2e-6; // event processing time (s)
      peValues[20] = peSums[2]! * 1e-6; // rollback time (s)
      const rt = realTimeOf(t, 0.5 + 0.01 * pe);
      for (const f of p.realTime ? [gvtFile, rtFile] : [gvtFile]) {
        const real = f === rtFile ? rt + 0.001 * pe : rt;
        f.engine(0, { pe, kp: -1, lp: -1 }, gvt[t]!, real, peValues);
        kpRecords.forEach((v, local) => f.engine(1, { pe, kp: local, lp: -1 }, gvt[t]!, real, v));
        if (p.lpData)
          for (let lp = pe * lpsPerPe; lp < (pe + 1) * lpsPerPe; lp++) {
            lpValues.fill(0);
            lpValues[0] = lpReceived[lp]!;
            lpValues[3] = lpSent[lp]!;
            lpValues[5] = lpReceived[lp]! * 2000;
            lpValues[6] = 100;
            const local = lp - pe * lpsPerPe;
            f.engine(2, { pe, kp: Math.floor(local / perKp), lp }, gvt[t]!, real, lpValues);
          }
      }
    }
  }

  // Files.
  const statsDir = join(dir, 'stats');
  mkdirSync(statsDir, { recursive: true });
  mkdirSync(join(dir, 'ross_all_lp_stats'), { recursive: true });
  const files: RossRunTruth['files'] = {
    gvt: join(statsDir, `${p.prefix}-gvt.bin`),
    rossCsv: join(dir, 'ross.csv'),
  };
  writeFileSync(files.gvt, gvtFile.bytes());
  if (p.realTime) writeFileSync((files.rt = join(statsDir, `${p.prefix}-rt.bin`)), rtFile.bytes());
  if (p.eventTrace) writeFileSync((files.evtrace = join(statsDir, `${p.prefix}-evtrace.bin`)), trace.bytes());
  for (let pe = 0; pe < pes; pe++) {
    const lines = ['Time spent processing events for each LP:'];
    for (let lp = pe * lpsPerPe; lp < (pe + 1) * lpsPerPe; lp++)
      lines.push(`LPID: ${lp}\t-  Processing time: 1.000000e-03\t-  Events processed: 0`);
    writeFileSync(join(dir, 'ross_all_lp_stats', `pe_${pe}.txt`), lines.join('\n') + '\n');
  }
  writeFileSync(
    files.rossCsv,
    'total_pe,total_kp,total_lp,end_ts,mapping,events_processed,events_rb,eff,rb_total,rb_primary,rb_secondary\n' +
      [
        pes,
        kps,
        lps,
        gvt[ticks - 1]!.toFixed(2),
        'linear',
        totals.events,
        totals.rolledBack,
        efficiency(totals.events, totals.rolledBack).toFixed(2),
        totals.rollbacks,
        totals.primaryRollbacks,
        totals.secondaryRollbacks,
      ].join(',') +
      '\n',
  );
  writeFileSync(
    join(dir, 'command.txt'),
    `mpirun -np ${pes} synthetic-ross --synch=3 --engine-stats=${p.realTime ? 4 : 1} --pe-data=1 --kp-data=1 ` +
      `--lp-data=${p.lpData ? 1 : 0} --event-trace=${p.eventTrace ? 1 : 0} --stats-prefix=${p.prefix} ` +
      `--seed=${p.seed}\n`,
  );
  if (params.dragonfly)
    writeFileSync((files.dragonflyConfig = join(dir, 'dragonfly.conf')), codesDragonflyConfigText(params.dragonfly));

  const changePoints = [...new Set(p.bursts.flatMap(b => [b.start, b.end]))]
    .filter(t => t > 0 && t < ticks)
    .sort((a, b) => a - b);
  const bounds = [0, ...changePoints, ticks];
  const segments = bounds.slice(0, -1).map((start, i) => ({ start, end: bounds[i + 1]!, burst: inBurst[start] === 1 }));
  const { rolledBack: _rolledBack, ...sums } = totals;
  return {
    parameters: p,
    changePoints,
    segments,
    peGroup,
    kpGroup,
    outlierKps,
    gvt,
    totals: sums,
    files,
  };
}

/** Mean secondary rollbacks per KP and tick (at 12 events per KP) of a planted group: flat, rising, oscillating (then repeating). */
function rollbackLevel(group: number, t: number, ticks: number): number {
  switch (group % 3) {
    case 0:
      return 2;
    case 1:
      return 4 + (6 * t) / Math.max(1, ticks - 1);
    default:
      return 12 + 4 * Math.sin((2 * Math.PI * t) / 12);
  }
}

/** ROSS's efficiency: 100 · (1 − rolled back / net events), net = processed − rolled back. */
function efficiency(processed: number, rolledBack: number): number {
  const net = processed - rolledBack;
  return net > 0 ? 100 * (1 - rolledBack / net) : 0;
}

/** Wall-clock seconds of tick t (50 ms per GVT round), `frac` of the way through it. */
function realTimeOf(t: number, frac: number): number {
  return 1 + 0.05 * (t + frac);
}

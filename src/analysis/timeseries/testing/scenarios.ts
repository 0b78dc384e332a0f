import {
  alltoall,
  barrier,
  bcast,
  call,
  leaf,
  loop,
  recv,
  send,
  sendrecvRing,
  syntheticTrace,
  when,
  type Stmt,
  type SyntheticOptions,
  type SyntheticTrace,
} from './synthetic-program';

/**
 * The synthetic scenarios of the seed 001 digest (§6.2), each a program with planted ground truth.
 * Durations in ms, V = 1 ms, jitter 0.1 and exact LCAs unless stated. Letters follow the digest.
 */
type Options = Partial<SyntheticOptions>;

const run = (program: Stmt[], ranks: number, o: Options = {}): SyntheticTrace =>
  syntheticTrace(program, { ranks, seed: 1, ...o });

/** B: 23 iterations (Table 4 row 1): 4 ranks, each iteration compute 40, exchange 10, a barrier. */
export function regularLoop(o: Options = {}): SyntheticTrace {
  return run(
    [
      leaf('init', 10, 100),
      loop(20, 23, leaf('compute', 21, 40), leaf('exchange', 22, 10), barrier(23)),
      leaf('finalize', 30, 50),
    ],
    4,
    o,
  );
}

/** C: one inner loop reached from two call sites (Table 4 rows 2–3). */
export function innerLoopTwoContexts(o: Options = {}): SyntheticTrace {
  const writeViz = (line: number) => call('write_viz', line, loop(31, 3, alltoall(32, 5), leaf('pack', 33, 20)));
  return run([leaf('setup', 35, 30), writeViz(40), leaf('solve', 50, 60), writeViz(60)], 4, o);
}

/** D: 9 shrinking iterations, the last shorter than 2V (Table 7 S1): 8 accepted, 1 rejected. */
export const SHRINKING = [160, 120, 90, 68, 51, 38, 29, 22, 1.5];
export function shrinkingLoop(o: Options = {}): SyntheticTrace {
  const d = (c: { iter: number }) => SHRINKING[c.iter]!;
  return run(
    [
      loop(
        20,
        9,
        leaf('coarsen', 21, c => 0.8 * d(c)),
        leaf('smooth', 22, c => 0.2 * d(c)),
      ),
      leaf('finalize', 30, 20),
    ],
    2,
    o,
  );
}

/** D': 11 iterations of 30 V (Table 7 S2): 11 accepted. */
export function constantLoop(o: Options = {}): SyntheticTrace {
  return run([loop(20, 11, leaf('relax', 21, 20), leaf('residual', 22, 10))], 2, o);
}

/** E: 2000 iterations of 0.3 V: the loop becomes a profile node of ≈ 600 V. */
export function shortIterations(o: Options = {}): SyntheticTrace {
  return run(
    [leaf('setup', 10, 50), loop(20, 2000, leaf('f', 21, 0.2), leaf('g', 22, 0.1)), leaf('done', 30, 50)],
    2,
    o,
  );
}

/** F: planted load imbalance (PFLOTRAN S2 analogue): ranks 8–15 compute 150 instead of 100. */
export function plantedImbalance(o: Options = {}): SyntheticTrace {
  return run(
    [
      leaf('init', 10, 200),
      loop(
        20,
        10,
        leaf('compute', 21, c => (c.rank >= 8 && c.rank <= 15 ? 150 : 100)),
        barrier(22, 0.5),
      ),
      leaf('finalize', 30, 50),
    ],
    64,
    o,
  );
}

/** G: offsetting imbalance (PFLOTRAN S1 analogue): odd ranks f +200, g −180. */
export function offsettingImbalance(o: Options = {}): SyntheticTrace {
  return run(
    [
      call(
        'phase',
        10,
        leaf('f', 11, c => 1000 + (c.rank % 2 ? 200 : 0)),
        leaf('g', 12, c => 1000 - (c.rank % 2 ? 180 : 0)),
      ),
      barrier(13),
    ],
    32,
    o,
  );
}

/** H: balanced waiting: every rank waits 300 in a ring exchange and 20 in a barrier. */
export function balancedWaiting(o: Options = {}): SyntheticTrace {
  return run([leaf('compute', 10, 1000), sendrecvRing(11, 300), barrier(12, 20)], 32, o);
}

/** Rank 0 writes its part, then receives each other rank's and writes it; the others wait in MPI_Send. */
function serialisedWrite(): Stmt {
  return call(
    'io',
    20,
    when(
      c => c.rank === 0,
      [
        leaf('write_own', 21, 20),
        loop(
          22,
          15,
          recv(23, c => c.iter + 1, 1),
          leaf('write_chunk', 24, 10),
        ),
      ],
      [send(26, () => 0, 1)],
    ),
  );
}

/**
 * I: serialisation (PFLOTRAN S2–S6 analogue): rank 0 writes its part, then receives and writes the
 * others' one by one; ranks ≥ 1 wait in MPI_Send until rank 0 takes their data.
 */
export function serialisation(o: Options = {}): SyntheticTrace {
  return run([leaf('compute', 10, 100), serialisedWrite(), barrier(30)], 16, o);
}

/** I': a group alltoall among {0, 4, 8, 12} before the I/O and a wait-class broadcast from rank 0 after it. */
export function serialisationWithGroups(o: Options = {}): SyntheticTrace {
  const group = (rank: number) => (rank % 4 === 0 ? [0, 4, 8, 12] : [rank]);
  return run(
    [leaf('compute', 10, 100), alltoall(15, 1, group), serialisedWrite(), bcast(28, 0, 1), barrier(30)],
    16,
    o,
  );
}

/** J: three groups of ranks (32 × 100, 16 × 150, 16 × 200), contiguous or interleaved (rank mod 4). */
export function threeGroups(layout: 'contiguous' | 'interleaved', o: Options = {}): SyntheticTrace {
  return run([leaf('compute', 10, c => GROUP_TIME[groupOf(c.rank, layout)]!), barrier(11)], 64, o);
}
const GROUP_TIME = [100, 150, 200];
export function groupOf(rank: number, layout: 'contiguous' | 'interleaved'): number {
  if (layout === 'contiguous') return rank < 32 ? 0 : rank < 48 ? 1 : 2;
  const m = rank % 4;
  return m <= 1 ? 0 : m === 2 ? 1 : 2;
}

/** J, negative control: 8 groups of 8 ranks (compute 100 + 25·g), more groups than K = 6. */
export function eightGroups(o: Options = {}): SyntheticTrace {
  return run([leaf('compute', 10, c => 100 + 25 * Math.floor(c.rank / 8)), barrier(11)], 64, o);
}

/** K: a phase change: from iteration 11 on, ranks 0–3 compute 160 instead of 100. */
export function phaseChange(o: Options = {}): SyntheticTrace {
  return run(
    [
      loop(
        20,
        20,
        leaf('compute', 21, c => (c.iter >= 10 && c.rank < 4 ? 160 : 100)),
        barrier(22),
      ),
    ],
    16,
    o,
  );
}

/** L: two ranks, identical: 20 calls of 10 V each, with different phases of the first sample. */
export function samplingTolerance(o: Options = {}): SyntheticTrace {
  const body = Array.from({ length: 20 }, (_, i) => leaf(`step${i + 1}`, 10 + i, 10));
  return run(body, 2, { phase: r => (r === 0 ? 0.1 : 0.7), ...o });
}

/** M: the identity of Fig. 9: X = 2, 4, 9 s, then barrier Y, then a balanced 1 s barrier Z. */
export function figureNine(o: Options = {}): SyntheticTrace {
  return run([leaf('X', 10, c => [2000, 4000, 9000][c.rank]!), barrier(11), barrier(12, 1000)], 3, {
    period: 10,
    ...o,
  });
}

/** P (scaled down): a sampled run with a long main loop, for size tests. */
export function mainLoop(ranks: number, iterations: number, o: Options = {}): SyntheticTrace {
  return run(
    [
      leaf('init', 10, 20),
      loop(
        20,
        iterations,
        call(
          'timestep',
          21,
          leaf('stencil', 30, c => 6 + (c.rank % 3)),
          leaf('halo', 31, 2),
        ),
        barrier(22),
      ),
    ],
    ranks,
    o,
  );
}

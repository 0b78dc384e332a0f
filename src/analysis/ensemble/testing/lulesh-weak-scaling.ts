import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LULESH_MODULES } from '../../graph/test-fixtures/synthetic-runs';
import { seededRandom } from '../../stats/seeded-random';

/**
 * The LULESH weak-scaling ensemble of the CallFlow paper (thesis §4.5.2, paper §5.2; seed-callflow
 * §5.2, §6.4), synthesised: 8 runs at 1, 8, 27, 64, 125, 216, 343 and 512 MPI ranks, 33 calling
 * contexts in 6 modules of the full LULESH module map (TimeIncrement is `static inline` in LULESH
 * 2.0, so the Timer module has no call site and its MPI_Allreduce sits under `lulesh.cycle`).
 *
 * Per module, the exclusive time (mean over ranks, µs) follows a weak-scaling trend — compute
 * nearly flat, rising slowly; MPI rising with the rank count — with the paper's numbers: CalcForce
 * 1.31×10⁷ at 27 and 1.39×10⁷ at 64 ranks. Two runs are out of order, as the paper's text guides
 * showed: MPI at 64 ranks (less time in MPI_Allreduce than at 27) and CalcForce at 216 ranks (less
 * time in CalcHourglassControlForElems than at 125). So the diff 64 − 27 has CalcForce and
 * CalcLagrange slower and MPI faster, and 216 − 125 the reverse. Per rank, each value is spread
 * by a seeded imbalance whose mean over the run's ranks is zero: a run's mean is the planted value.
 */

export const LULESH_RANKS = [1, 8, 27, 64, 125, 216, 343, 512] as const;

/** A call site of the fixture: name, caller (index, -1 for the root) and source line in `lulesh.cc`. */
interface Site {
  name: string;
  parent: number;
  /** Exclusive time (mean over ranks, µs) at each rank count of {@link LULESH_RANKS}. */
  values: number[];
}

const at = (series: readonly number[], share: number) => series.map(v => v * share);

/** CalcForce's smooth trend (µs); the 216-rank run falls below it (see {@link LULESH_CALCFORCE}). */
const CALCFORCE_TREND = [1.22e7, 1.27e7, 1.31e7, 1.39e7, 1.45e7, 1.475e7, 1.5e7, 1.53e7];
/** How much less CalcHourglassControlForElems takes at 216 ranks than the trend: the out-of-order run. */
const CALCFORCE_DIP_216 = 1.95e6;
/** CalcLagrange (less IntegrateStressForElems): rising, with a small (< 10 %, i.e. noise-sized) dip at 216. */
const CALCLAGRANGE_TREND = [0.95e7, 1.0e7, 1.03e7, 1.1e7, 1.14e7, 1.05e7, 1.16e7, 1.18e7];
const INTEGRATE_STRESS = 5e4;
/** MPI's trend; the 64-rank run spends less in MPI_Allreduce than the trend: the out-of-order run. */
const MPI_TREND = [2e5, 1.5e6, 2.4e6, 2.7e6, 2.9e6, 4.4e6, 4.7e6, 5.0e6];
const MPI_DIP_64 = 7e5;
const CONSTRAINT_TREND = [5.6e5, 5.7e5, 5.8e5, 5.9e5, 6e5, 6.1e5, 6.2e5, 6.3e5];

/** The planted module totals (exclusive, mean over ranks, µs) per rank count, for the tests. */
export const LULESH_CALCFORCE = CALCFORCE_TREND.map((v, l) => (LULESH_RANKS[l] === 216 ? v - CALCFORCE_DIP_216 : v));
export const LULESH_CALCLAGRANGE = CALCLAGRANGE_TREND.map(v => v + INTEGRATE_STRESS);
export const LULESH_MPI = MPI_TREND.map((v, l) => (LULESH_RANKS[l] === 64 ? v - MPI_DIP_64 : v));

function sites(): Site[] {
  const out: Site[] = [];
  const add = (name: string, parent: number, values: number[]): number => {
    out.push({ name, parent, values });
    return out.length - 1;
  };
  const flat = (v: number) => LULESH_RANKS.map(() => v);
  const rising = (v: number, perLevel: number) => LULESH_RANKS.map((_, l) => v * (1 + perLevel * l));
  const main = add('main', -1, flat(2e4));
  const cycle = add('lulesh.cycle', main, rising(3e4, 0.01));
  // TimeIncrement (inlined): the global dt reduction. It carries MPI's out-of-order run.
  add(
    'MPI_Allreduce',
    cycle,
    at(MPI_TREND, 0.4).map((v, l) => (LULESH_RANKS[l] === 64 ? v - MPI_DIP_64 : v)),
  );
  const leap = add('LagrangeLeapFrog', cycle, rising(4e4, 0.01));
  const nodal = add('LagrangeNodal', leap, rising(6e4, 0.01));
  // Halo exchange of the nodal forces.
  add('MPI_Irecv', nodal, at(MPI_TREND, 0.1));
  const force = add('CalcForceForNodes', nodal, at(CALCFORCE_TREND, 0.05));
  add('MPI_Isend', nodal, at(MPI_TREND, 0.1));
  add('MPI_Wait', nodal, at(MPI_TREND, 0.15));
  const volume = add('CalcVolumeForceForElems', force, at(CALCFORCE_TREND, 0.15));
  add('IntegrateStressForElems', volume, flat(INTEGRATE_STRESS));
  const hourglass = add(
    'CalcHourglassControlForElems',
    volume,
    at(CALCFORCE_TREND, 0.3).map((v, l) => (LULESH_RANKS[l] === 216 ? v - CALCFORCE_DIP_216 : v)),
  );
  add('CalcFBHourglassForceForElems', hourglass, at(CALCFORCE_TREND, 0.5));
  const lagrange: [string, number, number][] = [
    // name, caller (offset in this list, -1 = LagrangeLeapFrog), share of CalcLagrange
    ['LagrangeElements', -1, 0.02],
    ['CalcLagrangeElements', 0, 0.06],
    ['CalcKinematicsForElems', 1, 0.14],
    ['CalcQForElems', 0, 0.04],
    ['CalcMonotonicQGradientsForElems', 3, 0.12],
    ['CalcMonotonicQRegionForElems', 3, 0.1],
    ['ApplyMaterialPropertiesForElems', 0, 0.05],
    ['EvalEOSForElems', 6, 0.08],
    ['CalcEnergyForElems', 7, 0.16],
    ['CalcPressureForElems', 8, 0.06],
    ['CalcSoundSpeedForElems', 7, 0.08],
    ['UpdateVolumesForElems', 0, 0.06],
  ];
  const ids: number[] = [];
  for (const [name, caller, share] of lagrange)
    ids.push(add(name, caller < 0 ? leap : ids[caller]!, at(CALCLAGRANGE_TREND, share)));
  // A second calling context of CalcPressureForElems (under EvalEOSForElems as well as under
  // CalcEnergyForElems): the 33rd call site, of a function already in the tree (32 functions).
  add('CalcPressureForElems', ids[7]!, at(CALCLAGRANGE_TREND, 0.03));
  const constraints = add('CalcTimeConstraintsForElems', leap, at(CONSTRAINT_TREND, 0.1));
  add('CalcCourantConstraintForElems', constraints, at(CONSTRAINT_TREND, 0.5));
  add('CalcHydroConstraintForElems', constraints, at(CONSTRAINT_TREND, 0.4));
  add('MPI_Waitall', leap, at(MPI_TREND, 0.15));
  add('MPI_Reduce', main, at(MPI_TREND, 0.03));
  add('MPI_Barrier', main, at(MPI_TREND, 0.04));
  add('MPI_Finalize', main, at(MPI_TREND, 0.03));
  return out;
}

/**
 * A stand-in `lulesh.cc`: one definition per function of the fixture, in LULESH 2.0's order, so
 * CodeLens and hovers have a source to sit on. The profile's source locations point at these lines.
 */
export function luleshSource(): { text: string; lines: Map<string, number> } {
  const names = [
    ...LULESH_MODULES.CalcConstraint!,
    ...LULESH_MODULES.CalcForce!,
    ...LULESH_MODULES.CalcLagrange!,
    ...LULESH_MODULES.LeapFrog!,
    'main',
  ];
  const lines = new Map<string, number>();
  const text: string[] = ['// Stand-in for LULESH 2.0 lulesh.cc (HPC Lens test fixture).', '#include "lulesh.h"', ''];
  for (const name of new Set(names)) {
    lines.set(name, text.length + 1);
    text.push(
      name === 'main' ? 'int main(int argc, char *argv[])' : `static void ${name}(Domain &domain)`,
      '{',
      '  /* … */',
      '}',
      '',
    );
  }
  return { text: text.join('\n'), lines };
}

export interface LuleshWeakScaling {
  /** Relative paths of the runs written: `<ranks>_cores.json`. */
  files: string[];
  /** Calling contexts per run (33). */
  contexts: number;
}

/**
 * Writes the ensemble as Caliper json-split files (`<ranks>_cores.json`, the shared study's naming,
 * so the runs get the parameter `cores`), every rank's values, Adiak-like metadata
 * (`mpi.world.size`, `cluster`, `launchdate`), time in µs, and each function's line in `lulesh.cc`
 * (a `sourceloc#cali.sampler.pc` column). Deterministic for a seed.
 */
export function writeLuleshWeakScaling(folder: string, seed = 17): LuleshWeakScaling {
  const rand = seededRandom(seed);
  const tree = sites();
  const { lines } = luleshSource();
  mkdirSync(folder, { recursive: true });
  const files: string[] = [];
  LULESH_RANKS.forEach((ranks, l) => {
    // Per-rank imbalance of ±8 %, centred so the mean over the ranks is exactly the planted value.
    const raw = Array.from({ length: ranks }, () => 0.16 * (rand() - 0.5));
    const mean = raw.reduce((a, b) => a + b, 0) / ranks;
    const imbalance = raw.map(v => v - mean);
    const nodes: string[] = tree.map(
      s => `{"label":${JSON.stringify(s.name)},"column":"path"${s.parent >= 0 ? `,"parent":${s.parent}` : ''}}`,
    );
    // Source locations are nodes of their own column (json-split keeps every label in "nodes").
    const locationNode = tree.map(s => {
      const line = lines.get(s.name);
      if (line === undefined) return -1;
      nodes.push(`{"label":"lulesh.cc:${line}","column":"sourceloc#cali.sampler.pc"}`);
      return nodes.length - 1;
    });
    const rows: string[] = [];
    tree.forEach((s, i) => {
      for (let k = 0; k < ranks; k++)
        rows.push(
          `[${(s.values[l]! * (1 + imbalance[k]!)).toPrecision(12)},${k},${i},${locationNode[i]! >= 0 ? locationNode[i] : 'null'}]`,
        );
    });
    const file = `${ranks}_cores.json`;
    writeFileSync(
      join(folder, file),
      `{"data":[${rows.join(',')}],` +
        '"columns":["sum#time.duration","mpi.rank","path","sourceloc#cali.sampler.pc"],' +
        '"column_metadata":[{"is_value":true,"attribute.unit":"usec"},{"is_value":true},{"is_value":false},{"is_value":false}],' +
        `"nodes":[${nodes.join(',')}],` +
        `"mpi.world.size":${ranks},"cluster":"quartz","executable":"lulesh2.0","launchdate":${1_600_000_000 + l * 3600}}\n`,
    );
    files.push(file);
  });
  return { files, contexts: tree.length };
}

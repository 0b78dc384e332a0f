/**
 * Synthetic per-rank profiles for the CallFlow acceptance tests (seed-callflow §6): shapes taken
 * from the thesis case studies, with planted effects the tests must find.
 */
import { NodeKind } from '../../model/call-tree';
import type { Profile } from '../../model/profile';
import { ProfileBuilder } from '../../model/profile-builder';
import { seededRandom } from '../../stats/seeded-random';
import type { ModuleRule } from '../module-map';
import { MAX_RAW_CONTEXT_VALUES } from '../../../shared/callflow-protocol';

/** A call-tree node of a fixture: exclusive value per rank, and children. */
export interface FixtureNode {
  name: string;
  module?: string;
  file?: string;
  line?: number;
  kind?: NodeKind;
  exclusive: (rank: number) => number;
  children?: FixtureNode[];
}

export function profileFromFixture(roots: FixtureNode[], ranks: number, format = 'test-fixture'): Profile {
  const b = new ProfileBuilder(format, `<${format}>`);
  const ctx = Array.from({ length: ranks }, (_, r) => b.context({ rank: r }));
  const m = b.addMetric({
    name: 'time',
    label: 'time',
    sourceKeys: ['time'],
    unit: 's',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  const add = (parent: number, f: FixtureNode) => {
    const id = b.tree.add(parent, f.name, f.kind ?? NodeKind.Function, {
      module: f.module ?? null,
      file: f.file ?? null,
      line: f.line ?? null,
    });
    for (let r = 0; r < ranks; r++) b.addExclusive(m, id, ctx[r]!, f.exclusive(r));
    for (const c of f.children ?? []) add(id, c);
  };
  for (const r of roots) add(-1, r);
  return b.build(m);
}

const fn = (
  name: string,
  exclusive: (r: number) => number,
  children: FixtureNode[] = [],
  extra: Partial<FixtureNode> = {},
): FixtureNode => ({ name, exclusive, children, ...extra });

/**
 * CallFlow's LULESH module map, complete (seed §1.7, from the sample `callflow.config.json`): every
 * call site by name, so a LULESH function the map names never falls back to a supernode of its own.
 */
export const LULESH_MODULES: Readonly<Record<string, readonly string[]>> = {
  Lulesh: ['main', 'lulesh.cycle'],
  LeapFrog: ['LagrangeNodal', 'LagrangeLeapFrog'],
  CalcForce: [
    'CalcForceForNodes',
    'CalcVolumeForceForElems',
    'CalcHourglassControlForElems',
    'CalcFBHourglassForceForElems',
  ],
  CalcLagrange: [
    'LagrangeElements',
    'UpdateVolumesForElems',
    'CalcLagrangeElements',
    'CalcKinematicsForElems',
    'CalcQForElems',
    'CalcMonotonicQGradientsForElems',
    'CalcMonotonicQRegionForElems',
    'ApplyMaterialPropertiesForElems',
    'EvalEOSForElems',
    'CalcEnergyForElems',
    'CalcPressureForElems',
    'CalcSoundSpeedForElems',
    'IntegrateStressForElems',
  ],
  Timer: ['TimeIncrement'],
  CalcConstraint: ['CalcTimeConstraintsForElems', 'CalcCourantConstraintForElems', 'CalcHydroConstraintForElems'],
  NA: ['Unknown'],
  MPI: [
    'MPI_Barrier',
    'MPI_Reduce',
    'MPI_Allreduce',
    'MPI_Irecv',
    'MPI_Isend',
    'MPI_Wait',
    'MPI_Waitall',
    'MPI_Finalize',
  ],
};

/** {@link LULESH_MODULES} as ordered rules: one exact-name rule per call site (CallFlow's `{module: [names]}` form). */
export const LULESH_MODULE_MAP: ModuleRule[] = Object.entries(LULESH_MODULES).flatMap(([module, names]) =>
  names.map(pattern => ({ match: 'name' as const, pattern, module })),
);

/**
 * LULESH-like, 16 ranks, names only (the module map gives the modules): CalcForce is 3× slower on
 * ranks 0–3 (planted imbalance), and ranks that finish their force work early wait longer in
 * MPI_Allreduce (as in the AMPI study). TimeIncrement is balanced (±1 % noise). MPI is called from
 * three modules.
 */
export function luleshLike(ranks = 16): Profile {
  const rnd = seededRandom(7);
  const noise = Array.from({ length: ranks }, () => 1 + (rnd() - 0.5) * 0.02);
  const heavy = (r: number) => (r < ranks / 4 ? 3 : 1);
  const force = (r: number) => 2 * heavy(r) * noise[r]!;
  const wait = (r: number) => 6.5 - force(r);
  return profileFromFixture(
    [
      fn('main', () => 0.1, [
        fn('lulesh.cycle', () => 0.1, [
          fn('TimeIncrement', r => 0.5 * noise[r]!, [fn('MPI_Allreduce', () => 0.05)]),
          fn('LagrangeLeapFrog', () => 0.2, [
            fn('LagrangeNodal', () => 0.2, [
              fn('CalcForceForNodes', r => 0.1 * heavy(r), [
                fn('CalcVolumeForceForElems', r => 0.4 * force(r), [
                  fn('CalcHourglassControlForElems', r => 0.3 * force(r), [
                    fn('CalcFBHourglassForceForElems', r => 0.3 * force(r)),
                  ]),
                ]),
                fn('MPI_Isend', () => 0.2),
                fn('MPI_Wait', r => 0.6 * wait(r)),
              ]),
            ]),
            fn('LagrangeElements', () => 0.3, [
              fn('CalcLagrangeElements', () => 0.8, [fn('CalcKinematicsForElems', () => 1.2)]),
              fn('CalcQForElems', () => 0.9, [fn('MPI_Waitall', r => 0.4 * wait(r))]),
              fn('ApplyMaterialPropertiesForElems', () => 0.4, [
                fn('EvalEOSForElems', () => 0.5, [fn('CalcEnergyForElems', () => 1.5)]),
              ]),
            ]),
            fn('CalcTimeConstraintsForElems', () => 0.1, [
              fn('CalcCourantConstraintForElems', () => 0.3),
              fn('CalcHydroConstraintForElems', () => 0.2),
            ]),
          ]),
        ]),
        fn('MPI_Finalize', () => 0.05),
      ]),
    ],
    ranks,
    'lulesh-like',
  );
}

/**
 * Miranda-like, 64 ranks, HPCToolkit-style load modules: physics (miranda) calls Hypre (two
 * components, struct_mv and utilities) and libpsm directly; most libpsm time comes from Hypre. libpsm
 * time decreases with rank (lower ranks wait longer: the systematic bias the shadow lines showed).
 */
export function mirandaLike(ranks = 64): Profile {
  const psm = (r: number) => 1 + 2 * (1 - r / (ranks - 1)); // 3 on rank 0 → 1 on the last rank
  const M = 'miranda',
    H = '/usr/lib/libHYPRE.so',
    P = '/usr/lib/libpsm_infinipath.so.1',
    L = '/lib/libc.so.6';
  return profileFromFixture(
    [
      fn(
        'main',
        () => 0.2,
        [
          fn(
            'advance',
            () => 1,
            [
              fn('physics_rhs', () => 6, [fn('memcpy', () => 0.4, [], { module: L })], {
                module: M,
                file: 'physics.f90',
                line: 120,
              }),
              fn(
                'HYPRE_StructPCGSolve',
                () => 0.5,
                [
                  fn(
                    'hypre_StructMatvec',
                    () => 3,
                    [
                      fn('psm_mq_isend', r => 2 * psm(r), [], { module: P }),
                      fn('psm_mq_irecv', r => 1.5 * psm(r), [], { module: P }),
                    ],
                    { module: H, file: 'struct_mv/struct_matvec.c', line: 42 },
                  ),
                  fn(
                    'hypre_InitializeCommunication',
                    () => 0.5,
                    [fn('psm_mq_wait', r => 1.5 * psm(r), [], { module: P })],
                    { module: H, file: 'utilities/communication.c', line: 88 },
                  ),
                ],
                { module: H, file: 'krylov/HYPRE_pcg.c', line: 10 },
              ),
              fn('exchange_halo', () => 0.3, [fn('psm_mq_isend', r => 0.5 * psm(r), [], { module: P })], {
                module: M,
                file: 'comm.f90',
                line: 30,
              }),
            ],
            { module: M, file: 'miranda.f90', line: 55 },
          ),
        ],
        { module: M, file: 'main.f90', line: 1 },
      ),
    ],
    ranks,
    'miranda-like',
  );
}

/** T Fig 3.2(b): lib1 calls lib2, which calls back into lib1. */
export const LIB1_LIB2_LIB1 = `
main @app = 1
  lib1_api @lib1 = 2
    lib1_work @lib1 = 3
      lib2_run @lib2 = 4
        lib1_callback @lib1 = 5
          lib1_helper @lib1 = 1`;

/**
 * T Fig 3.2(c): lib5 is entered through three call-tree nodes (7, 8 and 11 in the figure) of two
 * entry functions, from two callers.
 */
export const LIB5_ENTRIES = `
main @app = 1
  solve @lib3 = 2
    lib5_setup @lib5 = 3
      lib5_inner @lib5 = 1
    lib5_apply @lib5 = 4
      mpi_send @mpi = 2
  output @lib4 = 1
    lib5_apply @lib5 = 5
      lib5_inner @lib5 = 2`;

/**
 * The filter's test case (thesis §3.2.1), root 100 so 1 % = 1: `now` is called under three wrappers
 * (0.2 each, the wrappers 0.4) and directly from main (0.6), 1.2 in all: kept as a function, drawn
 * only where main calls it; `log` (0.5) is below 1 %.
 */
export const WRAPPED_CLOCK = `
main @app main.c:1 = 92.2
  solve @app main.c:20 = 4
    kernel @gpu k.cu:7 = 1.5
  wrapA @app w.c:3 = 0.2
    now @rt now.c:9 = 0.2
  wrapB @app w.c:13 = 0.2
    now @rt now.c:9 = 0.2
  wrapC @app w.c:23 = 0.2
    now @rt now.c:9 = 0.2
  now @rt now.c:9 = 0.6
  log @io log.c:2 = 0.5`;

/** Recursion inside one module and across modules. */
export const RECURSION = `
main @app = 1
  fib @libmath = 1
    fib @libmath = 2
      fib @libmath = 3
        log_it @libio = 1
          fib @libmath = 4`;

/**
 * A seeded random calling-context tree with one root, for property tests of the filter: a few
 * hundred frames of `functions` functions in `modules` load modules, heavy-tailed costs (most
 * frames tiny, a few heavy, as in sampled profiles), wrappers that recur under many paths,
 * recursion, callbacks into modules already on the path, and statements owned by functions.
 */
export function randomCallTree(seed: number, size = 400, ranks = 2, functions = 60, modules = 6): Profile {
  const rnd = seededRandom(seed);
  const root: FixtureNode = { name: 'main', module: 'app', file: 'main.c', line: 1, exclusive: () => 0, children: [] };
  const stack: { node: FixtureNode; fn: number }[] = [{ node: root, fn: -1 }];
  for (let i = 1; i < size; i++) {
    while (stack.length > 1 && rnd() < 0.4) stack.pop();
    const top = stack[stack.length - 1]!;
    const caller = top.fn;
    let node: FixtureNode;
    const base = () => (rnd() < 0.05 ? 1 + 20 * rnd() : 0.01 * rnd() ** 3);
    if (rnd() < 0.15 && caller >= 0) {
      const cost = base();
      node = {
        name: `f${caller}.c:${10 + i}`,
        kind: NodeKind.Statement,
        file: `f${caller}.c`,
        line: 10 + i,
        exclusive: r => cost * (1 + 0.2 * r),
      };
    } else {
      // Recursion (the caller's own function) now and then, else skewed towards a few popular wrappers.
      const f = rnd() < 0.08 && caller >= 0 ? caller : Math.floor(functions * rnd() ** 2);
      const cost = base();
      node = {
        name: `fn${f}`,
        module: `lib${f % modules}`,
        file: `f${f}.c`,
        line: f + 1,
        exclusive: r => cost * (1 + 0.2 * r),
        children: [],
      };
      stack.push({ node, fn: f });
    }
    top.node.children!.push(node);
  }
  return profileFromFixture([root], ranks, 'random-cct');
}

/** main (app) → MPI_Wait (mpi) over one rank more than a Sankey message carries raw per-context values for. */
export function beyondRawLimit(): Profile {
  const ranks = MAX_RAW_CONTEXT_VALUES + 1;
  return profileFromFixture(
    [
      {
        name: 'main',
        module: 'app',
        exclusive: r => 1 + (r % 7),
        children: [{ name: 'MPI_Wait', module: 'mpi', exclusive: r => r / ranks }],
      },
    ],
    ranks,
  );
}

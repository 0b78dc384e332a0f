import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { profileFromOutline } from '../model/test-profiles';
import { buildEnsemble, type Ensemble } from './ensemble';
import { EnsembleProfile } from './ensemble-profile';
import { loadEnsemble } from './ensemble-runs';
import { runsFromOutlines } from './testing/outline-runs';

/** Union node by its path of names, or -1. */
function nodeAt(e: Ensemble, ...path: string[]): number {
  for (let u = 0; u < e.size; u++) if (e.tree.path(u).join('/') === path.join('/')) return u;
  return -1;
}

describe('ensemble union', () => {
  it('merges the same calling context across runs and keeps the same name on different paths apart', () => {
    const e = buildEnsemble(
      runsFromOutlines({
        a: 'main = 1\n  solve = 2\n    mpi = 3\n  io = 4',
        b: 'main = 1\n  solve = 5\n  io = 4\n    mpi = 6',
      }),
    );
    assert.equal(e.runCount, 2);
    // main, solve, solve/mpi, io, io/mpi: mpi under solve and under io are different contexts.
    assert.equal(e.size, 5);
    const solveMpi = nodeAt(e, 'main', 'solve', 'mpi'),
      ioMpi = nodeAt(e, 'main', 'io', 'mpi');
    assert.notEqual(solveMpi, ioMpi);
    assert.deepEqual([...e.values(nodeAt(e, 'main', 'solve'), 'exclusive')], [2, 5]);
    assert.deepEqual([...e.values(solveMpi, 'exclusive')].map(String), ['3', 'NaN']);
    assert.deepEqual([...e.values(ioMpi, 'exclusive')].map(String), ['NaN', '6']);
    assert.deepEqual([...e.values(nodeAt(e, 'main'), 'inclusive')], [10, 16]);
  });

  it('matches a run with the tree of an earlier run by its shape: one shared node map, its own values', () => {
    const e = buildEnsemble(
      runsFromOutlines({
        a: 'main = 1\n  solve = 2\n    mpi = 3\n  io = 4',
        b: 'main = 5\n  solve = 6\n    mpi = 7\n  io = 8',
        c: 'main = 1\n  io = 4\n  solve = 2\n    mpi = 3',
        d: 'main = 9\n  solve = 10\n    mpi = 11\n  io = 12',
      }),
    );
    assert.equal(e.size, 4);
    assert.equal(e.unionNodes(1), e.unionNodes(0));
    assert.equal(e.unionNodes(3), e.unionNodes(0));
    // c has the same nodes in another order: another shape, matched node by node into the same union nodes.
    assert.notEqual(e.unionNodes(2), e.unionNodes(0));
    assert.deepEqual([...e.values(nodeAt(e, 'main', 'solve', 'mpi'), 'exclusive')], [3, 7, 3, 11]);
    assert.deepEqual([...e.values(nodeAt(e, 'main'), 'inclusive')], [10, 26, 10, 42]);
    assert.deepEqual([...e.perRank(nodeAt(e, 'main', 'io'), 3, 'exclusive')!], [12]);
  });

  it('AT-16: three runs whose bar/qux contexts differ keep every context, ∅ where missing, full vectors where present everywhere', () => {
    const e = buildEnsemble(
      runsFromOutlines({
        r1: 'foo = 1\n  bar = 2\n    baz = 3',
        r2: 'foo = 1\n  qux = 2\n    baz = 3',
        r3: 'foo = 1\n  bar = 2\n  qux = 4\n    baz = 5',
      }),
    );
    const bar = nodeAt(e, 'foo', 'bar'),
      qux = nodeAt(e, 'foo', 'qux');
    assert.deepEqual(
      [bar, qux].map(u => e.presentCount[u]),
      [2, 2],
    );
    assert.deepEqual(
      [0, 1, 2].map(r => e.isPresent(bar, r)),
      [true, false, true],
    );
    assert.deepEqual(
      [0, 1, 2].map(r => e.isPresent(qux, r)),
      [false, true, true],
    );
    assert.equal(nodeAt(e, 'foo', 'bar', 'baz') >= 0 && nodeAt(e, 'foo', 'qux', 'baz') >= 0, true);
    const foo = nodeAt(e, 'foo');
    assert.equal(e.presentCount[foo], 3);
    assert.ok([...e.values(foo, 'inclusive')].every(v => !Number.isNaN(v)));
    // Every run's tree is a subset of the union: each run node maps to a distinct union node with its path.
    for (let r = 0; r < 3; r++) {
      const p = e.profile(r);
      const map = e.unionNodes(r);
      for (let i = 0; i < p.tree.size; i++) assert.deepEqual(e.tree.path(map[i]!), p.tree.path(i));
    }
  });

  it('a present node with zero cost is 0, a missing node is NaN and absent from the presence bits', () => {
    const e = buildEnsemble(runsFromOutlines({ a: 'main = 1\n  idle', b: 'main = 1' }));
    const idle = nodeAt(e, 'main', 'idle');
    assert.equal(e.value(idle, 0, 'exclusive'), 0);
    assert.ok(Number.isNaN(e.value(idle, 1, 'exclusive')));
    assert.equal(e.isPresent(idle, 0), true);
    assert.equal(e.isPresent(idle, 1), false);
    assert.equal(e.missingCount(idle), 1);
  });

  it("per-run value is the mean over that run's ranks, so runs with different rank counts compare", () => {
    const e = buildEnsemble(
      runsFromOutlines(
        {
          '2_ranks': 'main = 1 1\n  work = 4 6',
          '8_ranks': 'main = 1 1 1 1 1 1 1 1\n  work = 5 5 5 5 5 5 5 5',
        },
        { '2_ranks': 2, '8_ranks': 8 },
      ),
    );
    const work = nodeAt(e, 'main', 'work');
    assert.deepEqual([...e.values(work, 'exclusive')], [5, 5]);
    assert.deepEqual(
      e.runs.map(r => r.ranks),
      [2, 8],
    );
    assert.deepEqual(
      e.runs.map(r => r.parameters),
      [{ ranks: 2 }, { ranks: 8 }],
    );
    // Per-rank values on demand, from the run's profile.
    assert.deepEqual([...e.perRank(work, 0, 'exclusive')!], [4, 6]);
    assert.deepEqual([...e.perRank(work, 1, 'inclusive')!], [5, 5, 5, 5, 5, 5, 5, 5]);
    assert.equal(e.runTotal(0), 6);
  });

  it('folds siblings with the same frame within one run (values add) and reports per-rank values of both', () => {
    const e = buildEnsemble(runsFromOutlines({ a: 'main\n  f = 1 2\n  f = 3 4' }, { a: 2 }));
    assert.equal(e.size, 2);
    assert.deepEqual([...e.perRank(1, 0, 'exclusive')!], [4, 6]);
    assert.equal(e.value(1, 0, 'exclusive'), 5);
  });

  it('keys statements by file basename and line, not by the recorded directory', () => {
    const e = buildEnsemble(
      runsFromOutlines({
        a: 'main\n  /home/a/src/x.c:10 = 1',
        b: 'main\n  /scratch/b/src/x.c:10 = 2\n  /scratch/b/src/x.c:11 = 3',
      }),
    );
    assert.equal(e.size, 3);
    assert.deepEqual([...e.values(1, 'exclusive')], [1, 2]);
  });

  it('skips runs without the chosen metric, with the reason, and fails when none has it', () => {
    const runs = runsFromOutlines({ a: 'main = 1', b: 'main = 2' });
    assert.throws(() => buildEnsemble(runs, { metric: 'cycles' }), /no run has the metric "cycles"/);
    assert.throws(() => buildEnsemble([]), /at least one run/);
    const e = buildEnsemble(runs, { metric: 'time' });
    assert.deepEqual(e.skipped, []);
  });
});

describe('loadEnsemble', () => {
  const good = (dir: string, name: string, v: number) => {
    writeFileSync(join(dir, name), `main;solve ${v}\nmain;io ${v * 2}\n`);
  };

  it('lists a corrupt file among good ones without losing the others, and reads through an injected reader', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ensemble-'));
    try {
      for (const n of [8, 16, 32]) good(dir, `${n}_ranks.folded`, n);
      const paths = [8, 16, 32].map(n => join(dir, `${n}_ranks.folded`));
      const broken = join(dir, '64_ranks.folded');
      writeFileSync(broken, 'x');
      let active = 0,
        peak = 0;
      const { runs, errors } = await loadEnsemble([...paths, broken], {
        concurrency: 2,
        read: async p => {
          active++;
          peak = Math.max(peak, active);
          await new Promise(r => setTimeout(r, 5));
          active--;
          if (p === broken) throw new Error(`${p}: truncated`);
          return profileFromOutline('main = 1');
        },
      });
      assert.deepEqual(
        runs.map(r => r.run.name),
        ['8_ranks', '16_ranks', '32_ranks'],
      );
      assert.deepEqual(
        runs.map(r => r.run.parameters),
        [{ ranks: 8 }, { ranks: 16 }, { ranks: 32 }],
      );
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.name, '64_ranks');
      assert.match(errors[0]!.reason, /truncated/);
      assert.equal(peak, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a folder with the real readers: an unreadable file is an error, the rest load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ensemble-'));
    try {
      mkdirSync(join(dir, 'runs'));
      good(join(dir, 'runs'), 'a.folded', 1);
      good(join(dir, 'runs'), 'b.folded', 2);
      const progress: number[] = [];
      const { runs, errors } = await loadEnsemble(
        [join(dir, 'runs', 'a.folded'), join(dir, 'runs', 'b.folded'), join(dir, 'runs', 'missing.folded')],
        { onProgress: f => progress.push(f) },
      );
      assert.deepEqual(
        runs.map(r => r.run.name),
        ['a', 'b'],
      );
      assert.equal(errors.length, 1);
      assert.match(errors[0]!.reason, /no such file/);
      assert.equal(progress[progress.length - 1], 1);
      const folder = await loadEnsemble(join(dir, 'runs'));
      assert.deepEqual(
        folder.runs.map(r => r.run.name),
        ['a', 'b'],
      );
      assert.equal(buildEnsemble(folder.runs).size, 3);
      await assert.rejects(loadEnsemble(join(dir, 'nothing-here')), /no such file/);
      mkdirSync(join(dir, 'empty'));
      await assert.rejects(loadEnsemble(join(dir, 'empty')), /no profiles found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is cancellable: an abort stops the remaining reads and rejects with AbortError', async () => {
    const controller = new AbortController();
    let reads = 0;
    const paths = Array.from({ length: 20 }, (_, i) => `/virtual/${i}.folded`);
    await assert.rejects(
      loadEnsemble(paths, {
        concurrency: 2,
        signal: controller.signal,
        read: async () => {
          reads++;
          if (reads === 3) controller.abort();
          await new Promise(r => setTimeout(r, 2));
          return profileFromOutline('main = 1');
        },
      }),
      (e: Error) => e.name === 'AbortError',
    );
    assert.ok(reads < 20, `stopped after ${reads} reads`);
  });
});

describe('real ensembles', () => {
  const cases = [
    {
      dir: 'caliper-cali/lulesh-mpi-scaling-5runs',
      names: ['27_cores', '64_cores', '125_cores', '216_cores', '343_cores'],
      union: 45,
      key: 'cores',
    },
    {
      dir: 'caliper-json/lulesh-mpi-scaling-5runs',
      names: ['27_cores', '64_cores', '125_cores', '216_cores', '343_cores'],
      union: 45,
      key: 'cores',
    },
    { dir: 'caliper-cali/spotdb-4runs', names: ['0', '1', '2', '3'], union: 32, key: 'param1' },
    { dir: 'caliper-json/spotdb-4runs', names: ['0', '1', '2', '3'], union: 32, key: 'param1' },
    {
      dir: 'caliper-cali/rajaperf-quartz-seq-ensemble',
      names: [
        'gcc10.3.1_1048576/O3/1',
        'gcc10.3.1_1048576/O3/2',
        'gcc10.3.1_1048576/O3/3',
        'gcc10.3.1_1048576/O3/4',
        'gcc10.3.1_2097152/O3/1',
      ],
      union: 74,
      key: 'param1',
    },
    {
      dir: 'caliper-json/rajaperf-quartz-seq-ensemble',
      names: [
        'gcc10.3.1_1048576/O3/1',
        'gcc10.3.1_1048576/O3/2',
        'gcc10.3.1_1048576/O3/3',
        'gcc10.3.1_1048576/O3/4',
        'gcc10.3.1_2097152/O3/1',
      ],
      union: 74,
      key: 'param1',
    },
  ];
  for (const c of cases) {
    it(
      `${c.dir}: run names, Adiak metadata and a sensible union`,
      { skip: skipUnlessShared('data', c.dir) },
      async () => {
        const { runs, errors } = await loadEnsemble(sharedPath('data', c.dir));
        assert.deepEqual(errors, []);
        const e = buildEnsemble(runs);
        assert.deepEqual(
          e.runs.map(r => r.name),
          c.names,
        );
        assert.equal(e.size, c.union);
        // The union is a superset of every run and no larger than their sum.
        for (const { profile } of runs) assert.ok(e.size >= profile.tree.size);
        assert.ok(e.runs.every(r => c.key in r.parameters));
        assert.ok(
          e.runs.every(r => Object.keys(r.metadata).length > 5),
          'Adiak metadata is kept',
        );
        for (let r = 0; r < e.runCount; r++) assert.ok(e.runTotal(r) > 0);
      },
    );
  }

  it(
    'LULESH scaling: ranks from mpi.world.size, a node present in every run, 1 context per file',
    { skip: skipUnlessShared('data', 'caliper-cali/lulesh-mpi-scaling-5runs') },
    async () => {
      const { runs } = await loadEnsemble(sharedPath('data', 'caliper-cali/lulesh-mpi-scaling-5runs'));
      const e = buildEnsemble(runs);
      assert.deepEqual(
        e.runs.map(r => r.ranks),
        [27, 64, 125, 216, 343],
      );
      assert.deepEqual(
        e.runs.map(r => r.metadata['mpi.world.size']),
        [27, 64, 125, 216, 343],
      );
      const root = e.tree.roots()[0]!;
      assert.equal(e.presentCount[root], 5);
    },
  );

  it(
    'spotdb: runs 2 and 3 lack the MPI calls of runs 0 and 1, which are missing, not zero',
    { skip: skipUnlessShared('data', 'caliper-cali/spotdb-4runs') },
    async () => {
      const { runs } = await loadEnsemble(sharedPath('data', 'caliper-cali/spotdb-4runs'));
      const e = buildEnsemble(runs);
      const partial: number[] = [];
      for (let u = 0; u < e.size; u++) if (e.presentCount[u] === 2) partial.push(u);
      assert.equal(partial.length, 12);
      for (const u of partial)
        assert.ok(Number.isNaN(e.value(u, 2, 'inclusive')) && Number.isNaN(e.value(u, 3, 'inclusive')));
    },
  );
});

describe('module conflicts', () => {
  it('reports by name a call site two runs put in different modules, keeping the first run’s module', () => {
    const e = buildEnsemble(
      runsFromOutlines({
        a: 'main @app = 1\n  solve @libsolve = 2\n  io @libio = 1',
        b: 'main @app = 1\n  solve @libsolver2 = 3\n  io @libio = 1',
      }),
    );
    assert.deepEqual(e.moduleConflicts, [{ path: ['main', 'solve'], kept: 'libsolve', other: 'libsolver2', run: 'b' }]);
    assert.equal(e.tree.module(nodeAt(e, 'main', 'solve')), 'libsolve');
    const ep = new EnsembleProfile(
      runsFromOutlines({ a: 'main @app = 1\n  solve @libsolve = 2', b: 'main @app = 1\n  solve @libsolver2 = 3' }),
      { path: 'x' },
    );
    assert.ok(
      ep.profile.warnings.some(w =>
        /^solve is in module libsolve in one run and in libsolver2 in b \(main → solve\)/.test(w),
      ),
      ep.profile.warnings.join('\n'),
    );
  });
});

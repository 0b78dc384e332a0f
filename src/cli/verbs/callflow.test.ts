import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readProfile } from '../../analysis/formats';
import type { CallflowSummary } from '../../analysis/graph/callflow-summary';
import { superGraph } from '../../analysis/graph/super-graph';

const ROOT = resolve(__dirname, '..', '..', '..');
const SAMPLE = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/hpc-lens.ts'), 'callflow', ...args], {
    encoding: 'utf8',
    cwd: ROOT,
  });

type Out = CallflowSummary;

describe('hpc-lens callflow', () => {
  it('--json prints exactly the documented object: the super graph the panel draws, summed over contexts', async () => {
    const r = cli('--json', SAMPLE);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Out;
    assert.deepEqual(Object.keys(out), ['metric', 'threshold', 'functions', 'nodes', 'supernodes', 'links']);
    assert.deepEqual(Object.keys(out.functions), ['total', 'kept']);
    assert.deepEqual(Object.keys(out.nodes), ['total', 'folded']);
    assert.deepEqual(Object.keys(out.supernodes[0]!), ['id', 'name', 'module', 'inclusive', 'exclusive']);
    assert.deepEqual(Object.keys(out.links[0]!), ['source', 'target', 'value']);
    assert.equal(out.metric, 'Time');
    assert.equal(out.threshold, 0.1, 'percent, the default');
    const p = await readProfile(SAMPLE);
    const g = superGraph(p);
    assert.deepEqual(out.functions, { total: g.filter.totalFunctions, kept: g.filter.keptFunctions });
    assert.deepEqual(out.nodes, { total: p.tree.size, folded: g.filter.removedNodes });
    assert.deepEqual(
      out.supernodes.map(n => [n.id, n.inclusive, n.exclusive]),
      g.nodes.map(n => [n.id, n.inclusive, n.exclusive]),
    );
    assert.deepEqual(
      out.links.map(l => [l.source, l.target, l.value]),
      g.edges.map(e => [e.source, e.target, e.value]),
    );
    const libstencil = out.supernodes.find(n => n.module === 'libstencil.so')!;
    assert.equal(libstencil.name, 'libstencil.so');
  });

  it('--threshold (percent) and --by choose the filter; 0 folds nothing', () => {
    const none = JSON.parse(cli('--json', '--threshold', '0', SAMPLE).stdout) as Out;
    assert.equal(none.threshold, 0);
    assert.equal(none.nodes.folded, 0);
    assert.equal(none.functions.kept, none.functions.total);
    const high = JSON.parse(cli('--json', '--threshold=5%', '--by', 'exclusive', SAMPLE).stdout) as Out;
    assert.equal(high.threshold, 5);
    assert.ok(high.nodes.folded > 0 && high.supernodes.length < none.supernodes.length);
  });

  it('exits 2 with the usage for a bad threshold, side or missing --json', () => {
    for (const args of [
      ['--json', '--threshold', '150', SAMPLE],
      ['--json', '--threshold', 'lots', SAMPLE],
      ['--json', '--by', 'self', SAMPLE],
      [SAMPLE],
      ['--json'],
    ]) {
      const r = cli(...args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, /usage: hpc-lens callflow --json/);
      assert.equal(r.stdout, '');
    }
  });

  const lammps = 'data/hpctoolkit-metadb/lammps-openmp';
  it(
    'LAMMPS: the 0.1 % filter folds most nodes; the roots hold the profile total',
    { skip: skipUnlessShared(lammps) },
    async () => {
      const r = cli('--json', sharedPath(lammps));
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as Out;
      assert.ok(out.nodes.folded / out.nodes.total >= 0.55);
      const p = await readProfile(sharedPath(lammps));
      const targets = new Set(out.links.map(l => l.target));
      const roots = out.supernodes.filter(n => !targets.has(n.id)).reduce((s, n) => s + n.inclusive, 0);
      const total = p.total(p.primaryMetric);
      assert.ok(Math.abs(roots - total) <= 1e-9 * total, `${roots} vs ${total}`);
    },
  );
});

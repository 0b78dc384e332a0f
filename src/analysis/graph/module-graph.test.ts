import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileFromOutline } from '../model/test-profiles';
import { dropBackEdges, moduleGraph } from './module-graph';
import { sankeyData } from './sankey-data';

describe('module graph', () => {
  const p = profileFromOutline(`
_start
  main @heat main.c:3 = 1 1
    step = 1 1
      sweep @libstencil = 2 6
        stencil.c:12 @libstencil = 10 30
      halo @libhalo = 1 1
        MPI_Sendrecv @libmpi = 8 2
          cb @libhalo = 1 1`, 2);
  const g = moduleGraph(p, 0);

  it('collapses consecutive frames of a module and weighs calls between modules', () => {
    assert.deepEqual(g.nodes.map(n => n.id), ['heat', 'libstencil', 'libhalo', 'libmpi', 'libhalo#2']);
    const node = (id: string) => g.nodes.find(n => n.id === id)!;
    assert.equal(node('heat').inclusive, 66);
    assert.equal(node('heat').exclusive, 4, 'main + step (unknown module inherits the caller)');
    assert.equal(node('libstencil').inclusive, 48);
    assert.deepEqual([...node('libstencil').inclusiveByContext], [12, 36]);
    assert.deepEqual(g.edges.map(e => [e.source, e.target, e.value]), [
      ['heat', 'libhalo', 14], ['heat', 'libstencil', 48], ['libhalo', 'libmpi', 12], ['libmpi', 'libhalo#2', 2],
    ]);
    assert.equal(g.total, 66);
    assert.deepEqual(g.droppedEdges, []);
  });

  it('groups by function name when the profile knows no modules (CallFlow\'s fallback)', () => {
    const flat = moduleGraph(profileFromOutline(`
main = 1
  solve = 2
    loop.c:4 = 5
  io = 3
    solve = 1`), 0);
    assert.deepEqual(flat.nodes.map(n => [n.id, n.inclusive, n.exclusive]), [['main', 12, 1], ['solve', 8, 8], ['io', 4, 3]]);
    assert.deepEqual(flat.edges.map(e => [e.source, e.target, e.value]), [['io', 'solve', 1], ['main', 'io', 4], ['main', 'solve', 7]]);
  });

  it('is acyclic and deterministic', () => {
    assert.deepEqual(moduleGraph(p, 0).edges, g.edges);
    const { kept, dropped } = dropBackEdges(['a', 'b', 'c'], [
      { source: 'a', target: 'b', value: 1 }, { source: 'b', target: 'c', value: 1 }, { source: 'c', target: 'a', value: 1 },
    ]);
    assert.equal(kept.length, 2);
    assert.deepEqual(dropped.map(e => e.source + e.target), ['ca']);
  });

  it('produces Sankey data with shares, imbalance and a source location per node', () => {
    const s = sankeyData(p, 0, 'demo');
    const stencil = s.nodes.find(n => n.id === 'libstencil')!;
    assert.equal(stencil.share, 48 / 66);
    assert.equal(stencil.imbalance, 36 / 24);
    assert.deepEqual(stencil.entry, { name: 'sweep', file: 'stencil.c', line: 12 });
    assert.deepEqual(s.nodes.find(n => n.id === 'heat')!.entry, { name: 'main', file: 'main.c', line: 3 });
    assert.equal(s.links.length, 4);
  });
});

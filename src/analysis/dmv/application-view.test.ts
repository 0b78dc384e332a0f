import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applicationView } from './application-view';
import { DmvCategory } from './categories';
import { DmvIndex } from './dmv-index';
import { KinetoTraceWriter } from './testing/kineto-writer';
import { readGenerated } from './testing/read-trace';

async function trace(): Promise<DmvIndex> {
  const w = new KinetoTraceWriter();
  w.python('train.py(10): main', 0, 1000);
  w.python('train.py(20): load', 0, 300);
  w.launch('cudaMemcpyAsync', 10, 20, { kind: 'memcpy', direction: 'HtoD', ts: 40, dur: 200, bytes: 8000 });
  w.python('train.py(30): compute', 400, 500);
  w.launch('cudaLaunchKernel', 410, 10, { kind: 'kernel', ts: 430, dur: 400 });
  return new DmvIndex(await readGenerated(w));
}

describe('DMV application view', () => {
  it('the window’s call tree coloured by class, with active nodes, track bars and event bars', async () => {
    const ix = await trace();
    const v = applicationView(ix, { start: 0, end: 350_000 });
    const byName = new Map(v.nodes.map(n => [n.name, n]));
    assert.ok(byName.get('load')!.active);
    assert.equal(byName.get('compute'), undefined, 'compute runs after the window');
    const copy = byName.get('Memcpy HtoD (Pinned -> Device)')!;
    assert.equal(copy.category, DmvCategory.DataMovement);
    assert.equal(copy.time, 200_000);
    assert.equal(byName.get('cudaMemcpyAsync')!.category, DmvCategory.Runtime);
    assert.equal(byName.get('load')!.file, 'train.py');
    assert.equal(byName.get('load')!.line, 20);
    // Parents precede children, and parent indices point at them.
    v.nodes.forEach((n, i) => assert.ok(n.parent < i));
    assert.equal(v.nodes[byName.get('load')!.parent]!.name, 'main');
    const gpu = v.tracks.find(t => t.bytes > 0)!;
    assert.equal(gpu.bytes, 8000);
    assert.equal(gpu.busy.dataMovement, 200_000);
    assert.equal(v.events[0]!.name, 'Memcpy HtoD (Pinned -> Device)');
    assert.equal(v.events[0]!.bytes, 8000);
  });

  it('keeps the busiest nodes within the budget, with their ancestors', async () => {
    const ix = await trace();
    const v = applicationView(ix, ix.range, { maxNodes: 1, maxEvents: 2 });
    assert.equal(v.events.length, 2);
    assert.ok(v.activeNodes > 3);
    // The busiest node is `main` (1 ms); nothing else is needed.
    assert.deepEqual(
      v.nodes.map(n => n.name),
      ['main'],
    );
    assert.equal(v.nodes[0]!.category, DmvCategory.CpuCompute);
    const w = applicationView(ix, ix.range, { maxNodes: 2 });
    assert.deepEqual(
      w.nodes.map(n => n.name),
      ['main', 'compute'],
    );
  });
});

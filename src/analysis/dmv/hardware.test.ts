import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DmvIndex } from './dmv-index';
import { hardwareView } from './hardware';
import { KinetoTraceWriter } from './testing/kineto-writer';
import { readGenerated } from './testing/read-trace';

describe('DMV hardware view', () => {
  it('colours the host and each GPU by its busy share of the window; links carry the window’s bytes', async () => {
    const w = new KinetoTraceWriter();
    w.device(0);
    w.device(1);
    w.op('step', 0, 100); // CPU busy [0, 100) µs
    w.launch('cudaLaunchKernel', 10, 5, { kind: 'kernel', ts: 20, dur: 40, device: 0 });
    w.launch('cudaMemcpyAsync', 60, 5, { kind: 'memcpy', direction: 'HtoD', ts: 70, dur: 20, bytes: 2000, device: 0 });
    w.op('idle', 199, 1); // range [0, 200) µs
    const ix = new DmvIndex(await readGenerated(w));
    const v = hardwareView(ix, { start: 0, end: 100_000 });
    const labels = v.topology.nodes.map(n => n.label);
    const at = (label: string) => v.utilisation.node[labels.indexOf(label)];
    assert.equal(at('host'), 100);
    assert.equal(at('GPU 0'), 60, 'kernel 40 µs + copy 20 µs of 100 µs');
    assert.equal(at('GPU 1'), 0);
    const l0 = v.linkDevices.findIndex(([a, b]) => a === -1 && b === 0);
    assert.equal(v.traffic.link[l0], 2000);
    const later = hardwareView(ix, { start: 100_000, end: 200_000 }, null, v);
    assert.equal(later.utilisation.node[labels.indexOf('GPU 0')], 0);
    assert.equal(later.utilisation.node[labels.indexOf('host')], 1);
  });
});

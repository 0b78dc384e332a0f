import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { REPO_ROOT } from '../../test/support/shared-data';
import { callflowGraph, unpackCallflowData } from '../shared/callflow-packing';
import { LocalAnalysisService } from './local-analysis-service';
import { transferables } from './shared-memory';

const SAMPLE = join(REPO_ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');

describe('packed service answers', () => {
  it('a Sankey answer leaves the worker by transfer: its one buffer is detached after the post, and asking again works', async () => {
    const service = new LocalAnalysisService();
    const o = await service.open({ path: SAMPLE });
    const args = { dataset: o.dataset, title: 's', options: { metric: 1 } };
    const answer = await service.superGraph(args);
    const expected = unpackCallflowData(answer);
    // What analysis-worker.ts posts: the answer with transferables(result) as the transfer list.
    const list = transferables(answer);
    assert.deepEqual(list, [answer.buffer], 'the packed buffer is the one thing moved');
    const { port1, port2 } = new MessageChannel();
    const got = new Promise<{ id: number; type: 'done'; result: typeof answer }>(r => port2.once('message', r));
    port1.postMessage({ id: 1, type: 'done', result: answer }, list);
    const received = (await got).result;
    port1.close();
    port2.close();
    assert.equal(answer.buffer.byteLength, 0, 'detached on the sender: moved, not cloned');
    assert.deepEqual(unpackCallflowData(received), expected);
    // The service kept nothing it sent (its cached super graph is not the packed copy).
    const again = await service.superGraph(args);
    assert.deepEqual(unpackCallflowData(again), expected);
    assert.equal(callflowGraph(again).nodeCount, expected.nodes.length);
    await service.close({ dataset: o.dataset });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { CallflowGraphReader, packCallflowData, unpackCallflowData } from '../../shared/callflow-packing';
import type { CallflowData } from '../../shared/callflow-protocol';
import { payloadTransferList } from '../../shared/packed-payload';
import { superGraphData } from './super-graph-data';
import { superGraphDiff } from './super-graph-diff';
import { beyondRawLimit, LULESH_MODULE_MAP, luleshLike, mirandaLike } from './test-fixtures/synthetic-runs';

/** What the view got before packing: the message as a structured clone (undefined fields dropped as JSON would keep them out). */
const plain = (d: CallflowData) => structuredClone(d);

describe('packed Sankey graph', () => {
  it('unpacks to the same graph: raw per-context values, entries, callers, folded callees, links, guard', () => {
    for (const data of [
      superGraphData(luleshLike(16), 'lulesh', { moduleMap: LULESH_MODULE_MAP }),
      superGraphData(mirandaLike(64), 'miranda', { filter: { threshold: 0.05, by: 'inclusive' } }),
      superGraphData(mirandaLike(8), 'miranda guarded', { maxSupernodes: 3 }),
    ]) {
      const packed = packCallflowData(data);
      assert.deepEqual(unpackCallflowData(packed), plain(data), data.title);
      assert.ok(
        packed.header.rest.every(r => r === null),
        'every field of these nodes has a column',
      );
    }
  });

  it('carries the histograms beyond the raw limit and a comparison’s per-node diff in the header', () => {
    const hist = superGraphData(beyondRawLimit(), 'big');
    assert.deepEqual(unpackCallflowData(packCallflowData(hist)), plain(hist));
    const diff = superGraphDiff(superGraphData(mirandaLike(16), 'b'), superGraphData(mirandaLike(8), 'a'), {
      baseline: 8,
      compare: 16,
    });
    assert.ok(diff.nodes.some(n => n.diff));
    assert.deepEqual(unpackCallflowData(packCallflowData(diff)), plain(diff));
  });

  it('keeps nulls, empty lists and absent optional fields apart', () => {
    const data: CallflowData = {
      title: 't',
      metric: { name: 'time', unit: 's' },
      total: 3,
      nodes: [
        {
          id: 'a',
          label: 'a',
          module: 'a',
          inclusive: 3,
          exclusive: -0,
          share: 1,
          imbalance: NaN,
          entry: { name: 'f', file: null, line: null },
          entries: [],
          callers: [],
          contextValues: { inclusive: [], exclusive: [] },
        },
        {
          id: 'b',
          label: 'b',
          module: 'm',
          inclusive: 1,
          exclusive: 1,
          share: 1 / 3,
          imbalance: 1,
          entry: { name: 'g', file: 'g.c', line: 0 },
          kind: 'function',
          baseId: 'a',
          filteredCallees: [{ name: 'h', inclusive: 0.5, count: 2, file: null, line: 7 }],
          filteredCalleeCount: 1,
        },
      ],
      links: [{ source: 'a', target: 'b', value: 1 }],
    };
    assert.deepEqual(unpackCallflowData(packCallflowData(data)), data);
    const empty: CallflowData = { title: 'e', metric: { name: 'm', unit: '' }, total: 0, nodes: [], links: [] };
    assert.deepEqual(unpackCallflowData(packCallflowData(empty)), empty);
  });

  it('looks a node up by id without making the others, and crosses a port by transfer', async () => {
    const data = superGraphData(luleshLike(16), 'lulesh', { moduleMap: LULESH_MODULE_MAP });
    const packed = packCallflowData(data);
    const { port1, port2 } = new MessageChannel();
    const got = new Promise<{ data: typeof packed }>(r => port2.once('message', r));
    port1.postMessage({ type: 'graph', data: packed }, payloadTransferList(packed));
    const received = (await got).data;
    port1.close();
    port2.close();
    assert.equal(packed.buffer.byteLength, 0, 'moved, not cloned');
    const reader = new CallflowGraphReader(received);
    const last = data.nodes.at(-1)!;
    assert.deepEqual(reader.nodeById(last.id), plain(data).nodes.at(-1));
    assert.equal(reader.nodeById('no such node'), undefined);
    assert.equal(reader.baseId(reader.indexOf(last.id)), last.baseId ?? last.id);
  });

  it('refuses a payload whose header and columns disagree', () => {
    const packed = packCallflowData(superGraphData(mirandaLike(8), 'm'));
    assert.throws(
      () =>
        new CallflowGraphReader({ ...packed, header: { ...packed.header, nodeCount: packed.header.nodeCount + 1 } }),
      /header says \d+ nodes/,
    );
  });
});

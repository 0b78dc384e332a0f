import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import {
  ensembleGraph as graphReader,
  EnsembleGraphReader,
  packEnsembleDetail,
  packEnsembleGraph,
  unpackEnsembleDetail,
  unpackEnsembleGraph,
  type PackedEnsembleGraph,
} from '../../shared/ensemble-packing';
import type { EnsembleGraphData, EnsembleViewState } from '../../shared/ensemble-protocol';
import { decodeColumns, payloadTransferList, type PackedColumn } from '../../shared/packed-payload';
import { ensembleDetail } from './ensemble-detail';
import { ensembleGraph, type EnsembleGraphRequest } from './ensemble-graph';
import { EnsembleProfile } from './ensemble-profile';
import { generateSyntheticEnsemble } from './testing/synthetic-ensemble';
import { ensembleViewState } from './testing/view-state';

/** What the page got before packing: the message through VS Code's JSON (undefined fields dropped). */
const plain = (d: EnsembleGraphData): EnsembleGraphData => JSON.parse(JSON.stringify(d)) as EnsembleGraphData;

const syn = generateSyntheticEnsemble({ runs: 13, nodes: 1500, seed: 21 });
const ep = new EnsembleProfile(syn.runs, { path: '/syn' });
const graphOf = (s: EnsembleViewState, extra: Partial<EnsembleGraphRequest> = {}) =>
  ensembleGraph(ep, { title: 'packing', state: s, ...extra }).data;

/** Graphs that between them set every optional field of a node and a link, and every node kind. */
function graphs(): EnsembleGraphData[] {
  const summary = graphOf(ensembleViewState({ options: { orderBy: 'ranks' } }), { filter: { threshold: 0.01 } });
  const [, entrySplit, callerSplit] = summary.nodes;
  assert.ok(entrySplit && callerSplit, 'supernodes to split');
  return [
    summary,
    graphOf(ensembleViewState({ mode: 'target', target: 4, options: { bins: 'auto' } }), {
      filter: { threshold: 0 },
      maxSupernodes: 4,
    }),
    graphOf(ensembleViewState({ mode: 'diff', diff: { baseline: 0, compare: 12 }, runs: [0, 3, 5, 12] }), {
      splits: [
        { node: entrySplit.id, mode: 'entry' },
        { node: callerSplit.id, mode: 'caller' },
      ],
    }),
  ];
}

/** Sums of the columns' element counts, by column. */
function columnLengths(p: PackedEnsembleGraph): Record<string, number> {
  const c = decodeColumns<Record<string, PackedColumn>>(p);
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.length]));
}

describe('packed ensemble graph', () => {
  it('unpacks to the graph the page got as JSON: summary with sparklines and folded callees, target with the guard, diff of a subset', () => {
    for (const data of graphs()) {
      const packed = packEnsembleGraph(data);
      assert.deepEqual(unpackEnsembleGraph(packed), plain(data), `${data.title} ${data.selectedRuns.length} runs`);
      assert.ok(
        packed.header.rest.every(r => r === null),
        'every field of these nodes has a column',
      );
      assert.equal(JSON.stringify(packed.header).includes('"nodes"'), false, 'no node crosses as JSON');
    }
  });

  it('writes every column (each is non-empty in one of the graphs), so no field is silently dropped', () => {
    const [summary, target, diff] = graphs();
    assert.ok(summary!.nodes.some(n => n.sparkline && n.filteredCallees && n.runValues));
    assert.ok(target!.nodes.some(n => n.target && n.omittedInclusive !== undefined) && target!.guard);
    assert.ok(target!.links.some(l => l.targetValue !== undefined) && diff!.links.some(l => l.diff !== undefined));
    assert.ok(diff!.nodes.some(n => n.diff));
    const used = new Map<string, number>();
    for (const g of [summary!, target!, diff!])
      for (const [k, n] of Object.entries(columnLengths(packEnsembleGraph(g)))) used.set(k, (used.get(k) ?? 0) + n);
    const empty = [...used].filter(([, n]) => n === 0).map(([k]) => k);
    assert.deepEqual(empty, [], 'columns never written');
    // A column holding only zeros in all three would be a field never copied in.
    const nonZero = new Set<string>();
    for (const g of [summary!, target!, diff!]) {
      const c = decodeColumns<Record<string, PackedColumn>>(packEnsembleGraph(g));
      for (const [k, v] of Object.entries(c)) if ([...v].some(x => x !== 0)) nonZero.add(k);
    }
    // String 0 is the root (every top-level edge and caller names it); a target's bin may be the first.
    const mayBeZero = new Set(['callersId', 'linkSource', 'nodeTargetBinInclusive', 'nodeTargetBinExclusive']);
    assert.deepEqual(
      [...used.keys()].filter(k => !nonZero.has(k) && !mayBeZero.has(k)),
      [],
      'columns that are all zero in every graph',
    );
  });

  it('keeps null run values, null target and diff values, and null lines apart from 0', () => {
    const data = graphs()[0]!;
    const n = structuredClone(data.nodes[0]!);
    n.runValues = { inclusive: [null, 0, 2.5], exclusive: [0, null, -1] };
    n.target = { inclusive: null, exclusive: 0, binInclusive: -1, binExclusive: 3 };
    n.diff = { exclusive: null, inclusive: 0, baseline: null, compare: 7 };
    n.entries = [
      { name: 'f', maxInclusive: 1, file: null, line: null },
      { name: 'g', maxInclusive: 0, file: 'a.c', line: 0 },
    ];
    n.filteredCallees = [{ name: 'h', maxInclusive: 2, count: 1, file: 'b.c', line: null }];
    const one = { ...data, nodes: [n], links: [] };
    assert.deepEqual(unpackEnsembleGraph(packEnsembleGraph(one)), plain(one));
  });

  it('round-trips an empty ensemble graph and a graph over one run', () => {
    const empty: EnsembleGraphData = {
      ...graphOf(ensembleViewState()),
      nodes: [],
      links: [],
      runs: [],
      selectedRuns: [],
    };
    const packed = packEnsembleGraph(empty);
    assert.deepEqual(unpackEnsembleGraph(packed), plain(empty));
    assert.equal(new EnsembleGraphReader(packed).indexOf('main'), -1);
    const oneRun = graphOf(ensembleViewState({ runs: [3], options: { orderBy: 'ranks' } }));
    assert.deepEqual(oneRun.selectedRuns, [3]);
    assert.ok(oneRun.nodes.length >= 2 && oneRun.nodes.every(n => n.runValues?.inclusive.length === 1));
    assert.deepEqual(unpackEnsembleGraph(packEnsembleGraph(oneRun)), plain(oneRun));
  });

  it('reads one node, its entries and folded callees without unpacking the graph; unknown ids give -1', () => {
    const data = graphs()[0]!;
    const reader = graphReader(packEnsembleGraph(data));
    const folded = data.nodes.find(n => n.filteredCallees)!;
    const i = reader.indexOf(folded.id);
    assert.ok(i >= 0);
    assert.deepEqual(reader.entries(i), plain(data).nodes.find(n => n.id === folded.id)!.entries);
    assert.deepEqual(reader.filteredCallees(i), folded.filteredCallees);
    assert.deepEqual(
      reader.nodeById(folded.id),
      plain(data).nodes.find(n => n.id === folded.id),
    );
    assert.equal(reader.indexOf('no such node'), -1);
    assert.equal(reader.nodeById('no such node'), undefined);
    assert.deepEqual(reader.runs(), plain(data).runs);
  });

  it('crosses a MessagePort transferred (the sender’s buffer detaches) and unpacks the same on the other side', async () => {
    const data = graphs()[1]!;
    const packed = packEnsembleGraph(data);
    const { port1, port2 } = new MessageChannel();
    const got = new Promise<PackedEnsembleGraph>(resolve =>
      port2.once('message', m => resolve(m as PackedEnsembleGraph)),
    );
    port1.postMessage(packed, payloadTransferList(packed));
    const received = await got;
    port1.close();
    assert.equal(packed.buffer.byteLength, 0, 'transferred, not copied');
    assert.deepEqual(unpackEnsembleGraph(received), plain(data));
  });

  it('refuses a payload whose columns disagree with its header', () => {
    const packed = packEnsembleGraph(graphs()[0]!);
    assert.throws(
      () => new EnsembleGraphReader({ ...packed, header: { ...packed.header, runCount: packed.header.runCount + 1 } }),
      /header says .* runs/,
    );
  });
});

describe('packed ensemble detail', () => {
  it('carries the correlation points as columns and unpacks to the detail the page got as JSON', () => {
    const g = ensembleGraph(ep, { title: 'packing', state: ensembleViewState() });
    const heaviest = g.graph.nodes.reduce((a, b) => (b.members.length > a.members.length ? b : a));
    for (const state of [ensembleViewState(), ensembleViewState({ mode: 'target', target: 2, runs: [1, 2, 7] })]) {
      const detail = ensembleDetail(ep, g.graph, heaviest.id, state)!;
      assert.ok(detail.correlation.run.length > 100, 'points to pack');
      const wire = packEnsembleDetail(detail);
      assert.equal(JSON.stringify(wire.correlation.header).length < 2000, true, 'the points are not in the JSON');
      assert.equal(wire.correlation.columns.inclusive.length, detail.correlation.run.length);
      assert.deepEqual(unpackEnsembleDetail(wire), JSON.parse(JSON.stringify(detail)));
    }
  });

  it('refuses correlation columns of different lengths', () => {
    const g = ensembleGraph(ep, { title: 'packing', state: ensembleViewState() });
    const detail = ensembleDetail(ep, g.graph, g.graph.nodes[1]!.id, ensembleViewState())!;
    assert.throws(
      () => packEnsembleDetail({ ...detail, correlation: { ...detail.correlation, run: [0] } }),
      /metric correlation: \d+ call sites, 1 runs/,
    );
  });
});

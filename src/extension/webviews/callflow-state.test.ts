import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { superGraphData } from '../../analysis/graph/super-graph-data';
import { readProfile } from '../../analysis/formats';
import { REPO_ROOT } from '../../../test/support/shared-data';
import { callflowGraph, packCallflowData } from '../../shared/callflow-packing';
import type { CallflowData } from '../../shared/callflow-protocol';
import {
  applyCallflowRequest,
  graphPlan,
  initialCallflowState,
  parsePersistedFilters,
  persistedFilterOf,
  shownOptions,
  type CallflowState,
} from './callflow-state';

const samplePath = join(REPO_ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');

/** The graph on screen as the host holds it: packed, read through its reader. */
const graph = (d: CallflowData) => callflowGraph(packCallflowData(d));

function ok(r: CallflowState | { error: string }): CallflowState {
  if ('error' in r) assert.fail(r.error);
  return r;
}

describe('CallFlow panel state', () => {
  test('split, re-split with another mode, unsplit from a part, reveal', async () => {
    const profile = await readProfile(samplePath);
    const data = superGraphData(profile, 't');
    const multi = data.nodes.find(n => (n.entryCount ?? 0) >= 2)!;
    assert.ok(multi, 'a node with several entry functions');
    let s = ok(
      applyCallflowRequest(
        initialCallflowState(),
        { type: 'callflow/split', nodeId: multi.id, mode: 'entry' },
        graph(data),
        4,
        false,
      ),
    );
    assert.deepEqual(s.splits, [{ node: multi.id, mode: 'entry' }]);
    const split = superGraphData(profile, 't', { splits: s.splits });
    const parts = split.nodes.filter(n => n.baseId === multi.id && n.id !== multi.id);
    assert.ok(parts.length >= 2);
    // The parts' heights add up to the original bar (AT-13).
    assert.ok(Math.abs(parts.reduce((a, n) => a + n.inclusive, 0) - multi.inclusive) <= 1e-9 * multi.inclusive);
    s = ok(
      applyCallflowRequest(s, { type: 'callflow/split', nodeId: parts[0]!.id, mode: 'caller' }, graph(split), 4, false),
    );
    assert.deepEqual(s.splits, [{ node: multi.id, mode: 'caller' }], 'one split per supernode, the latest wins');
    s = ok(applyCallflowRequest(s, { type: 'callflow/unsplit', nodeId: parts[1]!.id }, graph(split), 4, false));
    assert.deepEqual(s.splits, []);
    assert.match(
      (
        applyCallflowRequest(s, { type: 'callflow/unsplit', nodeId: multi.id }, graph(data), 4, false) as {
          error: string;
        }
      ).error,
      /not split/,
    );
    s = ok(
      applyCallflowRequest(
        s,
        { type: 'callflow/reveal', nodeId: multi.id, function: multi.entries![0]!.name },
        graph(data),
        4,
        false,
      ),
    );
    assert.equal(s.reveal.length, 1);
  });

  test('bad requests say why', async () => {
    const profile = await readProfile(samplePath);
    const data = superGraphData(profile, 't');
    const s0 = initialCallflowState();
    assert.match(
      (
        applyCallflowRequest(s0, { type: 'callflow/split', nodeId: 'nope', mode: 'entry' }, graph(data), 4, false) as {
          error: string;
        }
      ).error,
      /no node nope/,
    );
    assert.match(
      (applyCallflowRequest(s0, { type: 'callflow/brush', contexts: [9] }, graph(data), 4, false) as { error: string })
        .error,
      /not one of the profile's 4/,
    );
    assert.match(
      (applyCallflowRequest(s0, { type: 'callflow/mode', mode: 'brush' }, graph(data), 4, false) as { error: string })
        .error,
      /Brush some bins/,
    );
    const all = ok(applyCallflowRequest(s0, { type: 'callflow/brush', contexts: [0, 1, 2, 3] }, graph(data), 4, false));
    assert.match(
      (applyCallflowRequest(all, { type: 'callflow/mode', mode: 'brush' }, graph(data), 4, false) as { error: string })
        .error,
      /every rank/,
    );
    assert.match(
      (
        applyCallflowRequest(s0, { type: 'callflow/mode', mode: 'sideBySide' }, graph(data), 4, false) as {
          error: string;
        }
      ).error,
      /two runs/,
    );
  });

  test('AT-2: a brush over the low bins of a module gives two graphs over a partition of the ranks, each computed over its own ranks', async () => {
    const profile = await readProfile(samplePath);
    const whole = superGraphData(profile, 't');
    const K = whole.contexts!.count;
    // Brush the low-runtime half of the heaviest non-root module's histogram.
    const module = [...whole.nodes]
      .filter(n => n.kind === 'module' && (n.callers?.length ?? 0) > 0)
      .sort((a, b) => b.inclusive - a.inclusive)[0]!;
    const values = module.contextValues!.inclusive;
    const order = values
      .map((v, c) => [v, c] as const)
      .sort((a, b) => a[0] - b[0])
      .map(x => whole.contexts!.indices[x[1]]!);
    const low = order.slice(0, Math.floor(K / 2));
    let s = ok(
      applyCallflowRequest(initialCallflowState(), { type: 'callflow/brush', contexts: low }, graph(whole), K, false),
    );
    s = ok(applyCallflowRequest(s, { type: 'callflow/mode', mode: 'brush' }, graph(whole), K, false));
    const plan = graphPlan(s, {}, K, false);
    const top = superGraphData(profile, 't', plan.first);
    const bottom = superGraphData(profile, 't', plan.second!);
    const a = top.contexts!.indices,
      b = bottom.contexts!.indices;
    assert.deepEqual(
      [...a, ...b].sort((x, y) => x - y),
      Array.from({ length: K }, (_, c) => c),
      'the two rank sets partition the ranks',
    );
    assert.equal(a.filter(c => b.includes(c)).length, 0);
    assert.deepEqual(plan.labels, [`Brushed ranks (${low.length})`, `Other ranks (${K - low.length})`]);
    // Every node's height is the sum over its graph's ranks only, and the two sides add up to the whole.
    const perRank = (id: string, ranks: number[]) =>
      ranks.reduce(
        (sum, c) =>
          sum + whole.nodes.find(n => n.id === id)!.contextValues!.inclusive[whole.contexts!.indices.indexOf(c)]!,
        0,
      );
    const mpi = whole.nodes.find(n => /mpi/i.test(n.module))!;
    assert.ok(mpi, 'the sample has an MPI module');
    for (const id of [module.id, mpi.id]) {
      const t = top.nodes.find(n => n.id === id)!,
        u = bottom.nodes.find(n => n.id === id)!;
      assert.ok(Math.abs(t.inclusive - perRank(id, a)) <= 1e-9 * whole.total, `${id} over the brushed ranks`);
      assert.ok(Math.abs(u.inclusive - perRank(id, b)) <= 1e-9 * whole.total, `${id} over the other ranks`);
      assert.ok(
        Math.abs(t.inclusive + u.inclusive - whole.nodes.find(n => n.id === id)!.inclusive) <= 1e-9 * whole.total,
      );
    }
  });

  test('the filter per dataset overrides the settings’ in every graph the panel draws, and repopulation replays on it', async () => {
    const profile = await readProfile(samplePath);
    const base = { filter: { threshold: 0.001, by: 'inclusive' as const } };
    const s0 = initialCallflowState();
    assert.deepEqual(
      graphPlan(s0, base, 4, false).first.filter,
      base.filter,
      'the settings’ filter until one is chosen',
    );
    let s = ok(
      applyCallflowRequest(s0, { type: 'callflow/filter', threshold: 0.01, by: 'exclusive' }, undefined, 4, false),
    );
    assert.deepEqual(s.filter, { threshold: 0.01, by: 'exclusive' });
    s = ok(applyCallflowRequest(s, { type: 'callflow/filter', threshold: 0.01, by: 'inclusive' }, undefined, 4, false));
    const data = superGraphData(profile, 't', graphPlan(s, base, 4, false).first);
    assert.equal(data.filter!.threshold, 0.01);
    const heat = data.nodes.find(n => n.id === 'heat')!;
    assert.deepEqual(
      heat.filteredCallees!.map(c => c.name),
      ['init_field', 'MPI_Barrier'],
      'what "Show filtered callees" lists under the root',
    );
    s = ok(
      applyCallflowRequest(
        s,
        { type: 'callflow/repopulate', nodeId: 'heat', function: 'MPI_Barrier' },
        graph(data),
        4,
        false,
      ),
    );
    assert.deepEqual(s.repopulate, [{ node: 'heat', function: 'MPI_Barrier' }]);
    assert.equal(
      applyCallflowRequest(
        s,
        { type: 'callflow/repopulate', nodeId: 'heat', function: 'MPI_Barrier' },
        graph(data),
        4,
        false,
      ),
      s,
      'asking twice changes nothing',
    );
    const again = superGraphData(profile, 't', graphPlan(s, base, 4, false).first);
    assert.ok(again.filter!.repopulatedNodes! > 0);
    assert.deepEqual(again.repopulate, [{ node: 'heat', function: 'MPI_Barrier' }]);
    assert.ok(
      !again.nodes.find(n => n.id === 'heat')!.filteredCallees!.some(c => c.name === 'MPI_Barrier'),
      'no longer folded',
    );
    // The same options are what a selection's questions are asked about (the graph on screen, all ranks).
    assert.deepEqual(shownOptions(s, base), graphPlan(s, base, 4, false).first);
    // Hide again: one, then a request that matches nothing says so.
    const hidden = ok(
      applyCallflowRequest(
        s,
        { type: 'callflow/unrepopulate', nodeId: 'heat', function: 'MPI_Barrier' },
        graph(again),
        4,
        false,
      ),
    );
    assert.deepEqual(hidden.repopulate, []);
    assert.match(
      (applyCallflowRequest(hidden, { type: 'callflow/unrepopulate' }, graph(again), 4, false) as { error: string })
        .error,
      /nothing is shown again/,
    );
    assert.deepEqual(
      superGraphData(profile, 't', graphPlan(hidden, base, 4, false).first).nodes.map(n => [n.id, n.inclusive]),
      data.nodes.map(n => [n.id, n.inclusive]),
      'hiding again gives the graph before',
    );
  });

  test('bad filter and repopulate requests say why and change nothing', async () => {
    const profile = await readProfile(samplePath);
    const data = superGraphData(profile, 't', { filter: { threshold: 0.01 } });
    const s0 = initialCallflowState();
    const err = (r: CallflowState | { error: string }) => (r as { error: string }).error;
    assert.match(
      err(
        applyCallflowRequest(s0, { type: 'callflow/filter', threshold: 1.5, by: 'inclusive' }, graph(data), 4, false),
      ),
      /between 0 and 100 %, not 150 %/,
    );
    assert.match(
      err(
        applyCallflowRequest(s0, { type: 'callflow/filter', threshold: NaN, by: 'inclusive' }, graph(data), 4, false),
      ),
      /between 0 and 100/,
    );
    assert.match(
      err(
        applyCallflowRequest(
          s0,
          { type: 'callflow/filter', threshold: 0.1, by: 'self' as 'inclusive' },
          graph(data),
          4,
          false,
        ),
      ),
      /"inclusive" or "exclusive" value, not "self"/,
    );
    assert.match(
      err(
        applyCallflowRequest(s0, { type: 'callflow/repopulate', nodeId: 'nope', function: 'f' }, graph(data), 4, false),
      ),
      /no node nope/,
    );
    assert.match(
      err(
        applyCallflowRequest(
          s0,
          { type: 'callflow/repopulate', nodeId: 'heat', function: 'jacobi_sweep' },
          graph(data),
          4,
          false,
        ),
      ),
      /jacobi_sweep is not among the functions the filter folded into heat/,
    );
    const leaf = data.nodes.find(n => !n.filteredCalleeCount)!;
    assert.match(
      err(
        applyCallflowRequest(
          s0,
          { type: 'callflow/repopulate', nodeId: leaf.id, function: 'f' },
          graph(data),
          4,
          false,
        ),
      ),
      /folded no function into/,
    );
  });

  test('the filter and repopulations are remembered per dataset; malformed entries are dropped', () => {
    const s = {
      ...initialCallflowState(),
      filter: { threshold: 0.005, by: 'exclusive' as const },
      repopulate: [{ node: 'a', function: 'f' }],
    };
    assert.equal(persistedFilterOf(initialCallflowState()), undefined, 'nothing to remember for the defaults');
    const stored = JSON.parse(JSON.stringify({ 'file:/x': persistedFilterOf(s) }));
    const back = parsePersistedFilters(stored);
    assert.deepEqual(initialCallflowState(back.get('file:/x')).filter, s.filter);
    assert.deepEqual(initialCallflowState(back.get('file:/x')).repopulate, s.repopulate);
    const messy = parsePersistedFilters({
      'file:/a': {
        filter: { threshold: 2, by: 'inclusive' },
        repopulate: [{ node: 'n', function: 3 }, null, { node: 'n', function: 'g' }],
      },
      'file:/b': 'nonsense',
      'file:/c': { filter: { threshold: 0.01, by: 'sideways' } },
    });
    assert.deepEqual([...messy.keys()], ['file:/a']);
    assert.deepEqual(messy.get('file:/a'), { filter: null, repopulate: [{ node: 'n', function: 'g' }] });
    assert.equal(parsePersistedFilters(undefined).size, 0);
    assert.equal(parsePersistedFilters([1, 2]).size, 0);
  });
});

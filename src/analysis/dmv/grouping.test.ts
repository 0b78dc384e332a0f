import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DmvIndex } from './dmv-index';
import { expandGroup, visibleEvents } from './grouping';
import { KinetoTraceWriter } from './testing/kineto-writer';
import { readGenerated } from './testing/read-trace';
import { manyLaunches } from './testing/scenarios';

describe('DMV event grouping', () => {
  it('shows up to 1,000 events one by one', async () => {
    const ix = new DmvIndex(await readGenerated(manyLaunches(400)));
    const v = visibleEvents(ix, ix.range);
    assert.equal(v.grouped, false);
    assert.equal(v.total, 1 + 2 * 400);
    assert.ok(v.items.every(i => i.type === 'event'));
  });

  it('groups more than 1,000 events by correlation: each launch with the kernel it started', async () => {
    const ix = new DmvIndex(await readGenerated(manyLaunches(800)));
    const v = visibleEvents(ix, ix.range);
    assert.equal(v.total, 1 + 2 * 800);
    assert.equal(v.grouped, true);
    assert.equal(v.depth, 1, 'the launches sit at depth 1 under the Python frame');
    const groups = v.items.flatMap(i => (i.type === 'group' ? [i.group] : []));
    assert.equal(groups.length, 800);
    assert.ok(v.items.length <= 1000);
    for (const g of groups) {
      assert.equal(g.label, 'cudaLaunchKernel');
      assert.equal(g.rows.length, 2);
      assert.deepEqual(g.classes, [0, 1, 1, 0]);
      assert.equal(g.tracks.length, 2, 'a CPU thread and a GPU stream');
    }
    // Items stay in time order; a double click puts a group's members in its place.
    const starts = v.items.map(i => (i.type === 'event' ? ix.trace.events.start[i.row]! : i.group.start));
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => a - b),
    );
    const opened = expandGroup(ix, v, groups[3]!.key);
    assert.equal(opened.items.length, v.items.length + 1);
    assert.equal(opened.items.filter(i => i.type === 'group').length, 799);
  });

  it('groups coarser when the fine level still shows too many', async () => {
    const w = new KinetoTraceWriter();
    // 30 operators, each launching 50 kernels: 30 + 1,500 runtime calls + 1,500 kernels.
    for (let op = 0; op < 30; op++) {
      const t0 = op * 10_000;
      w.op(`aten::op${op}`, t0, 9_000);
      for (let k = 0; k < 50; k++) {
        const t = t0 + 10 + k * 150;
        w.launch('cudaLaunchKernel', t, 20, { kind: 'kernel', ts: t + 30, dur: 100 });
      }
    }
    const ix = new DmvIndex(await readGenerated(w));
    const v = visibleEvents(ix, ix.range);
    assert.equal(v.total, 3030);
    assert.equal(v.depth, 0);
    assert.equal(v.items.length, 30);
    const first = v.items[0]!;
    assert.ok(first.type === 'group' && first.group.label === 'aten::op0' && first.group.rows.length === 101);
    // A window over one operator shows its 101 events one by one.
    const one = visibleEvents(ix, { start: 0, end: 9_000_000 });
    assert.equal(one.grouped, false);
    assert.equal(one.total, 101);
  });

  it('merges outermost contexts of a track by time when even they are too many', async () => {
    const w = new KinetoTraceWriter();
    for (let k = 0; k < 3000; k++) w.op(`op${k % 7}`, k * 10, 5, 'cpu_op', 1 + (k % 2));
    const ix = new DmvIndex(await readGenerated(w));
    const v = visibleEvents(ix, ix.range);
    assert.equal(v.total, 3000);
    assert.ok(v.items.length <= 1000, `${v.items.length} items`);
    const groups = v.items.flatMap(i => (i.type === 'group' ? [i.group] : []));
    assert.ok(groups.every(g => g.kind === 'span' && g.key < 0 && g.tracks.length === 1));
    assert.equal(
      v.items.reduce((n, i) => n + (i.type === 'group' ? i.group.rows.length : 1), 0),
      3000,
    );
    assert.match(groups[0]!.label, /^\d+ events$/);
  });
});

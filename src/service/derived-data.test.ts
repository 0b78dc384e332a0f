import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Profile } from '../analysis/model/profile';
import { lineCosts } from '../analysis/model/aggregates';
import { profileFromOutline } from '../analysis/model/test-profiles';
import { readProfile } from '../analysis/formats';
import { deriveData, packedLineCosts, sideBarLists, unpackLines } from './derived-data';
import { LocalAnalysisService } from './local-analysis-service';
import { transferables } from './shared-memory';

describe('deriveData (what the worker answers per dataset and metric)', () => {
  it('packs line costs and file functions that unpack to the same values as the model', () => {
    const p = profileFromOutline(
      'main a.c:1 = 1 1\n  solve a.c:10 = 5 1\n    kernel b.c:20 = 3 9\n  solve a.c:12 = 2 2\n',
      2,
    );
    const d = deriveData(p, 0);
    assert.equal(d.total, 24);
    assert.deepEqual(d.functions.names, ['main', 'solve', 'kernel']);
    const expected = lineCosts(p, 0);
    assert.deepEqual(d.lines.files, [...expected.keys()]);
    d.lines.files.forEach((f, k) => assert.deepEqual(unpackLines(d.lines, k), expected.get(f)));
    assert.equal(d.hottestLine, 12);
    // Functions per file with the smallest line seen: solve at a.c:10, not 12.
    const a = d.fileFunctions.files.indexOf('a.c');
    const inA = [...d.fileFunctions.fn.subarray(d.fileFunctions.start[a]!, d.fileFunctions.start[a + 1]!)].map(
      (f, j) => [d.functions.names[f], d.fileFunctions.near[d.fileFunctions.start[a]! + j]],
    );
    assert.deepEqual(inA, [
      ['main', 1],
      ['solve', 10],
    ]);
    // The side-bar lists are asked for separately (after the lenses), from the same totals.
    const lists = sideBarLists(p, 0, d.functions, { hotPathThreshold: 0.05, listLength: 10 });
    assert.deepEqual(
      lists.topFunctions.map(e => e.name),
      ['kernel', 'solve', 'main'],
    );
    assert.equal(lists.imbalance.entries[0]?.name, 'kernel');
    assert.equal('sideBar' in d, false, 'derive leaves the side bar out');
  });

  it("answers calls and every metric's total (the CodeLens and the hover read them instead of walking the tree)", () => {
    const p = profileFromOutline('main a.c:1 = 1 1\n  solve a.c:10 = 5 1\n', 2);
    const d = deriveData(p, 0);
    assert.deepEqual(d.metricTotals, [p.total(0)]);
    assert.equal(d.calls.length, d.functions.names.length);
    assert.ok(
      [...d.calls].every(c => Number.isNaN(c)),
      'an outline records no calls',
    );
  });

  it('packs the same line costs as lineCosts on a sampled profile (statements at many lines, several files)', async () => {
    const p = await readProfile(
      join(__dirname, '../../samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json'),
    );
    p.metrics.forEach((_, m) => {
      const packed = packedLineCosts(p, m);
      const expected = lineCosts(p, m);
      assert.ok(expected.size > 1);
      assert.deepEqual(packed.files, [...expected.keys()]);
      packed.files.forEach((f, k) => assert.deepEqual(unpackLines(packed, k), expected.get(f), f));
    });
  });
});

describe("the service's derive (what a worker answers and transfers)", () => {
  it("shares the per-node totals the host adopts and transfers the rest (the totals are the profile's cache)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-derive-'));
    const file = join(dir, 'p.folded');
    writeFileSync(file, 'main;solve;kernel 3\nmain;solve 5\nmain 1\n');
    try {
      const service = new LocalAnalysisService();
      const opened = await service.open({ path: file });
      const d = await service.derive({
        dataset: opened.dataset,
        metric: 0,
      });
      assert.ok(d.nodeTotals.inclusive.buffer instanceof SharedArrayBuffer, 'shared with the host');
      const buffers = transferables(d);
      assert.ok(
        !buffers.some(
          b => (b as unknown) === d.nodeTotals.inclusive.buffer || (b as unknown) === d.nodeTotals.exclusive.buffer,
        ),
      );
      assert.ok(buffers.includes(d.functions.exclusive.buffer as ArrayBuffer), 'the rest is transferred');
      // The host's model over the same data adopts them: the same arrays, no pass of its own.
      const host = new Profile(opened.data);
      host.adoptTotals(0, d.nodeTotals);
      assert.equal(host.inclusiveTotals(0), d.nodeTotals.inclusive);
      assert.equal(host.total(0), 9);
      assert.throws(
        () => host.adoptTotals(0, { inclusive: new Float64Array(2), exclusive: new Float64Array(3) }),
        /2 per-node totals for \d+ nodes/,
      );
      assert.throws(() => host.adoptTotals(5, d.nodeTotals), /metric 5 out of range/);
      await service.close({ dataset: opened.dataset });
      await assert.rejects(
        service.sideBar({ dataset: opened.dataset, metric: 0, options: { hotPathThreshold: 0.05, listLength: 10 } }),
        /not loaded/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the service's diff (packed for the host)", () => {
  it('packs functions and lines into columns that unpack to the comparison the analysis computed', async () => {
    const { diffProfiles } = await import('../analysis/graph/profile-diff');
    const { diffSummary, diffFunctionAt, diffLinesOf } = await import('./diff-summary');
    const base = profileFromOutline('main a.c:1 = 1 1\n  solve a.c:10 = 5 1\n    kernel b.c:20 = 3 9\n', 2);
    const comp = profileFromOutline('main a.c:1 = 1 1\n  solve a.c:10 = 9 1\n    extra b.c:30 = 2 2\n', 2);
    const full = diffProfiles(base, comp, base.metrics[0]!.name);
    const packed = diffSummary(base, comp, base.metrics[0]!.name);
    assert.equal(packed.matchedNodes, full.nodes.length);
    assert.deepEqual(
      packed.functions.names.map((_, f) => diffFunctionAt(packed, f)),
      full.functions,
    );
    assert.deepEqual(packed.lines.files, [...full.lines.keys()]);
    packed.lines.files.forEach((file, k) => assert.deepEqual(diffLinesOf(packed, k), full.lines.get(file)));
    assert.ok(full.functions.some(f => f.status === 'added') && full.functions.some(f => f.status === 'removed'));
  });
});

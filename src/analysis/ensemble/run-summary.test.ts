import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readProfile } from '../formats';
import type { Profile } from '../model/profile';
import { buildEnsemble } from './ensemble';
import {
  decodeRunSummary,
  encodeRunSummary,
  RANK_DETAIL_ALL_BELOW,
  readSummaryHeader,
  READER_VERSION,
  SUMMARY_FORMAT_VERSION,
  SummaryError,
  SummaryPool,
  summaryKeyOf,
  type SummaryKey,
} from './run-summary';
import { generateSyntheticEnsemble } from './testing/synthetic-ensemble';

const KEY: SummaryKey = { path: '/runs/a.json', size: 1234, mtimeMs: 1_700_000_000_000, reader: READER_VERSION };

function roundTrip(p: Profile): Profile {
  return decodeRunSummary(encodeRunSummary(p, KEY), 'a.hlsum').profile;
}

function assertSameRun(a: Profile, b: Profile): void {
  assert.equal(b.tree.size, a.tree.size);
  for (const col of ['parent', 'name', 'file', 'line', 'module', 'callLine', 'kind'] as const)
    assert.deepEqual(b.tree.columns[col], a.tree.columns[col], col);
  assert.deepEqual(b.data.strings, a.data.strings);
  assert.deepEqual(b.contexts, a.contexts);
  assert.deepEqual(b.metrics, a.metrics);
  assert.deepEqual(b.metadata, a.metadata);
  assert.equal(b.format, a.format);
  assert.equal(b.path, a.path);
  for (let m = 0; m < a.metrics.length; m++) {
    // Exclusive totals are stored; inclusive ones of an exclusive-recorded metric are re-summed.
    assert.deepEqual(b.exclusiveTotals(m), a.exclusiveTotals(m));
    const x = a.inclusiveTotals(m),
      y = b.inclusiveTotals(m);
    if (a.metrics[m]!.kind !== 'exclusive') assert.deepEqual(y, x);
    for (let i = 0; i < x.length; i++)
      assert.ok(Math.abs(x[i]! - y[i]!) <= 1e-12 * Math.abs(x[i]!), `node ${i}: ${x[i]} vs ${y[i]}`);
  }
}

describe('run summaries', () => {
  it('round-trips a small run exactly: tree, strings, contexts, metadata, totals and every per-rank value', () => {
    const { runs } = generateSyntheticEnsemble({ runs: 2, nodes: 200, maxContexts: 4, seed: 3 });
    const p = runs[1]!.profile;
    assert.ok(p.tree.size <= RANK_DETAIL_ALL_BELOW);
    const q = roundTrip(p);
    assertSameRun(p, q);
    assert.deepEqual(q.inclusive(0), p.inclusive(0));
    assert.deepEqual(q.exclusive(0), p.exclusive(0));
  });

  it('keeps per-rank values of the heavy nodes of a large run and the mean elsewhere; totals stay exact', () => {
    const { runs } = generateSyntheticEnsemble({ runs: 1, nodes: 5000, maxContexts: 4, seed: 5 });
    const p = runs[0]!.profile;
    const bytes = encodeRunSummary(p, KEY);
    const { header } = readSummaryHeader(bytes, 'a.hlsum');
    assert.ok(
      header.rankDetailNodes > 0 && header.rankDetailNodes < p.tree.size,
      `${header.rankDetailNodes} detail nodes`,
    );
    const q = decodeRunSummary(bytes, 'a.hlsum').profile;
    assertSameRun(p, q);
    const C = p.contextCount;
    const total = p.total(0);
    const inc = p.inclusive(0),
      incQ = q.inclusive(0),
      totals = p.inclusiveTotals(0);
    let exact = 0,
      flat = 0;
    for (let i = 0; i < p.tree.size; i++) {
      const row = [...inc.subarray(i * C, (i + 1) * C)],
        rowQ = [...incQ.subarray(i * C, (i + 1) * C)];
      if (totals[i]! >= total * 0.001) {
        assert.deepEqual(rowQ, row, `node ${i} carries ≥ 0.1 % and keeps its ranks`);
        exact++;
      } else {
        for (const v of rowQ) assert.ok(Math.abs(v - totals[i]! / C) <= 1e-15 * Math.abs(totals[i]!));
        flat++;
      }
    }
    assert.ok(exact > 0 && flat > 0);
  });

  it('reads single per-rank rows without building the matrix, equal to the matrix rows', () => {
    const { runs } = generateSyntheticEnsemble({ runs: 1, nodes: 5000, maxContexts: 4, seed: 5 });
    const p = runs[0]!.profile;
    const bytes = encodeRunSummary(p, KEY);
    const rowsOnly = decodeRunSummary(bytes, 'a.hlsum').profile,
      withMatrix = decodeRunSummary(bytes, 'a.hlsum').profile;
    const C = p.contextCount;
    const row = new Float64Array(C);
    for (const side of ['inclusive', 'exclusive'] as const) {
      const matrix = side === 'inclusive' ? withMatrix.inclusive(0) : withMatrix.exclusive(0);
      for (let i = 0; i < p.tree.size; i++) {
        rowsOnly.contextRow(side, 0, i, row);
        assert.deepEqual([...row], [...matrix.subarray(i * C, (i + 1) * C)], `${side} row of node ${i}`);
        // A profile with its matrix answers from it.
        withMatrix.contextRow(side, 0, i, row);
        assert.deepEqual([...row], [...matrix.subarray(i * C, (i + 1) * C)]);
      }
    }
  });

  it('an ensemble built from summaries equals the one built from the profiles', () => {
    const { runs } = generateSyntheticEnsemble({ runs: 6, nodes: 2000, maxContexts: 3, seed: 9 });
    const fromSummaries = runs.map(r => ({ run: r.run, profile: roundTrip(r.profile) }));
    const a = buildEnsemble(runs),
      b = buildEnsemble(fromSummaries);
    assert.equal(b.size, a.size);
    assert.deepEqual(b.exclusive, a.exclusive);
    for (let k = 0; k < a.inclusive.length; k++)
      assert.ok(
        Math.abs(a.inclusive[k]! - b.inclusive[k]!) <= 1e-12 * Math.abs(a.inclusive[k]!) ||
          (a.inclusive[k] !== a.inclusive[k] && b.inclusive[k] !== b.inclusive[k]),
      );
    assert.deepEqual(b.presentCount, a.presentCount);
  });

  it('summaries decoded with one pool share the tree of runs whose tree section is the same', () => {
    const { runs } = generateSyntheticEnsemble({ runs: 8, nodes: 400, maxContexts: 2, missingSubtrees: 1, seed: 2 });
    const pool = new SummaryPool();
    const decoded = runs.map(r => decodeRunSummary(encodeRunSummary(r.profile, KEY), 'a.hlsum', { pool }).profile);
    decoded.forEach((q, k) => assertSameRun(runs[k]!.profile, q));
    // Runs with equal columns decode to the very same arrays; others to their own.
    for (let a = 0; a < runs.length; a++)
      for (let b = a + 1; b < runs.length; b++) {
        const equal = ['parent', 'name', 'module'].every(c => {
          const x = runs[a]!.profile.tree.columns[c as 'parent'],
            y = runs[b]!.profile.tree.columns[c as 'parent'];
          return x.length === y.length && x.every((v, i) => v === y[i]);
        });
        if (equal && runs[a]!.profile.data.strings.join('\n') === runs[b]!.profile.data.strings.join('\n')) {
          assert.equal(decoded[b]!.tree.columns.parent, decoded[a]!.tree.columns.parent, `runs ${a}, ${b}`);
        } else assert.notEqual(decoded[b]!.tree.columns.parent, decoded[a]!.tree.columns.parent);
      }
    assert.ok(
      decoded.some((q, k) => k > 0 && q.tree.columns.parent === decoded[0]!.tree.columns.parent),
      'some run shares the first run’s tree',
    );
  });

  it('refuses what is not a whole summary of this version, naming the file and the reason', () => {
    const { runs } = generateSyntheticEnsemble({ runs: 1, nodes: 300, seed: 1 });
    const good = encodeRunSummary(runs[0]!.profile, KEY);
    const reasonOf = (bytes: Uint8Array): string => {
      try {
        decodeRunSummary(bytes, 'x.hlsum');
      } catch (e) {
        assert.ok(e instanceof SummaryError, String(e));
        assert.match(e.message, /^x\.hlsum: /);
        return e.reason;
      }
      return 'decoded';
    };
    assert.equal(reasonOf(good), 'decoded');
    assert.equal(reasonOf(new Uint8Array(0)), 'truncated');
    assert.equal(reasonOf(new TextEncoder().encode('{"data": [], "columns": [], "nodes": []}')), 'not a summary');
    assert.equal(reasonOf(good.subarray(0, 20)), 'truncated', 'cut inside the header');
    for (const cut of [good.length >> 1, good.length - 3]) assert.equal(reasonOf(good.subarray(0, cut)), 'truncated');
    const otherVersion = good.slice();
    new DataView(otherVersion.buffer).setUint32(8, SUMMARY_FORMAT_VERSION + 1, true);
    assert.equal(reasonOf(otherVersion), 'other version');
    // A flipped byte inside the deflated payload: the stream or its Adler-32 check fails.
    for (const at of [good.length - 40, good.length - 200]) {
      const flipped = good.slice();
      flipped[at]! ^= 0x5a;
      assert.ok(['corrupt', 'truncated'].includes(reasonOf(flipped)), `flip at ${at}`);
    }
  });

  it('keys a profile by path, size, mtime and reader version', async () => {
    const file = sharedPath('data', 'caliper-json', 'lulesh-mpi-scaling-5runs', '27_cores.json');
    if (skipUnlessShared('data', 'caliper-json', 'lulesh-mpi-scaling-5runs')) return;
    const key = await summaryKeyOf(file);
    assert.equal(key.path, file);
    assert.equal(key.size, statSync(file).size);
    assert.equal(key.reader, READER_VERSION);
  });

  for (const folder of [
    'data/caliper-json/rajaperf-quartz-seq-ensemble',
    'data/caliper-json/lulesh-mpi-scaling-5runs',
  ]) {
    it(
      `summarises the shared ${folder} runs exactly and reports their size`,
      { skip: skipUnlessShared(folder) },
      async () => {
        let profileBytes = 0,
          summaryBytes = 0;
        for (const rel of sharedFiles(folder, '.json')) {
          const file = sharedPath(folder, rel);
          const p = await readProfile(file);
          const bytes = encodeRunSummary(p, await summaryKeyOf(file));
          assertSameRun(p, decodeRunSummary(bytes, rel).profile);
          profileBytes += statSync(file).size;
          summaryBytes += bytes.length;
        }
        // Real profiles here are small (10–40 KB) with few nodes; the summary still shrinks them.
        console.log(
          `    ${folder}: summaries ${summaryBytes} B = ${((100 * summaryBytes) / profileBytes).toFixed(1)} % of ${profileBytes} B of profiles`,
        );
        assert.ok(summaryBytes < profileBytes);
      },
    );
  }
});

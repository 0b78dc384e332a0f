import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readProfile } from '../formats';
import { profileFromOutline } from '../model/test-profiles';
import { diffLists, functionsByDelta } from './diff-lists';
import {
  diffSummaryToCsv,
  diffSummaryToMarkdown,
  DIFF_SUMMARY_CSV_COLUMNS,
  summarizeDiff,
} from './diff-summary-export';
import { diffProfiles } from './profile-diff';

const LULESH = 'data/caliper-json/lulesh-mpi-scaling-5runs';

const base = () =>
  profileFromOutline(
    `
main a.c:1 = 1 1
  solve a.c:10
    a.c:12 a.c:12 = 30 10
    a.c:13 a.c:13 = 5 5
  io b.c:5 = 2 6`,
    2,
  );
// 4 ranks: a.c:12 slower per rank, io faster, plot new.
const compared = () =>
  profileFromOutline(
    `
main a.c:1 = 1 1 1 1
  solve a.c:10
    a.c:12 a.c:12 = 40 20 20 20
    a.c:13 a.c:13 = 5 5 5 5
  io b.c:5 = 1 1 1 1
  plot c.c:3 = 2 2 2 2`,
    4,
  );

describe('comparison lists', () => {
  it('rank by the size of the change, with both values (means over each run’s contexts)', () => {
    const b = base(),
      c = compared();
    const d = diffProfiles(b, c);
    const lists = diffLists(b, c, d, { threshold: 0.05, limit: 10 });
    // a.c:12: 20 → 25 per rank (+5); io 4 → 1 (−3); plot 0 → 2 (+2); a.c:13 unchanged.
    assert.deepEqual(
      lists.topLines.map(r => [r.name, r.baseline, r.comparison, r.delta, r.status]),
      [
        ['a.c:12', 20, 25, 5, 'matched'],
        ['b.c:5', 4, 1, -3, 'matched'],
        ['c.c:3', 0, 2, 2, 'added'],
      ],
    );
    assert.deepEqual(
      lists.topFunctions.map(r => [r.name, r.delta, r.file, r.line]),
      [
        ['solve', 5, 'a.c', 10],
        ['io', -3, 'b.c', 5],
        ['plot', 2, 'c.c', 3],
      ],
    );
    // The change concentrates along main → solve → a.c:12.
    assert.deepEqual(
      lists.hotPath.map(r => [r.name, r.delta]),
      [
        ['main', 4],
        ['solve', 5],
        ['a.c:12', 5],
      ],
    );
    // Imbalance of each run: a.c:12 30/10 on 2 ranks (1.5×) → 40/20/20/20 (1.6×).
    const row = lists.imbalance.find(r => r.name === 'solve')!;
    assert.equal(row.baseline?.imbalance, 35 / 25);
    assert.equal(row.comparison?.compared, 4);
    assert.equal(lists.lineInfo, 'lines');
    // Every function, unchanged ones too, for `hpc-lens diff`.
    assert.deepEqual(
      functionsByDelta(d).map(f => f.name),
      ['solve', 'io', 'plot', 'main'],
    );
  });

  it('exports the comparison: both files, both totals, the changes', () => {
    const s = summarizeDiff(base(), compared());
    const text = diffSummaryToMarkdown(s);
    assert.deepEqual(
      text.split('\n').filter(l => l.startsWith('#')),
      [
        '# HPC Lens comparison',
        '## Hot path of the change',
        '## Top lines by change',
        '## Top functions by change',
        '## Load imbalance by change',
      ],
    );
    assert.ok(text.includes('total 30 s → 34 s, Δ +4 s (+13%)'), text);
    assert.ok(text.includes('| 1 | a.c:12 | 20 s | 25 s | +5 s (+25%) |'), text);
    const csv = diffSummaryToCsv(s).split('\r\n');
    assert.equal(csv[0], DIFF_SUMMARY_CSV_COLUMNS.join(','));
    assert.ok(csv[1]!.startsWith('total,1,,,,time,s,30,34,4,,<outline>,<outline>'), csv[1]);
  });

  it(
    'LULESH 27 vs 343 ranks: +5.39 s, MPI_Allreduce first; no lines to rank',
    { skip: skipUnlessShared(LULESH) },
    async () => {
      const [b, c] = await Promise.all(
        ['27_cores.json', '343_cores.json'].map(f => readProfile(sharedPath(LULESH, f))),
      );
      const s = summarizeDiff(b!, c!);
      assert.ok(Math.abs(s.baseline.total - 47.250802) < 1e-9 && Math.abs(s.comparison.total - 52.643872) < 1e-9);
      assert.equal(s.lists.topFunctions[0]!.name, 'MPI_Allreduce');
      assert.deepEqual(s.lists.topLines, []);
      assert.equal(s.lists.lineInfo, 'none');
      assert.deepEqual(
        s.lists.hotPath.map(r => r.name),
        ['main', 'lulesh.cycle', 'TimeIncrement', 'MPI_Allreduce'],
      );
      assert.ok(diffSummaryToMarkdown(s).includes('Neither run records source lines'));
    },
  );
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readProfile } from '../formats';
import { profileFromOutline } from '../model/test-profiles';
import { csvCell, md, SUMMARY_CSV_COLUMNS, summarizeProfile, summaryToCsv, summaryToMarkdown } from './summary-export';
import { twoRankProfile } from './test-fixtures';

/** RFC 4180 reader, enough to check what summaryToCsv writes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [],
    cell = '',
    quoted = false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if (quoted) {
      if (c === '"' && text[k + 1] === '"') {
        cell += '"';
        k++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[k + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      k++;
    } else cell += c;
  }
  return rows;
}

describe('summary export', () => {
  it('writes the documented Markdown layout', () => {
    const text = summaryToMarkdown(summarizeProfile(twoRankProfile(), 0, { limit: 2 }));
    assert.deepEqual(
      text.split('\n').filter(l => l.startsWith('#')),
      [
        '# HPC Lens summary',
        '## Hot path',
        '## Top lines (statement level)',
        '## Top functions',
        '## Load imbalance',
        '## Function imbalance',
        '## Single-context functions',
      ],
    );
    assert.ok(text.includes('- **Metric:** time (s), total 60.5 s\n'));
    assert.ok(
      text.includes(
        [
          '| Depth | Node | Location | Inclusive | Share | Exclusive |',
          '| --- | --- | --- | --- | --- | --- |',
          '| 0 | main | a.c:1 | 60.5 s | 100% | 2 s |',
          '| 1 | solve | a.c:10 | 50 s | 83% | 0 s |',
          '| 2 | a.c:12 | a.c:12 | 40 s | 66% | 40 s |',
        ].join('\n'),
      ),
    );
    assert.ok(text.includes('| 1 | a.c:12 | 40 s | 0 s | 66% | 10 s | 20 s | 30 s |'));
    assert.ok(text.includes('| 1 | solve | a.c:10 | 50 s | 50 s | 83% | 15 s | 25 s | 35 s |'));
    assert.ok(
      text.includes(
        '| 1 | a.c:12 | main › solve › a.c:12 | 1.50× | 2 ranks | 10 s | 20 s | 30 s | rank 0 | 66% | 33% |',
      ),
    );
    assert.ok(text.endsWith('## Single-context functions\n\n_None._\n'));
  });

  it('escapes Markdown and says None for empty sections', () => {
    const p = profileFromOutline('std::vector<int>|x_y *ptr = 1');
    const text = summaryToMarkdown(summarizeProfile(p, 0));
    assert.ok(text.includes('| 0 | std::vector\\<int\\>\\|x\\_y |'), text);
    assert.equal(md('a\\b `c` [d](e) &amp;\nnext'), 'a\\\\b \\`c\\` \\[d\\](e) \\&amp; next');
    const empty = summaryToMarkdown(summarizeProfile(profileFromOutline(''), 0));
    assert.equal(empty.match(/_None\._/g)!.length, 6);
  });

  it('writes one RFC 4180 table with a stable header', () => {
    const csv = summaryToCsv(summarizeProfile(twoRankProfile(), 0, { limit: 1 }));
    const rows = parseCsv(csv);
    assert.equal(csv.split('\r\n')[0], SUMMARY_CSV_COLUMNS.join(','));
    assert.ok(rows.every(r => r.length === SUMMARY_CSV_COLUMNS.length));
    const col = (r: string[], c: (typeof SUMMARY_CSV_COLUMNS)[number]) => r[SUMMARY_CSV_COLUMNS.indexOf(c)];
    assert.deepEqual(
      rows.slice(1).map(r => col(r, 'section')),
      ['hot-path', 'hot-path', 'hot-path', 'top-lines', 'top-functions', 'imbalance', 'function-imbalance'],
    );
    const imbalanced = rows.find(r => col(r, 'section') === 'imbalance')!;
    assert.deepEqual(
      ['name', 'imbalance', 'max_context', 'context_kind', 'compared', 'severity'].map(c =>
        col(imbalanced, c as (typeof SUMMARY_CSV_COLUMNS)[number]),
      ),
      ['a.c:12', '1.5', 'rank 0', 'rank', '2', String(0.5 * (40 / 60.5))],
    );
    assert.deepEqual(rows[3], [
      'hot-path',
      '1',
      'a.c:12',
      'main > solve > a.c:12',
      'a.c',
      '12',
      'time',
      's',
      '40',
      String(40 / 60.5),
      '40',
      '40',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
    ]);
    assert.deepEqual(rows[4], [
      'top-lines',
      '1',
      '',
      '',
      'a.c',
      '12',
      'time',
      's',
      '40',
      String(40 / 60.5),
      '40',
      '40',
      '0',
      '10',
      '20',
      '30',
      '1.5',
      'rank 0',
      '',
      '',
      '',
    ]);
  });

  it('quotes cells that need it', () => {
    assert.deepEqual(['plain', 'a,b', 'say "hi"', 'two\nlines', ' edge', 3.5, null].map(csvCell), [
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '" edge"',
      '3.5',
      '',
    ]);
    const p = profileFromOutline('f,"g" = 1');
    const rows = parseCsv(summaryToCsv(summarizeProfile(p, 0)));
    assert.equal(rows[1]![2], 'f,"g"');
  });

  it('summarizes a real Caliper profile', async () => {
    const p = await readProfile('samples/heat-stencil/profiles/heat-stencil-regions-4ranks.json');
    const s = summarizeProfile(p, p.primaryMetric);
    assert.deepEqual(
      s.hotPaths.map(path => path.map(step => p.tree.name(step.node))),
      [['main', 'timestep', 'jacobi_sweep']],
    );
    const rows = parseCsv(summaryToCsv(s));
    assert.ok(rows.length > 10 && rows.every(r => r.length === SUMMARY_CSV_COLUMNS.length));
    assert.ok(
      summaryToMarkdown(s).includes(
        '| 4 | checkpoint | main › timestep › checkpoint | 3.48× | 4 ranks | 3.36 ms | 26 ms | 90.4 ms | rank 0 | 1.7% | 4.2% |',
      ),
    );
  });
});

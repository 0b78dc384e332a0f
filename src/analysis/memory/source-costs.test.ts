import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prepareMemoryAnalysis } from './memory-analysis';
import { formatCycles, isKnownLine, lineAnnotation, lineCosts, topOffenders, variableCosts } from './source-costs';
import { memorySamplesFrom } from './testing/synthetic-memory';

// a.c:10 reads `count` 4 times at 10 cycles; a.c:20 reads `slow` twice, once from L3 and once from RAM;
// b.c:5 reads `count` once; ??:0 one unresolved load.
const samples = memorySamplesFrom({
  cpu: [0, 0, 0, 0, 1, 1, 1, 2],
  latency: [10, 10, 10, 10, 200, 400, 7, 3],
  level: [1, 1, 1, 1, 3, 4, 2, 0],
  variable: ['count', 'count', 'count', 'count', 'slow', 'slow', 'count', '??'],
  file: ['a.c', 'a.c', 'a.c', 'a.c', 'a.c', 'a.c', 'b.c', '??'],
  line: [10, 10, 10, 10, 20, 20, 5, 0],
});
const analysis = prepareMemoryAnalysis(samples, null);

describe('top offenders', () => {
  it('rank lines and variables by cycles, not by count', () => {
    const lines = lineCosts(analysis, null);
    assert.deepEqual(
      lines.map(l => [l.file, l.line, l.cycles, l.samples]),
      [
        ['a.c', 20, 600, 2],
        ['a.c', 10, 40, 4],
        ['b.c', 5, 7, 1],
        ['??', 0, 3, 1],
      ],
    );
    assert.deepEqual(
      variableCosts(analysis, null).map(v => [v.name, v.cycles, v.samples]),
      [
        ['slow', 600, 2],
        ['count', 47, 5],
        ['??', 3, 1],
      ],
    );
  });

  it('split each line and variable over serving levels (0 unresolved, 1 L1 … 4 RAM)', () => {
    const slow = lineCosts(analysis, null)[0]!;
    assert.deepEqual(slow.levelSamples, [0, 0, 0, 1, 1]);
    assert.deepEqual(slow.levelCycles, [0, 0, 0, 200, 400]);
    const count = variableCosts(analysis, null)[1]!;
    assert.deepEqual(count.levelSamples, [0, 4, 1, 0, 0]);
  });

  it('group the top lines under the top files, and give the selection its share of all cycles', () => {
    const top = topOffenders(analysis, { visible: null, selected: null }, { files: 2, linesPerFile: 1, variables: 1 });
    assert.deepEqual(
      top.files.map(f => [f.file, f.cycles, f.lines.map(l => l.line)]),
      [
        ['a.c', 640, [20]],
        ['b.c', 7, [5]],
      ],
    );
    assert.deepEqual(
      top.variables.map(v => v.name),
      ['slow'],
    );
    assert.deepEqual(top.focus, { samples: 8, cycles: 650, share: 1 });
    const sel = topOffenders(analysis, { visible: null, selected: Int32Array.of(0, 1, 6) });
    assert.deepEqual(sel.focus, { samples: 3, cycles: 27, share: 27 / 650 });
    assert.deepEqual(
      sel.variables.map(v => [v.name, v.cycles]),
      [['count', 27]],
    );
    assert.deepEqual(
      sel.files.map(f => f.file),
      ['a.c', 'b.c'],
    );
  });

  it('write the after-line text with cycles and the L3 and RAM shares', () => {
    const [slow, count] = lineCosts(analysis, null);
    assert.equal(lineAnnotation(slow!), '⏱ 600 cyc · L3 50 % · RAM 50 %');
    assert.equal(lineAnnotation(count!), '⏱ 40 cyc · L1 100 %');
    assert.equal(
      lineAnnotation({ cycles: 307110, samples: 100, levelSamples: [10, 20, 20, 41, 9] }),
      '⏱ 307 k cyc · L3 41 % · RAM 9 %',
    );
    assert.ok(isKnownLine(slow!));
    assert.ok(!isKnownLine(lineCosts(analysis, null)[3]!));
  });

  it('format cycles with three significant digits', () => {
    assert.deepEqual([950, 3136, 307110, 1022618, 2.5e9].map(formatCycles), [
      '950 cyc',
      '3.14 k cyc',
      '307 k cyc',
      '1.02 M cyc',
      '2.5 G cyc',
    ]);
  });
});

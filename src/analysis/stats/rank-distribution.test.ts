import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SaxesParser } from 'saxes';
import { profileFromOutline } from '../model/test-profiles';
import {
  distributionOf,
  functionDistribution,
  histogram,
  nodeDistribution,
  sortedBarSparkline,
} from './rank-distribution';
import { callLineProfile, twoRankProfile } from './test-fixtures';

/** Parses an SVG string as XML and returns the root element's name and attributes. */
function parseSvg(svg: string): { name: string; attributes: Record<string, string>; elements: string[] } {
  const parser = new SaxesParser({ xmlns: false });
  const elements: string[] = [];
  let root: { name: string; attributes: Record<string, string> } | undefined;
  parser.on('opentag', t => {
    elements.push(t.name);
    root ??= { name: t.name, attributes: t.attributes as Record<string, string> };
  });
  parser.on('error', e => {
    throw e;
  });
  parser.write(svg).close();
  return { ...root!, elements };
}

describe('rank distribution', () => {
  it('sorts a node or function per-context values, lower context first on ties', () => {
    const d = nodeDistribution(twoRankProfile(), 0, 2);
    assert.deepEqual(
      [[...d.values], [...d.order], [...d.sorted]],
      [
        [30, 10],
        [1, 0],
        [10, 30],
      ],
    );
    assert.deepEqual(d.histogram, { edges: [10, 20, 30], counts: [1, 1] });
    assert.deepEqual([...nodeDistribution(twoRankProfile(), 0, 1, 'exclusive').values], [0, 0]);
    assert.deepEqual([...distributionOf(Float64Array.from([2, 1, 2])).order], [1, 0, 2]);
    assert.deepEqual([...functionDistribution(callLineProfile(), 0, 'work')!.sorted], [19, 29]);
    assert.deepEqual([...functionDistribution(twoRankProfile(), 0, 'solve', 'exclusive')!.values], [35, 15]);
    assert.equal(functionDistribution(twoRankProfile(), 0, 'nope'), null);
    assert.throws(() => nodeDistribution(twoRankProfile(), 0, 99), RangeError);
  });

  it('bins by Freedman–Diaconis, Sturges when the IQR is 0, capped', () => {
    const uniform = Array.from({ length: 1000 }, (_, k) => k);
    const fd = histogram(uniform);
    assert.equal(fd.counts.length, 10, '999 / (2 · 499.5 / 10) → 10 bins');
    assert.deepEqual(fd.counts, new Array(10).fill(100));
    assert.equal(fd.edges.at(-1), 999);
    assert.equal(histogram(uniform, 3).counts.length, 3);
    assert.deepEqual(histogram([1, 1, 1, 1, 10]), { edges: [1, 3.25, 5.5, 7.75, 10], counts: [4, 0, 0, 1] });
    assert.deepEqual(histogram([5, 5, 5]), { edges: [5, 5], counts: [3] });
    assert.deepEqual(histogram([7]), { edges: [7, 7], counts: [1] });
    assert.deepEqual(histogram([]), { edges: [], counts: [] });
    // A long tail: FD would ask for far more bins than a hover can show.
    const tail = [...Array.from({ length: 100 }, (_, k) => k / 100), 1e6];
    assert.equal(histogram(tail).counts.length, 30);
  });

  it('renders a fixed-size, themable, valid standalone SVG', () => {
    const svg = sortedBarSparkline([1, 2, 3, 6], { title: 'time <per rank> & "more"' });
    const doc = parseSvg(svg);
    assert.equal(doc.name, 'svg');
    assert.deepEqual(
      [doc.attributes.xmlns, doc.attributes.width, doc.attributes.height, doc.attributes.viewBox],
      ['http://www.w3.org/2000/svg', '120', '24', '0 0 120 24'],
    );
    assert.deepEqual(doc.elements, ['svg', 'title', 'path', 'line']);
    assert.match(svg, /fill="currentColor"/);
    assert.match(
      svg,
      /<path fill="currentColor" fill-opacity="0.8" d="M0 24V20H30V24ZM30 24V16H60V24ZM60 24V12H90V24ZM90 24V0H120V24Z"\/>/,
    );
    assert.match(svg, /y1="12" y2="12"/, 'the mean, 3, at half the max');
    // Thousands of ranks still give one bar per pixel, and the largest value survives.
    const many = sortedBarSparkline(
      Array.from({ length: 5000 }, (_, k) => k),
      { width: 50, height: 10, color: 'red' },
    );
    assert.equal(many.match(/M/g)!.length, 50);
    assert.match(many, /M49 10V0H50V10Z/);
    assert.equal(parseSvg(many).attributes.width, '50');
    for (const edge of [[], [0, 0], [-1, 2]]) parseSvg(sortedBarSparkline(edge));
    assert.equal(
      sortedBarSparkline([]),
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="24" viewBox="0 0 120 24" role="img"></svg>',
    );
  });

  it('handles a single-context profile', () => {
    const d = nodeDistribution(profileFromOutline('a = 4'), 0, 0);
    assert.deepEqual([[...d.sorted], d.histogram], [[4], { edges: [4, 4], counts: [1] }]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attributeHistogram, attributeHistograms, samplesInRanges } from './attribute-histograms';
import { prepareMemoryAnalysis } from './memory-analysis';
import { findAttribute } from './model/memory-samples';
import { memorySamplesFrom } from './testing/synthetic-memory';

const samples = memorySamplesFrom({
  cpu: [0, 1, 2, 3, 4],
  latency: [10, 20, 30, 40, 100],
  level: [1, 1, 2, 3, 4],
  variable: ['b', 'a', 'b', 'c', 'a'],
});
const analysis = prepareMemoryAnalysis(samples, null);
const latency = findAttribute(samples, 'latency')!;
const variable = findAttribute(samples, 'variable')!;

describe('parallel histograms', () => {
  it('bin numbers equally over the visible range, the selection apart', () => {
    const h = attributeHistogram(latency, { visible: null, selected: Int32Array.of(3, 4) }, 9);
    assert.deepEqual([h.min, h.max], [10, 100]);
    assert.deepEqual([...h.visible], [1, 1, 1, 1, 0, 0, 0, 0, 1]);
    assert.deepEqual([...h.selected!], [0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('give string attributes one bin per category in order of first appearance', () => {
    const h = attributeHistogram(variable, { visible: Int32Array.of(0, 1, 2, 3), selected: null });
    assert.deepEqual(h.categories, ['b', 'a', 'c']);
    assert.deepEqual([...h.visible], [2, 1, 1]);
    assert.equal(h.selected, null);
  });

  it('histogram every attribute with 100 bins by default', () => {
    const all = attributeHistograms(analysis, { visible: null, selected: null });
    assert.deepEqual(
      all.map(h => h.attribute),
      samples.attributes.map(a => a.name),
    );
    assert.equal(all.find(h => h.attribute === 'latency')!.visible.length, 100);
  });

  it('select the samples inside every brushed range', () => {
    const cpu = findAttribute(samples, 'cpu')!;
    assert.deepEqual([...samplesInRanges(analysis, [{ attribute: latency, min: 15, max: 100 }])], [1, 2, 3, 4]);
    assert.deepEqual(
      [
        ...samplesInRanges(analysis, [
          { attribute: latency, min: 15, max: 100 },
          { attribute: cpu, min: 0, max: 2 },
        ]),
      ],
      [1, 2],
    );
    assert.deepEqual(
      [...samplesInRanges(analysis, [{ attribute: variable, min: 1, max: 1 }], Int32Array.of(0, 1, 4))],
      [1, 4],
    );
    assert.equal(samplesInRanges(analysis, []).length, 5);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { layerOffsets, rawLayerGap } from './layer-spacing';

describe('adaptive layer spacing', () => {
  test('the raw gap before layer l is l^k · max(n_l, n_{l−1})', () => {
    const counts = [1, 4, 9, 2];
    assert.equal(rawLayerGap(1, counts, 0.5), 4);
    assert.equal(rawLayerGap(2, counts, 0.5), Math.SQRT2 * 9);
    assert.equal(rawLayerGap(3, counts, 1), 3 * 9);
  });

  test('gaps keep the formula’s proportions and fill the span when min_x does not bind', () => {
    const counts = [1, 4, 9, 2];
    const x = layerOffsets(counts, { span: 900, exponent: 0.5, minGap: 0 });
    assert.equal(x[0], 0);
    assert.ok(Math.abs(x[3]! - 900) < 1e-6);
    const gaps = [x[1]! - x[0]!, x[2]! - x[1]!, x[3]! - x[2]!];
    const raw = [1, 2, 3].map(l => rawLayerGap(l, counts, 0.5));
    for (let i = 1; i < 3; i++) assert.ok(Math.abs(gaps[i]! / gaps[0]! - raw[i]! / raw[0]!) < 1e-6);
    assert.ok(gaps[0]! < gaps[1]!, 'sparse layers sit closer together');
  });

  test('min_x bounds the narrow gaps and the others shrink to keep the span', () => {
    const x = layerOffsets([1, 1, 20, 20], { span: 600, exponent: 1, minGap: 120 });
    const gaps = [x[1]! - x[0]!, x[2]! - x[1]!, x[3]! - x[2]!];
    assert.ok(Math.abs(gaps[0]! - 120) < 1e-6);
    assert.ok(gaps.every(g => g >= 120 - 1e-6));
    assert.ok(Math.abs(x[3]! - 600) < 1e-6);
    assert.ok(Math.abs(gaps[2]! / gaps[1]! - 60 / 40) < 1e-6, 'unbound gaps keep their proportion');
  });

  test('too small a span gives equal gaps; one or no layer needs none', () => {
    assert.deepEqual(layerOffsets([1, 2, 3], { span: 100, exponent: 0.5, minGap: 80 }), [0, 50, 100]);
    assert.deepEqual(layerOffsets([5], { span: 100, exponent: 0.5, minGap: 10 }), [0]);
    assert.deepEqual(layerOffsets([], { span: 100, exponent: 0.5, minGap: 10 }), []);
  });
});

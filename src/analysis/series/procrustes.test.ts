import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gaussianFrom, seededRandom } from '../stats/seeded-random';
import { procrustes2d } from './procrustes';

function layout(n: number, seed: number): Float64Array {
  const normal = gaussianFrom(seededRandom(seed));
  return Float64Array.from({ length: 2 * n }, (_, i) => (i % 2 ? 0.4 : 1) * normal() * 3);
}

/** Scales, rotates by θ (optionally reflecting y first) and translates a layout. */
function transform(points: Float64Array, scale: number, theta: number, reflect: boolean, dx: number, dy: number) {
  const out = new Float64Array(points.length);
  const c = Math.cos(theta),
    s = Math.sin(theta);
  for (let i = 0; i < points.length; i += 2) {
    const x = points[i]!,
      y = reflect ? -points[i + 1]! : points[i + 1]!;
    out[i] = scale * (c * x - s * y) + dx;
    out[i + 1] = scale * (s * x + c * y) + dy;
  }
  return out;
}

describe('2-D Procrustes alignment', () => {
  it('undoes rotations, reflections, scaling and translation exactly', () => {
    const ref = layout(40, 1);
    for (const [scale, theta, reflect] of [
      [1, 0, true],
      [2.5, 0.7, false],
      [0.3, Math.PI, false],
      [1.7, -2.1, true],
    ] as const) {
      const moved = transform(ref, scale, theta, reflect, 5, -3);
      const fit = procrustes2d(ref, moved);
      assert.equal(fit.reflection, reflect);
      assert.ok(Math.abs(fit.scale - 1 / scale) < 1e-12);
      assert.ok(fit.rmsd < 1e-10, `rmsd ${fit.rmsd}`);
      fit.aligned.forEach((v, i) => assert.ok(Math.abs(v - ref[i]!) < 1e-10));
      // The returned map reproduces the aligned points.
      const [r00, r01, r10, r11] = fit.rotation;
      const [tx, ty] = fit.translation;
      const x = moved[6]!,
        y = moved[7]!;
      assert.ok(Math.abs(fit.scale * (x * r00 + y * r10) + tx - ref[6]!) < 1e-10);
      assert.ok(Math.abs(fit.scale * (x * r01 + y * r11) + ty - ref[7]!) < 1e-10);
    }
  });

  it('aligns noisy copies better than leaving them, and can keep the scale', () => {
    const ref = layout(60, 2);
    const normal = gaussianFrom(seededRandom(3));
    const moved = transform(ref, 1, 2, true, 1, 1).map(v => v + 0.05 * normal());
    const fit = procrustes2d(ref, moved, { scaling: false });
    assert.equal(fit.scale, 1);
    assert.ok(fit.rmsd < 0.1);
  });

  it('only translates degenerate layouts', () => {
    const fit = procrustes2d([1, 1, 3, 3], [5, 5, 5, 5]);
    assert.deepEqual([...fit.aligned], [2, 2, 2, 2]);
    assert.equal(procrustes2d([], []).rmsd, 0);
    assert.throws(() => procrustes2d([1, 2], [1, 2, 3, 4]), /same points/);
  });
});

/**
 * Procrustes alignment of a 2-D layout onto a previous one (Gower & Dijksterhuis 2004; thesis
 * §6.3.3 after Fujiwara et al. 2019): the translation, uniform scale and orthogonal map — rotation
 * or reflection — that bring `moving` closest to `reference` in least squares. Undoes the sign flips
 * and rotations that a fresh PCA of slightly different data produces, so points stay put.
 */
export interface Procrustes2d {
  /** The moved layout, interleaved x, y per point. */
  aligned: Float64Array;
  scale: number;
  /** Row-vector map p ↦ p·R, R = [[r00, r01], [r10, r11]], row-major. */
  rotation: [number, number, number, number];
  /** Whether R is a reflection (determinant −1). */
  reflection: boolean;
  translation: [number, number];
  /** Root-mean-square distance between the aligned and reference points. */
  rmsd: number;
}

/**
 * Aligns `moving` onto `reference` (both n points, interleaved x, y). With the centred layouts X
 * and Y and M = XᵀY, the best rotation maximises c(m00 + m11) + s(m01 − m10) and the best
 * reflection c(m00 − m11) + s(m01 + m10); the larger maximum wins, and scale = max / |X|².
 * Degenerate input (fewer than 2 points, or all moving points equal) is only translated.
 */
export function procrustes2d(
  reference: ArrayLike<number>,
  moving: ArrayLike<number>,
  options: { scaling?: boolean } = {},
): Procrustes2d {
  if (reference.length !== moving.length || reference.length % 2)
    throw new RangeError(
      `Procrustes needs two layouts of the same points, got ${reference.length} and ${moving.length} coordinates`,
    );
  const n = moving.length / 2;
  let rx = 0,
    ry = 0,
    mx = 0,
    my = 0;
  for (let i = 0; i < n; i++) {
    rx += reference[2 * i]!;
    ry += reference[2 * i + 1]!;
    mx += moving[2 * i]!;
    my += moving[2 * i + 1]!;
  }
  if (n > 0) {
    rx /= n;
    ry /= n;
    mx /= n;
    my /= n;
  }
  let m00 = 0,
    m01 = 0,
    m10 = 0,
    m11 = 0,
    norm = 0;
  for (let i = 0; i < n; i++) {
    const x0 = moving[2 * i]! - mx,
      x1 = moving[2 * i + 1]! - my;
    const y0 = reference[2 * i]! - rx,
      y1 = reference[2 * i + 1]! - ry;
    m00 += x0 * y0;
    m01 += x0 * y1;
    m10 += x1 * y0;
    m11 += x1 * y1;
    norm += x0 * x0 + x1 * x1;
  }
  let rotation: [number, number, number, number] = [1, 0, 0, 1];
  let reflection = false;
  let scale = 1;
  if (n >= 2 && norm > 0) {
    const rotA = m00 + m11,
      rotB = m01 - m10;
    const refA = m00 - m11,
      refB = m01 + m10;
    const rotBest = Math.hypot(rotA, rotB),
      refBest = Math.hypot(refA, refB);
    if (refBest > rotBest * (1 + 1e-12)) {
      const c = refA / refBest,
        s = refB / refBest;
      rotation = [c, s, s, -c];
      reflection = true;
      if (options.scaling ?? true) scale = refBest / norm;
    } else if (rotBest > 0) {
      const c = rotA / rotBest,
        s = rotB / rotBest;
      rotation = [c, s, -s, c];
      if (options.scaling ?? true) scale = rotBest / norm;
    }
  }
  const [r00, r01, r10, r11] = rotation;
  const aligned = new Float64Array(moving.length);
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const x0 = moving[2 * i]! - mx,
      x1 = moving[2 * i + 1]! - my;
    const ax = scale * (x0 * r00 + x1 * r10) + rx,
      ay = scale * (x0 * r01 + x1 * r11) + ry;
    aligned[2 * i] = ax;
    aligned[2 * i + 1] = ay;
    squares += (ax - reference[2 * i]!) ** 2 + (ay - reference[2 * i + 1]!) ** 2;
  }
  const translation: [number, number] = [rx - scale * (mx * r00 + my * r10), ry - scale * (mx * r01 + my * r11)];
  return { aligned, scale, rotation, reflection, translation, rmsd: n ? Math.sqrt(squares / n) : 0 };
}

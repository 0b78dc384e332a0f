/** Small dense linear algebra on row-major Float64Arrays, enough for MDS and Procrustes-style steps. */

/** Eigenvalues and eigenvectors (columns of `vectors`) of a small symmetric k × k matrix, cyclic Jacobi. */
export function jacobiEigen(matrix: Float64Array, k: number): { values: number[]; vectors: Float64Array } {
  const A = matrix.slice();
  const V = new Float64Array(k * k);
  for (let i = 0; i < k; i++) V[i * k + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < k; p++) for (let q = p + 1; q < k; q++) off += A[p * k + q]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < k; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = A[p * k + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (A[q * k + q]! - A[p * k + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        for (let r = 0; r < k; r++) {
          const arp = A[r * k + p]!,
            arq = A[r * k + q]!;
          A[r * k + p] = c * arp - s * arq;
          A[r * k + q] = s * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = A[p * k + r]!,
            aqr = A[q * k + r]!;
          A[p * k + r] = c * apr - s * aqr;
          A[q * k + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = V[r * k + p]!,
            vrq = V[r * k + q]!;
          V[r * k + p] = c * vrp - s * vrq;
          V[r * k + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  return { values: Array.from({ length: k }, (_, i) => A[i * k + i]!), vectors: V };
}

/** Modified Gram–Schmidt on the k columns of an n × k matrix, in place (a zero column becomes a unit vector). */
export function orthonormalizeColumns(Q: Float64Array, n: number, k: number): void {
  for (let c = 0; c < k; c++) {
    for (let p = 0; p < c; p++) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += Q[i * k + c]! * Q[i * k + p]!;
      for (let i = 0; i < n; i++) Q[i * k + c]! -= dot * Q[i * k + p]!;
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += Q[i * k + c]! ** 2;
    norm = Math.sqrt(norm);
    if (norm < 1e-300) {
      for (let i = 0; i < n; i++) Q[i * k + c] = i === c ? 1 : 0;
      continue;
    }
    for (let i = 0; i < n; i++) Q[i * k + c]! /= norm;
  }
}

/** Z = B Q for a square n × n B and an n × k Q. */
export function multiplySquare(B: Float64Array, Q: Float64Array, Z: Float64Array, n: number, k: number): void {
  Z.fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const b = B[i * n + j]!;
      if (b === 0) continue;
      for (let c = 0; c < k; c++) Z[i * k + c]! += b * Q[j * k + c]!;
    }
  }
}

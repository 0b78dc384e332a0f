import { jacobiEigen } from './linear-algebra';

export interface IncrementalPcaOptions {
  /** Principal components kept (default 2). */
  components?: number;
  /**
   * Forgetting factor f in (0, 1] (Ross et al. 2008 §3.2): before each update the previous
   * observations count f times, so the effective history is about m/(1 − f) observations for
   * batches of m. Default 1: no forgetting (the seed's and the reference code's value).
   */
  forgettingFactor?: number;
}

/**
 * Incremental PCA of Ross, Lim, Lin & Yang (2008), "Incremental learning for robust visual
 * tracking", Algorithm 1 (sequential Karhunen–Loève with a mean update): each batch B of m
 * observations updates the mean, and the top-k components come from the thin SVD of
 *
 *   [ f·Σ·Uᵀ ;  B − μ_B ;  √(n·m/(n+m))·(μ_B − μ_A) ]      ((k + m + 1) rows × d columns),
 *
 * which this class takes through the small (k + m + 1)² Gram matrix, so an update costs
 * O((k + m)² · d): cheap for one observation of many features (the online change-point reduction
 * over n entities) and for small batches of long series (the progressive projection).
 * Observations are rows of length `dims`.
 */
export class IncrementalPca {
  readonly components: number;
  readonly forgettingFactor: number;
  /** Mean of the observations seen (forgetting-weighted). */
  readonly mean: Float64Array;
  /** Component-major k × dims unit vectors; the first {@link rank} rows are valid. */
  readonly loadings: Float64Array;
  /** Singular values of the centred data, per component (0 beyond the rank). */
  readonly singularValues: Float64Array;
  /** Components available so far: at most min(k, observations − 1). */
  rank = 0;
  /** Effective number of observations (f·n + m after each batch). */
  samples = 0;
  /** Updates applied. */
  updates = 0;
  private stack: Float64Array;

  constructor(
    readonly dims: number,
    options: IncrementalPcaOptions = {},
  ) {
    if (!Number.isInteger(dims) || dims < 1) throw new RangeError(`incremental PCA needs dims ≥ 1, got ${dims}`);
    this.components = Math.max(1, Math.floor(options.components ?? 2));
    const f = options.forgettingFactor ?? 1;
    if (!(f > 0 && f <= 1)) throw new RangeError(`the forgetting factor must be in (0, 1], got ${f}`);
    this.forgettingFactor = f;
    this.mean = new Float64Array(dims);
    this.loadings = new Float64Array(this.components * dims);
    this.singularValues = new Float64Array(this.components);
    this.stack = new Float64Array(0);
    this.batchMean = new Float64Array(dims);
  }

  private readonly batchMean: Float64Array;

  /** Component c as a view (length dims). */
  component(c: number): Float64Array {
    return this.loadings.subarray(c * this.dims, (c + 1) * this.dims);
  }

  /** Flips the sign of component c (PCA signs are arbitrary; callers keep them coherent over time). */
  negateComponent(c: number): void {
    const v = this.component(c);
    for (let j = 0; j < v.length; j++) v[j] = -v[j]!;
  }

  /** Projection of one observation on component c: (x − mean) · u_c. */
  project(row: ArrayLike<number>, c: number): number {
    const { dims, mean, loadings } = this;
    const base = c * dims;
    let s = 0;
    for (let j = 0; j < dims; j++) s += (row[j]! - mean[j]!) * loadings[base + j]!;
    return s;
  }

  /** Updates the model with a batch of observations (each of length dims). */
  partialFit(rows: readonly ArrayLike<number>[]): void {
    const m = rows.length;
    if (m === 0) return;
    const { dims, components: k, forgettingFactor: f, mean } = this;
    for (const row of rows)
      if (row.length < dims) throw new RangeError(`incremental PCA: a row has ${row.length} values, expected ${dims}`);
    const n = this.samples;
    const batchMean = this.batchMean;
    batchMean.fill(0);
    for (const row of rows) for (let j = 0; j < dims; j++) batchMean[j]! += row[j]!;
    for (let j = 0; j < dims; j++) batchMean[j]! /= m;

    // The stacked matrix, one row per line of the formula above (a single observation centred on
    // itself is a zero row, left out).
    const previous = this.rank;
    const centred = m > 1 ? m : 0;
    const height = previous + centred + (n > 0 ? 1 : 0);
    if (this.stack.length < height * dims) this.stack = new Float64Array(height * dims);
    const M = this.stack;
    for (let c = 0; c < previous; c++) {
      const s = f * this.singularValues[c]!;
      const base = c * dims;
      for (let j = 0; j < dims; j++) M[base + j] = s * this.loadings[base + j]!;
    }
    for (let i = 0; i < centred; i++) {
      const row = rows[i]!;
      const base = (previous + i) * dims;
      for (let j = 0; j < dims; j++) M[base + j] = row[j]! - batchMean[j]!;
    }
    if (n > 0) {
      const w = Math.sqrt((n * m) / (n + m));
      const base = (previous + centred) * dims;
      for (let j = 0; j < dims; j++) M[base + j] = w * (batchMean[j]! - mean[j]!);
    }

    // Mean update with forgetting: μ ← (f·n·μ_A + m·μ_B) / (f·n + m).
    const total = f * n + m;
    for (let j = 0; j < dims; j++) mean[j] = (f * n * mean[j]! + m * batchMean[j]!) / total;
    this.samples = total;
    this.updates++;
    if (height === 0) {
      this.rank = 0;
      return;
    }

    // Thin SVD of M through its Gram matrix G = M·Mᵀ: right singular vectors are Mᵀv / σ.
    const G = new Float64Array(height * height);
    for (let a = 0; a < height; a++)
      for (let b = a; b < height; b++) {
        const s = rowDot(M, a * dims, b * dims, dims);
        G[a * height + b] = s;
        G[b * height + a] = s;
      }
    const { values, vectors } = jacobiEigen(G, height);
    const order = Array.from(values.keys()).sort((a, b) => values[b]! - values[a]!);
    const top = Math.max(0, values[order[0]!]!);
    // Directions whose variance is at rounding level of the largest carry no information.
    const floor = top * 1e-20;
    let rank = 0;
    const { loadings, singularValues } = this;
    for (let c = 0; c < Math.min(k, height); c++) {
      const idx = order[c]!;
      const lambda = values[idx]!;
      if (!(lambda > floor) || lambda <= 0) break;
      const sigma = Math.sqrt(lambda);
      const base = c * dims;
      loadings.fill(0, base, base + dims);
      for (let r = 0; r < height; r++) {
        const w = vectors[r * height + idx]! / sigma;
        if (w === 0) continue;
        const rr = r * dims;
        for (let j = 0; j < dims; j++) loadings[base + j]! += w * M[rr + j]!;
      }
      singularValues[c] = sigma;
      rank++;
    }
    for (let c = rank; c < k; c++) {
      singularValues[c] = 0;
      loadings.fill(0, c * dims, (c + 1) * dims);
    }
    this.rank = rank;
    this.reorthonormalise();
  }

  /** Modified Gram–Schmidt over the valid components: the Gram route loses a little orthogonality. */
  private reorthonormalise(): void {
    const { dims, loadings } = this;
    for (let c = 0; c < this.rank; c++) {
      const bc = c * dims;
      for (let p = 0; p < c; p++) {
        const bp = p * dims;
        let dot = 0;
        for (let j = 0; j < dims; j++) dot += loadings[bc + j]! * loadings[bp + j]!;
        for (let j = 0; j < dims; j++) loadings[bc + j]! -= dot * loadings[bp + j]!;
      }
      let norm = 0;
      for (let j = 0; j < dims; j++) norm += loadings[bc + j]! ** 2;
      norm = Math.sqrt(norm);
      if (norm > 0) for (let j = 0; j < dims; j++) loadings[bc + j]! /= norm;
    }
  }
}

/** Dot product of two rows of one array, four products per step (independent sums pipeline better). */
function rowDot(M: Float64Array, a: number, b: number, length: number): number {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    j = 0;
  for (; j + 3 < length; j += 4) {
    s0 += M[a + j]! * M[b + j]!;
    s1 += M[a + j + 1]! * M[b + j + 1]!;
    s2 += M[a + j + 2]! * M[b + j + 2]!;
    s3 += M[a + j + 3]! * M[b + j + 3]!;
  }
  for (; j < length; j++) s0 += M[a + j]! * M[b + j]!;
  return s0 + s1 + s2 + s3;
}

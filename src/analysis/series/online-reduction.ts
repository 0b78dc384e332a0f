import { IncrementalPca } from './incremental-pca';

/** One time point reduced to a scalar. */
export interface ReducedPoint {
  /** The projection on the sign-coherent PC1; null until PC1 exists (the first observation). */
  value: number | null;
  /** PC1 came out of the update with the opposite sign and was flipped back. */
  flipped: boolean;
}

/**
 * The seed's reduction of n series to one (thesis §6.3.1, after Qahtan et al. 2015): each new
 * time point x_τ ∈ ℝⁿ (one value per entity) updates an incremental PCA whose features are the
 * entities (Ross et al. 2008), and x_τ is projected on PC1. PCA signs are arbitrary, so PC1 is
 * negated whenever its cosine with the previous PC1 is negative — otherwise a positive burst would
 * turn into a negative one, and a sign flip into a change point; the first PC1 is oriented so its
 * loadings sum positive. The projection follows the entities of high variance over time. With one
 * entity the value itself is the reduction.
 */
export class OnlinePc1Reducer {
  readonly pca: IncrementalPca | null;
  private previous: Float64Array | null = null;
  /** Sign flips undone so far. */
  flips = 0;

  constructor(
    readonly entities: number,
    options: { forgettingFactor?: number; signCoherence?: boolean } = {},
  ) {
    this.signCoherence = options.signCoherence ?? true;
    this.pca =
      entities > 1 ? new IncrementalPca(entities, { components: 1, forgettingFactor: options.forgettingFactor }) : null;
  }

  private readonly signCoherence: boolean;

  /** PC1's loadings (one per entity), sign-coherent; null before PC1 exists or with one entity. */
  get loadings(): Float64Array | null {
    return this.pca && this.pca.rank > 0 ? this.pca.component(0) : null;
  }

  update(x: ArrayLike<number>): ReducedPoint {
    if (!this.pca) return { value: x[0]!, flipped: false };
    this.pca.partialFit([x]);
    if (this.pca.rank === 0) return { value: null, flipped: false };
    const pc1 = this.pca.component(0);
    let flipped = false;
    if (this.signCoherence) {
      // The first PC1 points where its loadings sum positive (entities rising together read as a
      // rise); every later one agrees with its predecessor.
      let agreement = 0;
      if (this.previous) for (let j = 0; j < pc1.length; j++) agreement += pc1[j]! * this.previous[j]!;
      else for (let j = 0; j < pc1.length; j++) agreement += pc1[j]!;
      if (agreement < 0) {
        this.pca.negateComponent(0);
        flipped = this.previous !== null;
        if (flipped) this.flips++;
      }
    }
    if (!this.previous) this.previous = new Float64Array(pc1.length);
    this.previous.set(pc1);
    return { value: this.pca.project(x, 0), flipped };
  }
}

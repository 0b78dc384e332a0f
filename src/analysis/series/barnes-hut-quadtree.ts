/**
 * A quadtree over 2-D points for Barnes–Hut sums (Barnes & Hut 1986; van der Maaten 2014 §4.2):
 * each cell keeps its point count and centre of mass, so a far cell's points act as one. Nodes
 * live in flat typed arrays that are reused from one build to the next (no allocation per point).
 * Coincident points, or points closer than 2⁻⁴⁰ of the root width, share a leaf.
 */
export class BarnesHutQuadtree {
  /** Per node: centre and half-width of the cell. */
  private cx = new Float64Array(0);
  private cy = new Float64Array(0);
  private half = new Float64Array(0);
  /** Per node: sum of member positions and member count. */
  private sumX = new Float64Array(0);
  private sumY = new Float64Array(0);
  private count = new Int32Array(0);
  /** Per node: first of its 4 children, or −1 for a leaf. */
  private child = new Int32Array(0);
  /** Per leaf: first member point (−1 when empty); members chain through `nextInLeaf`. */
  private head = new Int32Array(0);
  private nextInLeaf = new Int32Array(0);
  private leafOf = new Int32Array(0);
  private nodes = 0;
  private stack = new Int32Array(0);

  /** Builds the tree over the point-major n × 2 coordinates. */
  build(Y: Float64Array, n: number): void {
    if (this.leafOf.length < n) {
      this.leafOf = new Int32Array(n);
      this.nextInLeaf = new Int32Array(n);
    }
    this.ensureNodes(Math.max(16, 4 * n + 1));
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = Y[2 * i]!,
        y = Y[2 * i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    const half = Math.max(maxX - minX, maxY - minY, 1e-12) / 2 + 1e-9;
    this.nodes = 0;
    this.newNode((minX + maxX) / 2, (minY + maxY) / 2, half * (1 + 1e-9));
    for (let i = 0; i < n; i++) this.insert(Y, i);
  }

  private ensureNodes(capacity: number): void {
    if (this.cx.length >= capacity) return;
    const grow = <A extends Float64Array | Int32Array>(a: A, make: (size: number) => A): A => {
      const b = make(capacity);
      b.set(a.subarray(0, this.nodes));
      return b;
    };
    const f = (size: number) => new Float64Array(size),
      i = (size: number) => new Int32Array(size);
    this.cx = grow(this.cx, f);
    this.cy = grow(this.cy, f);
    this.half = grow(this.half, f);
    this.sumX = grow(this.sumX, f);
    this.sumY = grow(this.sumY, f);
    this.count = grow(this.count, i);
    this.child = grow(this.child, i);
    this.head = grow(this.head, i);
  }

  private newNode(x: number, y: number, half: number): number {
    if (this.nodes === this.cx.length) this.ensureNodes(this.cx.length * 2);
    const k = this.nodes++;
    this.cx[k] = x;
    this.cy[k] = y;
    this.half[k] = half;
    this.sumX[k] = 0;
    this.sumY[k] = 0;
    this.count[k] = 0;
    this.child[k] = -1;
    this.head[k] = -1;
    return k;
  }

  private quadrant(node: number, x: number, y: number): number {
    return this.child[node]! + (x >= this.cx[node]! ? 1 : 0) + (y >= this.cy[node]! ? 2 : 0);
  }

  private insert(Y: Float64Array, i: number): void {
    const x = Y[2 * i]!,
      y = Y[2 * i + 1]!;
    let node = 0;
    const rootHalf = this.half[0]!;
    for (;;) {
      this.sumX[node]! += x;
      this.sumY[node]! += y;
      this.count[node]!++;
      if (this.child[node]! >= 0) {
        node = this.quadrant(node, x, y);
        continue;
      }
      const first = this.head[node]!;
      const shared =
        first >= 0 && ((Y[2 * first] === x && Y[2 * first + 1] === y) || this.half[node]! < rootHalf * 2 ** -40);
      if (first < 0 || shared) {
        this.nextInLeaf[i] = first;
        this.head[node] = i;
        this.leafOf[i] = node;
        return;
      }
      // Split the leaf: its members (all at one spot) move into the child holding that spot.
      const h = this.half[node]! / 2,
        ncx = this.cx[node]!,
        ncy = this.cy[node]!;
      const c0 = this.newNode(ncx - h, ncy - h, h);
      this.newNode(ncx + h, ncy - h, h);
      this.newNode(ncx - h, ncy + h, h);
      this.newNode(ncx + h, ncy + h, h);
      this.child[node] = c0;
      const target = this.quadrant(node, Y[2 * first]!, Y[2 * first + 1]!);
      this.head[target] = first;
      this.count[target] = this.count[node]! - 1;
      this.sumX[target] = this.sumX[node]! - x;
      this.sumY[target] = this.sumY[node]! - y;
      for (let p = first; p >= 0; p = this.nextInLeaf[p]!) this.leafOf[p] = target;
      this.head[node] = -1;
      node = this.quadrant(node, x, y);
    }
  }

  /**
   * Repulsion on point i: adds Σ_j q_ij² Z (y_i − y_j) to `force` (2 numbers at `offset`) and returns
   * Σ_j q_ij Z, with q_ij Z = 1/(1 + |y_i − y_j|²), over all j ≠ i. A cell whose width w and distance
   * d to i's position satisfy w² < θ² d² counts as its count of points at its centre of mass (the
   * full-width criterion of scikit-learn's Barnes–Hut t-SNE); θ = 0 gives the exact sums.
   */
  repulsion(Y: Float64Array, i: number, theta: number, force: Float64Array, offset: number): number {
    const x = Y[2 * i]!,
      y = Y[2 * i + 1]!;
    const theta2 = theta * theta;
    if (this.stack.length < this.nodes) this.stack = new Int32Array(this.nodes);
    const stack = this.stack;
    let top = 0;
    stack[top++] = 0;
    let sumQ = 0,
      fx = 0,
      fy = 0;
    while (top > 0) {
      const node = stack[--top]!;
      let count = this.count[node]!;
      if (count === 0) continue;
      let mx = this.sumX[node]!,
        my = this.sumY[node]!;
      const leaf = this.child[node]! < 0;
      if (leaf && this.leafOf[i] === node) {
        // i's own leaf: the other members only.
        count--;
        if (count === 0) continue;
        mx -= x;
        my -= y;
      }
      mx /= count;
      my /= count;
      const dx = x - mx,
        dy = y - my;
      const d2 = dx * dx + dy * dy;
      const width = 2 * this.half[node]!;
      if (leaf || width * width < theta2 * d2) {
        const q = 1 / (1 + d2);
        const cq = count * q;
        sumQ += cq;
        fx += cq * q * dx;
        fy += cq * q * dy;
        continue;
      }
      const c = this.child[node]!;
      stack[top++] = c;
      stack[top++] = c + 1;
      stack[top++] = c + 2;
      stack[top++] = c + 3;
    }
    force[offset]! += fx;
    force[offset + 1]! += fy;
    return sumQ;
  }
}

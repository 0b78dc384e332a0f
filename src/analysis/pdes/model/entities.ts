import { GrowableInt32 } from '../../model/growable';
import type { EntityLevel } from './metrics';

/**
 * The simulator's entities at their three levels, PE ⊃ KP ⊃ LP (seed digest §1.1). Entities are
 * interned as records name them (PE id; PE id + KP id local to the PE; global LP id) and get dense
 * indices, which every series, matrix and selection uses. {@link PdesEntities.sort} puts them in
 * natural order (PE-major), after which a KP's index is its global number `pe·KPsPerPE + kp`, as the
 * ROSS-Vis views number KPs.
 */
export class PdesEntities {
  private readonly peIds = new GrowableInt32(16);
  private peIndex = new Map<number, number>();
  private readonly kpPes = new GrowableInt32(64);
  private readonly kpLocals = new GrowableInt32(64);
  private kpIndex = new Map<number, number>();
  private readonly lpGids = new GrowableInt32(256);
  private readonly lpPes = new GrowableInt32(256);
  private readonly lpKps = new GrowableInt32(256);
  private lpIndex = new Map<number, number>();

  count(level: EntityLevel): number {
    return level === 'pe' ? this.peIds.length : level === 'kp' ? this.kpPes.length : this.lpGids.length;
  }

  /** Index of PE `pe`, adding it when new. */
  internPe(pe: number): number {
    let i = this.peIndex.get(pe);
    if (i === undefined) {
      i = this.peIds.push(pe);
      this.peIndex.set(pe, i);
    }
    return i;
  }

  /** Index of KP `kp` (numbered within its PE) of PE `pe`, adding both when new. */
  internKp(pe: number, kp: number): number {
    const key = kpKey(pe, kp);
    let i = this.kpIndex.get(key);
    if (i === undefined) {
      const p = this.internPe(pe);
      i = this.kpPes.push(p);
      this.kpLocals.push(kp);
      this.kpIndex.set(key, i);
    }
    return i;
  }

  /** Index of the LP with global id `gid`, adding it (unplaced) when new. */
  internLp(gid: number): number {
    let i = this.lpIndex.get(gid);
    if (i === undefined) {
      i = this.lpGids.push(gid);
      this.lpPes.push(-1);
      this.lpKps.push(-1);
      this.lpIndex.set(gid, i);
    }
    return i;
  }

  /** Places LP index `lp` on PE index `pe` and, when known, KP index `kp`. */
  placeLp(lp: number, pe: number, kp = -1): void {
    this.lpPes.set(lp, pe);
    if (kp >= 0) this.lpKps.set(lp, kp);
  }

  /** Index of a PE by id, or -1. */
  findPe(pe: number): number {
    return this.peIndex.get(pe) ?? -1;
  }
  /** Index of a KP by PE id and local KP id, or -1. */
  findKp(pe: number, kp: number): number {
    return this.kpIndex.get(kpKey(pe, kp)) ?? -1;
  }
  /** Index of an LP by global id, or -1. */
  findLp(gid: number): number {
    return this.lpIndex.get(gid) ?? -1;
  }

  /** The PE's id (its MPI rank). */
  peId(pe: number): number {
    return this.peIds.get(pe);
  }
  /** PE index of a KP. */
  kpPe(kp: number): number {
    return this.kpPes.get(kp);
  }
  /** The KP's id within its PE. */
  kpLocal(kp: number): number {
    return this.kpLocals.get(kp);
  }
  /** The LP's global id. */
  lpGid(lp: number): number {
    return this.lpGids.get(lp);
  }
  /** PE index of an LP, or -1 when no LP→PE map was found. */
  lpPe(lp: number): number {
    return this.lpPes.get(lp);
  }
  /** KP index of an LP, or -1 when the LP→KP placement is unknown. */
  lpKp(lp: number): number {
    return this.lpKps.get(lp);
  }

  /** LPs placed on a PE. */
  get placedLps(): number {
    let n = 0;
    for (const p of this.lpPes.view()) if (p >= 0) n++;
    return n;
  }

  /** KPs of each PE (the most any PE has), 0 when no KP was seen. */
  get kpsPerPe(): number {
    const per = new Int32Array(this.peIds.length);
    for (const p of this.kpPes.view()) per[p]!++;
    return per.reduce((a, b) => Math.max(a, b), 0);
  }

  /** What views print: `PE 3`, `PE 3 · KP 5`, `LP 17`. */
  label(level: EntityLevel, i: number): string {
    if (level === 'pe') return `PE ${this.peId(i)}`;
    if (level === 'kp') return `PE ${this.peId(this.kpPe(i))} · KP ${this.kpLocal(i)}`;
    return `LP ${this.lpGid(i)}`;
  }

  /** Parent index of an entity one level up (-1 for PEs and for unplaced LPs). */
  parent(level: EntityLevel, i: number): number {
    return level === 'pe' ? -1 : level === 'kp' ? this.kpPe(i) : this.lpKp(i);
  }

  /** The entity of `level` that holds LP index `lp` (-1 when its placement is unknown). */
  lpAncestor(lp: number, level: EntityLevel): number {
    return level === 'lp' ? lp : level === 'kp' ? this.lpKp(lp) : this.lpPe(lp);
  }

  /**
   * Puts the entities in natural order (PEs by id, KPs by PE then local id, LPs by global id) and
   * returns, per level, the old index of each new index (identity arrays when nothing moved), so
   * tables indexed by entity can follow.
   */
  sort(): Record<EntityLevel, Int32Array> {
    const peOrder = sortedOrder(this.peIds.length, (a, b) => this.peIds.get(a) - this.peIds.get(b));
    const peNew = inverse(peOrder);
    const kpOrder = sortedOrder(
      this.kpPes.length,
      (a, b) =>
        this.peIds.get(this.kpPes.get(a)) - this.peIds.get(this.kpPes.get(b)) ||
        this.kpLocals.get(a) - this.kpLocals.get(b),
    );
    const kpNew = inverse(kpOrder);
    const lpOrder = sortedOrder(this.lpGids.length, (a, b) => this.lpGids.get(a) - this.lpGids.get(b));

    const peIds = this.peIds.finish();
    peOrder.forEach((old, i) => this.peIds.set(i, peIds[old]!));
    const kpPes = this.kpPes.finish();
    const kpLocals = this.kpLocals.finish();
    kpOrder.forEach((old, i) => {
      this.kpPes.set(i, peNew[kpPes[old]!]!);
      this.kpLocals.set(i, kpLocals[old]!);
    });
    const lpGids = this.lpGids.finish();
    const lpPes = this.lpPes.finish();
    const lpKps = this.lpKps.finish();
    lpOrder.forEach((old, i) => {
      this.lpGids.set(i, lpGids[old]!);
      this.lpPes.set(i, lpPes[old]! >= 0 ? peNew[lpPes[old]!]! : -1);
      this.lpKps.set(i, lpKps[old]! >= 0 ? kpNew[lpKps[old]!]! : -1);
    });
    this.peIndex = new Map([...this.peIds.view()].map((id, i) => [id, i]));
    this.kpIndex = new Map(
      [...this.kpPes.view()].map((p, i) => [kpKey(this.peIds.get(p), this.kpLocals.get(i)), i] as [number, number]),
    );
    this.lpIndex = new Map([...this.lpGids.view()].map((id, i) => [id, i]));
    return { pe: peOrder, kp: kpOrder, lp: lpOrder };
  }

  /**
   * A lookup from global LP id to the index of the entity of `level` holding it: -1 for ids that are
   * no known LP or whose placement at that level is unknown. Dense up to the largest LP id; ids from
   * {@link MAX_LP_ID} on (beyond any ROSS model, so corrupt) are left out and count as unknown.
   */
  lpLookup(level: EntityLevel): Int32Array {
    let max = -1;
    for (const g of this.lpGids.view()) if (g > max && g < MAX_LP_ID) max = g;
    const out = new Int32Array(max + 1).fill(-1);
    for (let i = 0; i < this.lpGids.length; i++) {
      const g = this.lpGids.get(i);
      if (g >= 0 && g < MAX_LP_ID) out[g] = this.lpAncestor(i, level);
    }
    return out;
  }
}

/**
 * The entry of an {@link PdesEntities.lpLookup} table for an LP id, -1 outside it. Trace LP ids are
 * stored as int32, so an id of 2^31 or more reads negative; `>>> 0` sends those outside too.
 */
export function entityOfLp(lookup: Int32Array, lp: number): number {
  return lp >>> 0 < lookup.length ? lookup[lp]! : -1;
}

/** LP ids from here on are taken for corrupt: 2^24 LPs is far beyond the largest ROSS models (millions). */
export const MAX_LP_ID = 1 << 24;

/** KP ids are small (ROSS uses 16 per PE by default); 2^20 per PE leaves ample room. */
function kpKey(pe: number, kp: number): number {
  return pe * 1048576 + kp;
}

function sortedOrder(n: number, compare: (a: number, b: number) => number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i).sort(compare);
}

function inverse(order: Int32Array): Int32Array {
  const out = new Int32Array(order.length);
  order.forEach((old, i) => (out[old] = i));
  return out;
}

import type { EntityLevel } from './model/metrics';
import type { PdesRun } from './model/pdes-run';

/**
 * LP types of a run (a CODES model's `LPGROUPS` types, e.g. `nw-lp`, `modelnet_dragonfly_dally`,
 * `modelnet_dragonfly_dally_router`; one type named after the program for a plain ROSS model such
 * as PHOLD) and each LP's ordinal within its type: CODES numbers a type's LPs in global-id order,
 * so the k-th router LP is router k and the k-th terminal LP terminal k (codes-mapping's relative
 * id, as the dragonfly models number routers and terminals).
 */
export interface LpTypeTable {
  names: string[];
  /** Type index per LP index of `run.entities` (-1 unknown). */
  typeOf: Int32Array;
  /** Ordinal among the LPs of its type, per LP index (-1 unknown). */
  ordinal: Int32Array;
}

export function lpTypeTable(run: PdesRun): LpTypeTable {
  const e = run.entities;
  const n = e.count('lp');
  const typeOf = new Int32Array(n).fill(-1);
  const ordinal = new Int32Array(n).fill(-1);
  if (!run.lpTypes) {
    typeOf.fill(0);
    ordinal.forEach((_, i) => (ordinal[i] = i));
    return { names: [programName(run)], typeOf, ordinal };
  }
  const { names, typeOfLp } = run.lpTypes;
  // LP indices are in global-id order once the entities are sorted; order by gid regardless.
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => e.lpGid(a) - e.lpGid(b));
  const next = new Int32Array(names.length);
  for (const lp of order) {
    const type = typeOfLp[e.lpGid(lp)] ?? -1;
    if (type < 0) continue;
    typeOf[lp] = type;
    ordinal[lp] = next[type]!++;
  }
  return { names: [...names], typeOf, ordinal };
}

/** The model's name from its command line (`phold`, `model-net-synthetic-dragonfly-all`), else `lp`. */
function programName(run: PdesRun): string {
  const program = run.command?.program ?? '';
  const base = program.split(/[\\/]/).pop() ?? '';
  return base || 'lp';
}

/** LP indices held by the given entities of `level` (an LP belongs to the KP and PE it is placed on). */
export function lpsOfEntities(run: PdesRun, level: EntityLevel, entities: ArrayLike<number>): Int32Array {
  const e = run.entities;
  const wanted = new Uint8Array(e.count(level));
  for (let k = 0; k < entities.length; k++) wanted[entities[k]!] = 1;
  const out: number[] = [];
  for (let lp = 0; lp < e.count('lp'); lp++) {
    const owner = e.lpAncestor(lp, level);
    if (owner >= 0 && wanted[owner]) out.push(lp);
  }
  return Int32Array.from(out);
}

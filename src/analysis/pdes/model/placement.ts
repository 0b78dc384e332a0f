import type { PdesEntities } from './entities';
import type { LpStats } from './run-config';

/**
 * Where the LP → KP → PE placement came from, best first:
 * - `lp-records`: LP engine samples name each LP's PE and KP (`--lp-data=1`);
 * - `lp-stats`: `ross_all_lp_stats/pe_N.txt` lists the LPs of PE N;
 * - `linear`: ROSS's linear mapping, `total_lp / total_pe` consecutive LPs per PE (`map_linear`);
 * - `codes`: CODES's codes-mapping, consecutive LPs per PE with the remainder on the first PEs;
 * - `round-robin`: the KP of an LP is its index on its PE modulo the KPs per PE (codes-mapping);
 * - `none`: unknown; views of that level (and communication aggregated to it) are unavailable.
 */
export type PlacementSource = 'lp-records' | 'lp-stats' | 'linear' | 'codes' | 'round-robin' | 'none';

export interface LpPlacement {
  /** How LPs were put on PEs. */
  pe: PlacementSource;
  /** How LPs were put on KPs. */
  kp: PlacementSource;
}

export interface PlacementInputs {
  /** `ross.csv`'s LP-to-PE mapping (`linear`, `round robin`, `model defined`), when known. */
  mapping?: string;
  totalPe?: number;
  totalLp?: number;
  /** KPs per PE (`total_kp / total_pe`, or as many as the KP samples show). */
  kpsPerPe?: number;
  lpStats?: LpStats | null;
  /** The run is a CODES model (its config was found): codes-mapping rules apply. */
  codes?: boolean;
}

/**
 * Places every LP of `entities` that LP samples did not place, by the best rule the run allows
 * (see {@link PlacementSource}), adding the LPs, KPs and PEs the rules imply.
 */
export function placeLps(entities: PdesEntities, inputs: PlacementInputs): LpPlacement {
  if (inputs.lpStats) for (const gid of inputs.lpStats.lp) entities.internLp(gid);
  const lpCount = entities.count('lp');
  if (lpCount > 0 && entities.placedLps === lpCount && allKpsKnown(entities))
    return { pe: 'lp-records', kp: 'lp-records' };

  // LP → PE.
  let pe: PlacementSource = 'none';
  const lpsOfPe = new Map<number, number[]>();
  if (inputs.lpStats && inputs.lpStats.lp.length) {
    const s = inputs.lpStats;
    for (let i = 0; i < s.lp.length; i++) push(lpsOfPe, s.pe[i]!, s.lp[i]!);
    pe = 'lp-stats';
  } else if (inputs.totalPe && inputs.totalLp && inputs.totalPe > 0) {
    const linear = (inputs.mapping ?? '').trim() === 'linear';
    if (linear || inputs.codes) {
      const floor = Math.floor(inputs.totalLp / inputs.totalPe);
      const leftover = linear ? 0 : inputs.totalLp % inputs.totalPe;
      for (let p = 0; p < inputs.totalPe; p++) {
        const start = p * floor + Math.min(p, leftover);
        const end = (p + 1) * floor + Math.min(p + 1, leftover);
        for (let g = start; g < end; g++) push(lpsOfPe, p, g);
      }
      pe = linear ? 'linear' : 'codes';
    }
  }
  if (pe === 'none') return { pe: entities.placedLps > 0 ? 'lp-records' : 'none', kp: 'none' };

  // LP → KP within its PE.
  const perPe = inputs.kpsPerPe ?? 0;
  const mapping = (inputs.mapping ?? '').trim();
  const kp: PlacementSource =
    perPe <= 0 ? 'none' : mapping === 'linear' ? 'linear' : inputs.codes ? 'round-robin' : 'none';
  for (const [p, lps] of lpsOfPe) {
    lps.sort((a, b) => a - b);
    const peIndex = entities.internPe(p);
    // ROSS map_linear: ceil(nlp / nkp) consecutive LPs per KP; codes-mapping: local index mod nkp.
    const perKp = Math.ceil(lps.length / Math.max(1, perPe));
    lps.forEach((gid, local) => {
      const lp = entities.internLp(gid);
      if (entities.lpPe(lp) >= 0 && entities.lpKp(lp) >= 0) return;
      const kpLocal = kp === 'linear' ? Math.floor(local / perKp) : kp === 'round-robin' ? local % perPe : -1;
      entities.placeLp(lp, peIndex, kpLocal >= 0 ? entities.internKp(p, kpLocal) : -1);
    });
  }
  return { pe, kp };
}

function allKpsKnown(entities: PdesEntities): boolean {
  for (let i = 0; i < entities.count('lp'); i++) if (entities.lpKp(i) < 0) return false;
  return true;
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

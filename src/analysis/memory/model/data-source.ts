/**
 * Which level of the memory hierarchy served a sampled load, decoded from the two encodings memory
 * samples carry: the Intel PEBS load-latency data-source code of MemAxes CSV files, and Linux's
 * `perf_mem_data_src` union (Mitos CSV `data_src`, `perf script -F data_src`).
 */

/**
 * The serving level as the number of links a load climbed from its issuing PU (MemAxes' "depth
 * above the CPU"): L1 1, L2 2, L3 3, RAM 4. 0 means unresolved (the source is unknown, I/O or
 * uncacheable), which MemAxes leaves at the PU.
 */
export type MemoryLevel = 0 | 1 | 2 | 3 | 4;

export const LEVEL_UNRESOLVED = 0;
export const LEVEL_L1 = 1;
export const LEVEL_L2 = 2;
export const LEVEL_L3 = 3;
export const LEVEL_RAM = 4;

/** Names of the levels, indexed by {@link MemoryLevel}. */
export const LEVEL_NAMES = ['unresolved', 'L1', 'L2', 'L3', 'RAM'] as const;
export type LevelName = (typeof LEVEL_NAMES)[number];

/**
 * The level of an Intel PEBS load-latency data-source code: only its low 4 bits (MemAxes
 * `hardware.cpp`; Intel SDM vol. 3B, "Load Latency Performance Monitoring Facility"). 0x1 L1 hit,
 * 0x2 fill-buffer hit, 0x3 L2, 0x4 L3, 0x5/0x6 L3 with a clean/dirty snoop from another core,
 * 0x8 L3 miss served by (local) RAM, 0xA/0xC local RAM clean/dirty, 0xB/0xD remote RAM; 0x0 (unknown
 * L3 miss), 0x7 (LLC snoop), 0x9, 0xE (I/O) and 0xF (uncacheable) are unresolved.
 */
const PEBS_LEVEL: readonly MemoryLevel[] = [0, 1, 1, 2, 3, 3, 3, 0, 4, 0, 4, 4, 4, 4, 0, 0];

export function pebsLevel(code: number): MemoryLevel {
  return PEBS_LEVEL[code & 0xf]!;
}

/** The PEBS code says the load was served by another socket's memory (0xB, 0xD). */
export function pebsRemote(code: number): boolean {
  const low = code & 0xf;
  return low === 0xb || low === 0xd;
}

/** The fields of `perf_mem_data_src` (uapi `linux/perf_event.h`) that place a load. */
export interface PerfDataSource {
  level: MemoryLevel;
  /** `mem_remote`: the data came from another node (RAM) or another socket's cache. */
  remote: boolean;
  /** `mem_hops`: 1 other core of the node, 2 other node of the socket, 3 other socket, 4 other board; 0 unknown. */
  hops: number;
}

// perf_mem_data_src bit fields (shift, width). The union is 64 bits but every field used here
// lies below bit 53, so a JavaScript number holds it exactly.
const LVL_SHIFT = 5;
const LVL_WIDTH = 14;
const LVLNUM_SHIFT = 33;
const REMOTE_SHIFT = 37;
const HOPS_SHIFT = 43;

const MEM_LVL_HIT = 0x2;
const MEM_LVL_MISS = 0x4;
const MEM_LVL_L1 = 0x8;
const MEM_LVL_LFB = 0x10;
const MEM_LVL_L2 = 0x20;
const MEM_LVL_L3 = 0x40;
const MEM_LVL_LOC_RAM = 0x80;
const MEM_LVL_REM_RAM1 = 0x100;
const MEM_LVL_REM_RAM2 = 0x200;
const MEM_LVL_REM_CCE1 = 0x400;
const MEM_LVL_REM_CCE2 = 0x800;

/**
 * `mem_lvl_num` → level. L1 and the line-fill buffer are L1; L2 and its miss-handling buffer L2;
 * L3 and "any cache" (AMD's peer-cache hits) L3; L4, memory-side cache, RAM, persistent memory and
 * CXL memory sit at the memory controller, so they are RAM; uncached, I/O and N/A are unresolved.
 */
const LVLNUM_LEVEL: readonly MemoryLevel[] = [
  0, // 0x0: not set (older kernels fill only mem_lvl)
  1, // 0x1 L1
  2, // 0x2 L2
  3, // 0x3 L3
  4, // 0x4 L4
  2, // 0x5 L2_MHB
  4, // 0x6 MSC
  0, // 0x7 reserved
  0, // 0x8 UNC
  4, // 0x9 CXL
  0, // 0xa IO
  3, // 0xb ANY_CACHE
  1, // 0xc LFB
  4, // 0xd RAM
  4, // 0xe PMEM
  0, // 0xf NA
];

function bits(value: number, shift: number, width: number): number {
  return Math.floor(value / 2 ** shift) % 2 ** width;
}

/**
 * Decodes a raw `perf_mem_data_src` value. `mem_lvl_num` names the level on kernels since 4.14;
 * older records only set the `mem_lvl` bit mask. Either way a level marked MISS without HIT is the
 * level that missed (perf's "L3 miss"), so the load is unresolved: where it was served is unknown.
 */
export function decodePerfDataSource(value: number): PerfDataSource {
  const lvl = bits(value, LVL_SHIFT, LVL_WIDTH);
  const lvlNum = bits(value, LVLNUM_SHIFT, 4);
  let remote = bits(value, REMOTE_SHIFT, 1) === 1;
  const hops = bits(value, HOPS_SHIFT, 3);
  const missed = (lvl & MEM_LVL_MISS) !== 0 && (lvl & MEM_LVL_HIT) === 0;
  let level: MemoryLevel = 0;
  if (!missed) {
    if (lvlNum !== 0) level = LVLNUM_LEVEL[lvlNum]!;
    else if (lvl & (MEM_LVL_REM_RAM1 | MEM_LVL_REM_RAM2)) {
      level = 4;
      remote = true;
    } else if (lvl & MEM_LVL_LOC_RAM) level = 4;
    else if (lvl & (MEM_LVL_REM_CCE1 | MEM_LVL_REM_CCE2)) {
      level = 3;
      remote = true;
    } else if (lvl & MEM_LVL_L3) level = 3;
    else if (lvl & MEM_LVL_L2) level = 2;
    else if (lvl & (MEM_LVL_L1 | MEM_LVL_LFB)) level = 1;
  }
  return { level, remote: remote || hops >= 2, hops };
}

/**
 * Builds a `perf_mem_data_src` value from its fields (for fixtures and tests): `lvl` is the
 * `mem_lvl` mask (HIT 0x2, MISS 0x4, L1 0x8 …), `lvlNum` the `mem_lvl_num` code. mem_op is LOAD.
 */
export function encodePerfDataSource(fields: {
  lvl?: number;
  lvlNum?: number;
  remote?: boolean;
  hops?: number;
}): number {
  const { lvl = 0, lvlNum = 0, remote = false, hops = 0 } = fields;
  return (
    0x2 + lvl * 2 ** LVL_SHIFT + lvlNum * 2 ** LVLNUM_SHIFT + (remote ? 2 ** REMOTE_SHIFT : 0) + hops * 2 ** HOPS_SHIFT
  );
}

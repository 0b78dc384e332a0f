import type { MetadataValue } from './profile';

/**
 * Deepest nesting of arrays and objects kept in run metadata. Real metadata (Adiak keys, Caliper
 * globals, TAU and Score-P attributes) nests a few levels; a hostile file can nest 100,000, which
 * overflows the stack of every recursive consumer (JSON.stringify, structured clone, the webviews).
 */
export const MAX_METADATA_DEPTH = 64;

/**
 * Replaces, in place, every array or object of `metadata` nested deeper than `maxDepth` levels (a
 * top-level value is level 1) by a string saying what was there, and returns the keys that were
 * cut. Iterative, so it is safe on any depth.
 */
export function capMetadataDepth(metadata: Record<string, MetadataValue>, maxDepth = MAX_METADATA_DEPTH): string[] {
  const cut = new Set<string>();
  type Slot = {
    holder: Record<string, MetadataValue> | MetadataValue[];
    key: string | number;
    depth: number;
    top: string;
  };
  const stack: Slot[] = Object.keys(metadata).map(k => ({ holder: metadata, key: k, depth: 1, top: k }));
  while (stack.length) {
    const { holder, key, depth, top } = stack.pop()!;
    const v = (holder as Record<string | number, MetadataValue>)[key]!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) {
      (holder as Record<string | number, MetadataValue>)[key] = summary(v, maxDepth);
      cut.add(top);
      continue;
    }
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push({ holder: v, key: i, depth: depth + 1, top });
    else for (const k of Object.keys(v)) stack.push({ holder: v, key: k, depth: depth + 1, top });
  }
  return [...cut];
}

/** `[an array nested 99,936 more levels; cut at depth 64]`: what a cut value held, measured iteratively. */
function summary(value: MetadataValue, maxDepth: number): string {
  let deepest = 0,
    leaves = 0;
  const stack: [MetadataValue, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') {
      leaves++;
      continue;
    }
    deepest = Math.max(deepest, d);
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, d + 1]);
  }
  const kind = Array.isArray(value) ? 'an array' : 'an object';
  return `[${kind} nested ${deepest.toLocaleString('en-US')} more level${deepest === 1 ? '' : 's'} with ${leaves.toLocaleString('en-US')} value${leaves === 1 ? '' : 's'}; cut at depth ${maxDepth}]`;
}

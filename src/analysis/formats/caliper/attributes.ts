import type { MetadataValue } from '../../model/profile';

/**
 * Attribute naming conventions shared by every Caliper form HPC Lens reads (.cali, json-split,
 * json, expand). Caliper names derived attributes `<op>#<op>#…#<attr>`, e.g. `sum#time.duration`
 * or `avg#inclusive#sum#time.duration`; the ops are the aggregations applied, outermost first.
 */

/** Call path of sampling profiles: one value per frame, outermost first. */
export const CALLPATH = 'source.function#callpath.address';
/** The region path: the values of Caliper's nested attributes in nesting order. */
export const PATH = 'path';
/** `/path/file.c:123` of a sampled program counter. */
export const SOURCELOC = 'sourceloc#cali.sampler.pc';
/** Load module of a sampled program counter. */
export const MODULE = 'module#cali.sampler.pc';
export const RANK = 'mpi.rank';
/** Written by Caliper into the run metadata; its major version decides the default time unit. */
export const CALIPER_VERSION = 'cali.caliper.version';

/**
 * Nested (region-defining) attributes of Caliper's annotation APIs and MPI wrappers, in the order
 * that best rebuilds a path when a form writes each of them separately (MPI calls are leaves).
 * Only needed for forms that do not say which attributes are nested.
 */
export const REGION_ATTRIBUTES: readonly string[] = ['annotation', 'region', 'function', 'loop', 'mpi.function'];

/** The attribute an `<op>#…#<attr>` name derives from. */
export function baseAttribute(name: string): string {
  const i = name.lastIndexOf('#');
  return i < 0 ? name : name.slice(i + 1);
}

/**
 * Numeric attributes that are positions, identifiers or Caliper's own bookkeeping, not quantities:
 * summing them over records means nothing. `aggregate.slot` is the "Node order" of region profiles
 * (Hatchet's .cali reader keeps it as a string column, caveat 17).
 */
const BOOKKEEPING = new Set(['aggregate.slot', 'time.offset', 'time.offset.ns', 'time.timestamp']);

export function isBookkeepingAttribute(name: string): boolean {
  return BOOKKEEPING.has(baseAttribute(name));
}

/** Splits `/path/file.c:123` into file and line (Caliper's source-location labels). */
export function parseSourceLocation(label: string): { file: string | null; line: number | null } {
  const m = /^(.*):(\d+)$/.exec(label);
  if (!m) return { file: label || null, line: null };
  const file = m[1]!;
  const line = Number(m[2]);
  if (file === 'UNKNOWN' || file === '') return { file: null, line: null };
  return { file, line: line > 0 ? line : null };
}

/** A run-metadata value of a Caliper attribute type (`int`, `double`, …), typed when the type says so. */
export function metadataValue(text: string, type: string | null): MetadataValue {
  if (type === 'int' || type === 'uint' || type === 'double') {
    const n = Number(text);
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  if (type === 'bool') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** Major version of the Caliper that wrote a profile, from its run metadata, or null. */
export function caliperMajorVersion(metadata: Record<string, MetadataValue>): number | null {
  const v = metadata[CALIPER_VERSION];
  if (typeof v !== 'string') return null;
  // `^(\d+)\.` by hand: every Caliper read asks, and a regular expression is compiled on first use.
  let digits = 0;
  while (digits < v.length && v.charCodeAt(digits) >= 48 && v.charCodeAt(digits) <= 57) digits++;
  return digits > 0 && v.charCodeAt(digits) === 46 ? Number(v.slice(0, digits)) : null;
}

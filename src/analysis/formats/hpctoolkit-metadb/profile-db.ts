import { DbFile, HOST_LITTLE_ENDIAN, type Section } from './db-file';

/**
 * `profile.db` (FORMATS.md, "profile.db version 4.0"): one profile per measured application
 * thread (or GPU stream), identified by a hierarchical identifier tuple, each holding a sparse
 * block of `(context, metric) → value`. Profile 0 is the canonical summary profile (statistics over
 * all threads); it and any other summary profile are not execution contexts.
 */

export interface IdentifierEntry {
  /** Index into meta.db's identifier names (NODE, RANK, THREAD, …). */
  kind: number;
  isPhysical: boolean;
  logicalId: number;
  physicalId: bigint;
}

export interface ProfileInfo {
  index: number;
  isSummary: boolean;
  /** Empty for the canonical summary profile. */
  idTuple: IdentifierEntry[];
  nValues: number;
  pValues: number;
  nCtxs: number;
  pCtxIndices: number;
}

export interface ProfileDb {
  file: DbFile;
  profiles: ProfileInfo[];
}

const SECTIONS = ['Profile Info', 'Identifier Tuples'] as const;
const VALUE_SIZE = 10;
const CTX_INDEX_SIZE = 12;
const ID_SIZE = 16;

export function parseProfileDb(path: string, bytes: Uint8Array): ProfileDb {
  const file = new DbFile(path, bytes, 'profile', SECTIONS);
  const [infos, tuples] = file.sections as Section[];
  const {
    pointer: pProfiles,
    count: nProfiles,
    size: szProfile,
  } = file.structArray(infos!, 'profile structures', 0x2c);
  const profiles: ProfileInfo[] = [];
  for (let i = 0; i < nProfiles; i++) {
    const at = pProfiles + i * szProfile;
    const pIdTuple = file.u64(at + 0x20);
    const flags = file.u32(at + 0x28);
    const profile: ProfileInfo = {
      index: i,
      isSummary: (flags & 1) === 1 || pIdTuple === 0,
      idTuple: pIdTuple === 0 ? [] : readIdTuple(file, pIdTuple, tuples!, i),
      nValues: file.u64(at),
      pValues: file.u64(at + 0x08),
      nCtxs: file.u32(at + 0x10),
      pCtxIndices: file.u64(at + 0x18),
    };
    profiles.push(profile);
  }
  return { file, profiles };
}

function readIdTuple(file: DbFile, at: number, section: Section, profile: number): IdentifierEntry[] {
  file.checkRange(at, 1, 8, `the identifier tuple of profile ${profile}`, section);
  const nIds = file.u16(at);
  file.checkRange(at + 8, nIds, ID_SIZE, `the identifier tuple of profile ${profile}`, section);
  const out: IdentifierEntry[] = [];
  for (let k = 0; k < nIds; k++) {
    const id = at + 8 + k * ID_SIZE;
    out.push({
      kind: file.u8(id),
      isPhysical: (file.u16(id + 2) & 1) === 1,
      logicalId: file.u32(id + 4),
      physicalId: file.bigU64(id + 8),
    });
  }
  return out;
}

/**
 * One profile's values decoded from profile.db: entries `starts[j] … starts[j + 1]` belong to the
 * context `ctxIds[j]`, in the file's order (contexts ascending, metrics ascending within a context).
 */
export interface ProfileValues {
  ctxIds: Uint32Array;
  /** Int32Array(contexts + 1). */
  starts: Int32Array;
  metricIds: Uint16Array;
  values: Float64Array;
}

/** Where a profile's values lie, checked: value `k` is the 10-byte record at `pValues + 10 k`. */
export interface ProfileContexts {
  ctxIds: Uint32Array;
  /** Int32Array(contexts + 1): the values of context `ctxIds[j]` are `starts[j] … starts[j + 1]`. */
  starts: Int32Array;
  /** The file's view and the offset of value 0. */
  view: DataView;
  pValues: number;
}

/** Bytes of a value record (u16 metric id, f64 value) and where its value lies in it. */
export const VALUE_RECORD_BYTES = VALUE_SIZE;
export const VALUE_OFFSET = 2;

/**
 * A profile's context index, validated with its whole block of values, for readers that decode the
 * values where they use them (see {@link readProfileValues}).
 */
export function readProfileContexts(db: ProfileDb, profile: ProfileInfo): ProfileContexts {
  const { file } = db;
  const { nValues, pValues, nCtxs, pCtxIndices, index } = profile;
  const view = file.view;
  if (nCtxs === 0 && nValues === 0) return { ctxIds: new Uint32Array(0), starts: new Int32Array(1), view, pValues };
  file.checkRange(pValues, nValues, VALUE_SIZE, `the values of profile ${index}`);
  file.checkRange(pCtxIndices, nCtxs, CTX_INDEX_SIZE, `the context index of profile ${index}`);
  const ctxIds = new Uint32Array(nCtxs);
  const starts = new Int32Array(nCtxs + 1);
  let previous = 0;
  // The index as 32-bit words (3 an entry) where it is 4-byte aligned on a little-endian machine: an
  // element load per field rather than a DataView call, which a cold process makes one by one.
  const words =
    nCtxs > 0 && HOST_LITTLE_ENDIAN && (view.byteOffset + pCtxIndices) % 4 === 0
      ? new Uint32Array(view.buffer, view.byteOffset + pCtxIndices, nCtxs * 3)
      : null;
  for (let j = 0; j < nCtxs; j++) {
    // Inside the index checked above: read directly, not through a checked call per field.
    const entry = pCtxIndices + j * CTX_INDEX_SIZE;
    const high = words ? words[j * 3 + 2]! : view.getUint32(entry + 8, true);
    const low = words ? words[j * 3 + 1]! : view.getUint32(entry + 4, true);
    const start = high === 0 ? low : low + high * 2 ** 32;
    if (start < previous || start > nValues) {
      throw file.error(
        `profile ${index}: the context index entry ${j} starts at value ${start}, outside ${previous}–${nValues}`,
      );
    }
    ctxIds[j] = words ? words[j * 3]! : view.getUint32(entry, true);
    starts[j] = previous = start;
  }
  starts[nCtxs] = nValues;
  return { ctxIds, starts, view, pValues };
}

/**
 * Decodes a profile's values into typed arrays in two tight loops (the 10-byte records are not
 * aligned for a Float64Array view). The whole block is validated first. A loop with no call per
 * value is what a cold process runs fast: V8 replaces it with optimised code early (on-stack
 * replacement), where a callback per value stays in the interpreter until the callback is optimised.
 */
export function readProfileValues(db: ProfileDb, profile: ProfileInfo): ProfileValues {
  const { ctxIds, starts, view, pValues } = readProfileContexts(db, profile);
  const { nValues } = profile;
  const first = ctxIds.length > 0 ? starts[0]! : nValues;
  const metricIds = new Uint16Array(nValues);
  const values = new Float64Array(nValues);
  // Values before the first context's start belong to no context (the loop over contexts never visited them).
  for (let k = first, v = pValues + first * VALUE_SIZE; k < nValues; k++, v += VALUE_SIZE) {
    metricIds[k] = view.getUint16(v, true);
    values[k] = view.getFloat64(v + VALUE_OFFSET, true);
  }
  return { ctxIds, starts, metricIds, values };
}

/** Calls `visit` for every value of a profile, in the file's order (see {@link readProfileValues}). */
export function forEachProfileValue(
  db: ProfileDb,
  profile: ProfileInfo,
  visit: (ctxId: number, metricId: number, value: number) => void,
): void {
  const { ctxIds, starts, metricIds, values } = readProfileValues(db, profile);
  for (let j = 0; j < ctxIds.length; j++)
    for (let k = starts[j]!; k < starts[j + 1]!; k++) visit(ctxIds[j]!, metricIds[k]!, values[k]!);
}

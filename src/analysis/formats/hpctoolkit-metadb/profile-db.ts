import { DbFile, type Section } from './db-file';

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
 * Calls `visit` for every value of a profile, in the file's order (contexts ascending, metrics
 * ascending within a context). The whole block is validated first, so the loop itself reads the
 * buffer without per-value checks.
 */
export function forEachProfileValue(
  db: ProfileDb,
  profile: ProfileInfo,
  visit: (ctxId: number, metricId: number, value: number) => void,
): void {
  const { file } = db;
  const { nValues, pValues, nCtxs, pCtxIndices, index } = profile;
  if (nCtxs === 0 && nValues === 0) return;
  file.checkRange(pValues, nValues, VALUE_SIZE, `the values of profile ${index}`);
  file.checkRange(pCtxIndices, nCtxs, CTX_INDEX_SIZE, `the context index of profile ${index}`);
  const view = file.view;
  const startOf = (j: number) => file.u64(pCtxIndices + j * CTX_INDEX_SIZE + 4);
  let previous = 0;
  for (let j = 0; j < nCtxs; j++) {
    const start = startOf(j);
    if (start < previous || start > nValues) {
      throw file.error(
        `profile ${index}: the context index entry ${j} starts at value ${start}, outside ${previous}–${nValues}`,
      );
    }
    previous = start;
  }
  for (let j = 0; j < nCtxs; j++) {
    const entry = pCtxIndices + j * CTX_INDEX_SIZE;
    const ctxId = view.getUint32(entry, true);
    const end = j + 1 < nCtxs ? startOf(j + 1) : nValues;
    for (let k = startOf(j); k < end; k++) {
      const v = pValues + k * VALUE_SIZE;
      visit(ctxId, view.getUint16(v, true), view.getFloat64(v + 2, true));
    }
  }
}

import { DbFile, type Section } from './db-file';

/**
 * `cct.db` (FORMATS.md, "cct.db version 4.0"): the values of profile.db again, context-major:
 * `(*pCtxs)[ctxId]` holds, per metric, the `(profile index, value)` pairs of that context
 * (summary profiles excluded). Handy for "one context across all threads" without reading every
 * profile, and for the values of some metrics and scopes without the others (cct-records.ts).
 */

export interface CctDb {
  file: DbFile;
  /** Number of context slots (`ctxId` < count; slot 0 is the global context). */
  count: number;
  /** Byte offset of the `{CI}` array and its stride. */
  pCtxs: number;
  szCtx: number;
}

const SECTIONS = ['Context Info'] as const;
const VALUE_SIZE = 12;
const METRIC_INDEX_SIZE = 10;

export function parseCctDb(path: string, bytes: Uint8Array): CctDb {
  const file = new DbFile(path, bytes, 'cct', SECTIONS);
  const {
    pointer: pCtxs,
    count,
    size: szCtx,
  } = file.structArray(file.sections[0] as Section, 'context structures', 0x20);
  return { file, count, pCtxs, szCtx };
}

/**
 * Calls `visit` for every value of context `ctxId` (metrics ascending, profiles ascending within a
 * metric); nothing for ids beyond the table. The block is validated before the loop.
 */
export function forEachContextValue(
  db: CctDb,
  ctxId: number,
  visit: (metricId: number, profileIndex: number, value: number) => void,
): void {
  if (ctxId >= db.count) return;
  const { file } = db;
  const at = db.pCtxs + ctxId * db.szCtx;
  const nValues = file.u64(at);
  const pValues = file.u64(at + 0x08);
  const nMetrics = file.u16(at + 0x10);
  const pIndices = file.u64(at + 0x18);
  if (nValues === 0 && nMetrics === 0) return;
  file.checkRange(pValues, nValues, VALUE_SIZE, `the values of context ${ctxId}`);
  file.checkRange(pIndices, nMetrics, METRIC_INDEX_SIZE, `the metric index of context ${ctxId}`);
  const view = file.view;
  const startOf = (j: number) => file.u64(pIndices + j * METRIC_INDEX_SIZE + 2);
  let previous = 0;
  for (let j = 0; j < nMetrics; j++) {
    const start = startOf(j);
    if (start < previous || start > nValues)
      throw file.error(
        `context ${ctxId}: the metric index entry ${j} starts at value ${start}, outside ${previous}–${nValues}`,
      );
    previous = start;
  }
  for (let j = 0; j < nMetrics; j++) {
    const metricId = view.getUint16(pIndices + j * METRIC_INDEX_SIZE, true);
    const end = j + 1 < nMetrics ? startOf(j + 1) : nValues;
    for (let k = startOf(j); k < end; k++) {
      const v = pValues + k * VALUE_SIZE;
      visit(metricId, view.getUint32(v, true), view.getFloat64(v + 4, true));
    }
  }
}

import { DbFile, type Section } from './db-file';

/**
 * `trace.db` (FORMATS.md, "trace.db version 4.0"): one trace line per traced profile, each an array
 * of 12-byte elements `{u64 timestamp (ns since the epoch), u32 ctxId}` sorted by time. A sample
 * holds until the next one; ctxId 0 means the thread was not running. The lines lie outside the
 * Context Trace Headers section, which only points at them.
 */

export interface TraceLine {
  /** Position of the line's header in the section. */
  index: number;
  /** Index of the profile in profile.db. */
  profIndex: number;
  /** Offset of the first element and number of elements. */
  start: number;
  count: number;
}

export interface TraceDb {
  file: DbFile;
  lines: TraceLine[];
  /** The header's smallest and largest timestamps (hpcprof writes INT64_MAX / INT64_MIN when all lines are empty). */
  minTimestamp: bigint;
  maxTimestamp: bigint;
}

const SECTIONS = ['Context Trace Headers'] as const;
export const TRACE_ELEMENT_SIZE = 12;
const TRACE_HEADER_SIZE = 0x18;

export function parseTraceDb(path: string, bytes: Uint8Array): TraceDb {
  const file = new DbFile(path, bytes, 'trace', SECTIONS);
  const section = file.sections[0] as Section;
  const {
    pointer: pTraces,
    count: nTraces,
    size: szTrace,
  } = file.structArray(section, 'trace headers', TRACE_HEADER_SIZE, 0x20);
  const lines: TraceLine[] = [];
  for (let i = 0; i < nTraces; i++) {
    const at = pTraces + i * szTrace;
    const pStart = file.u64(at + 0x08);
    const pEnd = file.u64(at + 0x10);
    const bytesInLine = pEnd - pStart;
    if (bytesInLine < 0 || bytesInLine % TRACE_ELEMENT_SIZE !== 0) {
      throw file.error(
        `trace line ${i}: its elements run from offset ${pStart} to ${pEnd}, which is not a whole number of ${TRACE_ELEMENT_SIZE}-byte elements`,
      );
    }
    const count = bytesInLine / TRACE_ELEMENT_SIZE;
    file.checkRange(pStart, count, TRACE_ELEMENT_SIZE, `the elements of trace line ${i}`);
    lines.push({ index: i, profIndex: file.u32(at), start: pStart, count });
  }
  return {
    file,
    lines,
    minTimestamp: file.bigU64(section.offset + 0x10),
    maxTimestamp: file.bigU64(section.offset + 0x18),
  };
}

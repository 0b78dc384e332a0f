/**
 * Byte layouts of ROSS 8.1 instrumentation output (data-sources §14, checked against every record of
 * the shared ROSS/CODES runs): native little-endian C structs with natural alignment.
 *
 * - Engine sample: `sample_metadata{i32 flag, i32 sample_sz, f64 virtual_ts, f64 real_ts}` (24 B) and
 *   a PE (flag 0, 104 B), KP (flag 1, 44 B) or LP (flag 2, 48 B) payload. `virtual_ts` is the PE's
 *   GVT when the sample was taken (ROSS `st_collect_engine_data`), DBL_MAX after the end.
 * - Model sample (virtual-time sampling, `*-analysis-lps.bin`): `lp_metadata{u64 lpid, u64 kpid,
 *   u64 peid, f64 ts, f64 real_ts, i32 sample_sz, i32 flag=3}` (48 B) and `sample_sz` model bytes.
 * - Event trace (`*-evtrace.bin`): `{u32 src_lp, u32 dest_lp, f32 send_vts, f32 recv_vts, f32
 *   real_ts, u32 model_sz}` (24 B) and `model_sz` model bytes.
 */
import { KP_METRICS, LP_METRICS, PE_METRICS, type EntityLevel } from '../../pdes/model/metrics';

export const ENGINE_HEADER_BYTES = 24;
export const MODEL_HEADER_BYTES = 48;
export const EVENT_HEADER_BYTES = 24;
export const MODEL_FLAG = 3;

/** Payload bytes of the engine records, by flag (0 PE, 1 KP, 2 LP). */
export const ENGINE_PAYLOAD_BYTES: readonly number[] = [104, 44, 48];
export const ENGINE_LEVELS: readonly EntityLevel[] = ['pe', 'kp', 'lp'];

/**
 * Model payloads above this size are taken for corrupt headers. CODES samples are a few hundred
 * bytes (a router's grows with its radix: 72 + 32·radix), so 1 MiB leaves room for any real model.
 */
export const MAX_MODEL_BYTES = 1 << 20;
/** Event-trace model data above this size is taken for a corrupt header (CODES writes 4 B, PHOLD 0). */
export const MAX_EVENT_MODEL_BYTES = 1 << 16;

/** The engine flag for a (flag, size) pair, or -1 when the pair is no engine record. */
export function engineFlag(flag: number, size: number): number {
  return flag >= 0 && flag <= 2 && ENGINE_PAYLOAD_BYTES[flag] === size ? flag : -1;
}

/** Entity ids read from an engine payload (-1 where the level has none). */
export interface EngineIds {
  pe: number;
  kp: number;
  lp: number;
}

/**
 * Decodes an engine payload at `pos` into `out` in the order of the level's metric list
 * (`PE_METRICS`, `KP_METRICS`, `LP_METRICS`), deriving primary rollbacks = total − secondary.
 */
export function decodeEnginePayload(
  view: DataView,
  pos: number,
  flag: number,
  ids: EngineIds,
  out: Float64Array,
): void {
  if (flag === 0) {
    ids.pe = view.getUint32(pos, true);
    ids.kp = -1;
    ids.lp = -1;
    for (let i = 0; i < 12; i++) out[i] = view.getUint32(pos + 4 + 4 * i, true);
    for (let i = 0; i < 13; i++) out[12 + i] = view.getFloat32(pos + 52 + 4 * i, true);
    out[25] = out[3]! - out[4]!;
  } else if (flag === 1) {
    ids.pe = view.getUint32(pos, true);
    ids.kp = view.getUint32(pos + 4, true);
    ids.lp = -1;
    for (let i = 0; i < 7; i++) out[i] = view.getUint32(pos + 8 + 4 * i, true);
    out[7] = view.getFloat32(pos + 36, true);
    out[8] = view.getFloat32(pos + 40, true);
    out[9] = out[3]! - out[4]!;
  } else {
    ids.pe = view.getUint32(pos, true);
    ids.kp = view.getUint32(pos + 4, true);
    ids.lp = view.getUint32(pos + 8, true);
    for (let i = 0; i < 5; i++) out[i] = view.getUint32(pos + 12 + 4 * i, true);
    out[5] = Number(view.getBigUint64(pos + 32, true));
    out[6] = view.getFloat32(pos + 40, true);
  }
}

/** Values per engine record of each flag (the level's metric count). */
export const ENGINE_VALUE_COUNTS: readonly number[] = [PE_METRICS.length, KP_METRICS.length, LP_METRICS.length];

/**
 * Encodes an engine payload (the inverse of {@link decodeEnginePayload}; derived values are
 * ignored). For the seeded generator and for tests.
 */
export function encodeEnginePayload(
  view: DataView,
  pos: number,
  flag: number,
  ids: EngineIds,
  values: ArrayLike<number>,
): void {
  if (flag === 0) {
    view.setUint32(pos, ids.pe, true);
    for (let i = 0; i < 12; i++) view.setUint32(pos + 4 + 4 * i, values[i]!, true);
    for (let i = 0; i < 13; i++) view.setFloat32(pos + 52 + 4 * i, values[12 + i]!, true);
  } else if (flag === 1) {
    view.setUint32(pos, ids.pe, true);
    view.setUint32(pos + 4, ids.kp, true);
    for (let i = 0; i < 7; i++) view.setUint32(pos + 8 + 4 * i, values[i]!, true);
    view.setFloat32(pos + 36, values[7]!, true);
    view.setFloat32(pos + 40, values[8]!, true);
  } else {
    view.setUint32(pos, ids.pe, true);
    view.setUint32(pos + 4, ids.kp, true);
    view.setUint32(pos + 8, ids.lp, true);
    for (let i = 0; i < 5; i++) view.setUint32(pos + 12 + 4 * i, values[i]!, true);
    view.setBigUint64(pos + 32, BigInt(Math.max(0, Math.round(values[5]!))), true);
    view.setFloat32(pos + 40, values[6]!, true);
    view.setUint32(pos + 44, 0, true);
  }
}

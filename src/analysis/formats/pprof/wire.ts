/**
 * A framing check of profile.proto's protobuf encoding, run before `pprof-format` decodes it. That
 * decoder trusts its input: a cut-off field silently shrinks to the bytes that are left, a tag of a
 * field above 15 (two tag bytes) is misread, and fixed32/fixed64 fields throw a bare Error. Walking
 * every message once over the bytes costs far less than the decode and turns all of these into a
 * reason naming where the data went wrong.
 */

/** How a field is encoded: a varint, a (possibly packed) list of varints, raw bytes, or a message. */
type FieldShape = 'varint' | 'varints' | 'bytes' | Schema;
interface Schema {
  readonly name: string;
  readonly fields: Readonly<Record<number, FieldShape>>;
}

const VALUE_TYPE: Schema = { name: 'ValueType', fields: { 1: 'varint', 2: 'varint' } };
const LABEL: Schema = { name: 'Label', fields: { 1: 'varint', 2: 'varint', 3: 'varint', 4: 'varint' } };
const SAMPLE: Schema = { name: 'Sample', fields: { 1: 'varints', 2: 'varints', 3: LABEL } };
const MAPPING: Schema = {
  name: 'Mapping',
  fields: {
    1: 'varint',
    2: 'varint',
    3: 'varint',
    4: 'varint',
    5: 'varint',
    6: 'varint',
    7: 'varint',
    8: 'varint',
    9: 'varint',
    10: 'varint',
  },
};
const LINE: Schema = { name: 'Line', fields: { 1: 'varint', 2: 'varint', 3: 'varint' } };
const LOCATION: Schema = { name: 'Location', fields: { 1: 'varint', 2: 'varint', 3: 'varint', 4: LINE, 5: 'varint' } };
const FUNCTION: Schema = {
  name: 'Function',
  fields: { 1: 'varint', 2: 'varint', 3: 'varint', 4: 'varint', 5: 'varint' },
};
export const PROFILE_SCHEMA: Schema = {
  name: 'Profile',
  fields: {
    1: VALUE_TYPE,
    2: SAMPLE,
    3: MAPPING,
    4: LOCATION,
    5: FUNCTION,
    6: 'bytes',
    7: 'varint',
    8: 'varint',
    9: 'varint',
    10: 'varint',
    11: VALUE_TYPE,
    12: 'varint',
    13: 'varints',
    14: 'varint',
    15: 'varint',
  },
};

const WIRE_VARINT = 0;
const WIRE_LENGTH = 2;

/** A framing error: what is wrong, at which byte offset. */
export class WireError extends Error {
  constructor(
    readonly offset: number,
    reason: string,
  ) {
    super(`${reason} at byte ${offset}`);
    this.name = 'WireError';
  }
}

/**
 * End offset of the varint at `at`, or -1 when the input ends inside it (a varint has at most 10
 * bytes). The value is not needed by the callers that only skip.
 */
function varintEnd(b: Uint8Array, at: number, end: number): number {
  for (let i = at; i < end && i < at + 10; i++) if (b[i]! < 0x80) return i + 1;
  if (at + 10 <= end) throw new WireError(at, 'a varint longer than 10 bytes');
  return -1;
}

/** The varint at `at` as a number (exact below 2^53, which is all a length can be here). */
function varintValue(b: Uint8Array, at: number, stop: number): number {
  let v = 0,
    scale = 1;
  for (let i = at; i < stop; i++) {
    v += (b[i]! & 0x7f) * scale;
    scale *= 128;
  }
  return v;
}

/**
 * Checks the messages in b[start, end) against `schema`, recursively. With `partial`, input that
 * ends inside the last field is accepted (a sniffed prefix); the return value is the number of
 * complete top-level fields.
 */
export function checkFraming(
  b: Uint8Array,
  start: number,
  end: number,
  schema: Schema = PROFILE_SCHEMA,
  partial = false,
): number {
  let i = start,
    fields = 0;
  while (i < end) {
    const tagEnd = varintEnd(b, i, end);
    if (tagEnd < 0) {
      if (partial) return fields;
      throw new WireError(i, `the data ends inside a field tag of a ${schema.name}`);
    }
    if (tagEnd !== i + 1)
      throw new WireError(i, `a ${schema.name} field number above 15, which profile.proto does not have`);
    const field = b[i]! >> 3,
      wire = b[i]! & 7;
    const shape = schema.fields[field];
    if (field === 0 || shape === undefined) throw new WireError(i, `field ${field} is not a field of ${schema.name}`);
    i = tagEnd;
    const wantLength = shape !== 'varint' && (shape !== 'varints' || wire !== WIRE_VARINT);
    if (wire !== (wantLength ? WIRE_LENGTH : WIRE_VARINT))
      throw new WireError(
        i - 1,
        `field ${field} of ${schema.name} has wire type ${wire}, expected ${wantLength ? WIRE_LENGTH : WIRE_VARINT}`,
      );
    const vEnd = varintEnd(b, i, end);
    if (vEnd < 0) {
      if (partial) return fields;
      throw new WireError(i, `the data ends inside field ${field} of a ${schema.name}`);
    }
    if (!wantLength) {
      i = vEnd;
      fields++;
      continue;
    }
    const length = varintValue(b, i, vEnd);
    const bodyEnd = vEnd + length;
    if (bodyEnd > end) {
      if (partial) return fields;
      throw new WireError(
        i,
        `field ${field} of a ${schema.name} claims ${length} bytes but only ${end - vEnd} are left (truncated?)`,
      );
    }
    if (typeof shape === 'object') checkFraming(b, vEnd, bodyEnd, shape);
    else if (shape === 'varints' && bodyEnd > vEnd && b[bodyEnd - 1]! >= 0x80)
      throw new WireError(bodyEnd - 1, `a packed list in field ${field} of a ${schema.name} ends inside a varint`);
    i = bodyEnd;
    fields++;
  }
  return fields;
}

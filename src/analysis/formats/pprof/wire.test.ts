import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFraming, WireError } from './wire';

const bytes = (...b: number[]) => Uint8Array.from(b);
const reason = (b: Uint8Array, partial = false) => {
  try {
    checkFraming(b, 0, b.length, undefined, partial);
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof WireError);
    return e.message;
  }
};

describe('pprof wire framing', () => {
  // sample_type {type: 1, unit: 2}, time_nanos 300, string_table "".
  const valid = bytes(0x0a, 0x04, 0x08, 0x01, 0x10, 0x02, 0x48, 0xac, 0x02, 0x32, 0x00);

  it('accepts a well-formed message and counts its top-level fields', () => {
    assert.equal(checkFraming(valid, 0, valid.length), 3);
  });

  it('names what is wrong and where', () => {
    assert.match(
      reason(valid.subarray(0, 5)),
      /field 1 of a Profile claims 4 bytes but only 3 are left \(truncated\?\) at byte 1/,
    );
    assert.match(reason(valid.subarray(0, 8)), /ends inside field 9 of a Profile/);
    assert.match(reason(bytes(0x0a, 0x02, 0x0a, 0x00)), /field 1 of ValueType has wire type 2, expected 0/);
    assert.match(reason(bytes(0x82, 0x01, 0x00)), /field number above 15/);
    assert.match(reason(bytes(0x09, 0, 0, 0, 0, 0, 0, 0, 0)), /field 1 of Profile has wire type 1/);
    assert.match(
      reason(bytes(0x12, 0x03, 0x0a, 0x01, 0x81)),
      /packed list in field 1 of a Sample ends inside a varint/,
    );
    assert.match(
      reason(bytes(0x48, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)),
      /varint longer than 10 bytes/,
    );
    assert.match(reason(bytes(0x80 | 0x78)), /ends inside a field tag/);
  });

  it('accepts a prefix cut inside its last field when sniffing', () => {
    assert.equal(checkFraming(valid.subarray(0, 8), 0, 8, undefined, true), 1);
    assert.equal(reason(valid.subarray(0, 5), true), 'ok');
  });
});

import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { ProfileReadError, type ProfileReader } from '../../src/analysis/formats/reader';
import { seededRandom } from '../../src/analysis/stats/seeded-random';

/** Bytes a flip writes: structure characters of text formats, digits, letters, NUL and invalid UTF-8. */
export const FLIP_BYTES = [
  0x2c, 0x3d, 0x5c, 0x0a, 0x30, 0x39, 0x78, 0x23, 0x7b, 0x7d, 0x5b, 0x22, 0x3a, 0x2f, 0x20, 0x00, 0xff,
];

/**
 * Damaged versions of a valid input, each with a name saying what was done: truncations (at every
 * line end and at evenly spaced offsets), single bytes overwritten at seeded random positions,
 * each line deleted, and truncated gzip streams of the whole input.
 */
export function* mutationsOf(
  valid: Buffer,
  options: { seed?: number; truncations?: number; flips?: number } = {},
): Generator<[string, Buffer]> {
  const truncations = options.truncations ?? 120;
  const flips = options.flips ?? 150;
  const cuts = new Set<number>();
  for (let k = 0; k < truncations; k++) cuts.add(Math.floor((k * valid.length) / truncations));
  for (let i = 0; i < valid.length; i++)
    if (valid[i] === 0x0a) {
      cuts.add(i);
      cuts.add(i + 1);
    }
  for (const n of [...cuts].sort((a, b) => a - b))
    if (n < valid.length) yield [`truncated to ${n} bytes`, valid.subarray(0, n)];

  const rnd = seededRandom(options.seed ?? 1);
  for (let k = 0; k < flips; k++) {
    const at = Math.floor(rnd() * valid.length);
    const byte = FLIP_BYTES[Math.floor(rnd() * FLIP_BYTES.length)]!;
    const copy = Buffer.from(valid);
    copy[at] = byte;
    yield [`byte ${at} set to 0x${byte.toString(16)}`, copy];
  }

  const lines = valid.toString('latin1').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]) continue;
    yield [`line ${i + 1} deleted`, Buffer.from(lines.filter((_, k) => k !== i).join('\n'), 'latin1')];
  }

  const gz = gzipSync(valid);
  for (const n of [10, Math.floor(gz.length / 2), gz.length - 4])
    yield [`gzip stream truncated to ${n} bytes`, gz.subarray(0, n)];
}

/**
 * Reads a (possibly damaged) file and reports whether it was read or rejected. Anything other than
 * a profile or a ProfileReadError naming the file, or no answer within `limitMs`, fails the test.
 */
export async function readOrReject(
  path: string,
  reader: ProfileReader,
  what: string,
  limitMs = 5000,
): Promise<'read' | 'rejected'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${limitMs} ms`)), limitMs);
  });
  try {
    const profile = await Promise.race([reader.read(path), timeout]);
    for (let m = 0; m < profile.metrics.length; m++)
      assert.ok(Number.isFinite(profile.total(m)), `${what}: total of ${profile.metrics[m]!.name} is not finite`);
    return 'read';
  } catch (e) {
    if (e instanceof ProfileReadError) {
      assert.ok(e.message.startsWith(path), `${what}: the message names the file: ${e.message}`);
      return 'rejected';
    }
    throw new Error(`${what}: ${(e as Error).stack ?? e}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}

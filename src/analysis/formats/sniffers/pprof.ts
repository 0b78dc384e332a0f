import { readHeadBytes } from '../file-sample';
import { checkFraming, WireError } from '../pprof/wire';
import type { FileSample, FormatSniffer } from '../reader';

/** Bytes sniffed: enough for a few top-level fields, whatever their order. */
const SNIFF_BYTES = 4096;

/**
 * The first bytes of the file's (gunzipped) content. FileSample.head is UTF-8 text, which loses the
 * bytes ≥ 0x80 a protobuf is full of, so the file is read again (a few µs). Samples that name no
 * readable file fall back to the head's own encoding.
 */
function headBytes(sample: FileSample): Uint8Array {
  const bytes = readHeadBytes(sample.path, SNIFF_BYTES);
  return bytes.length > 0 || sample.size === 0 ? bytes : Buffer.from(sample.head.slice(0, SNIFF_BYTES), 'utf8');
}

/** Whether a file is pprof (profile.proto): the cheap test the registry runs before loading the reader. */
export const pprofSniffer: FormatSniffer = {
  id: 'pprof',
  name: 'pprof (profile.proto)',
  sniff(sample: FileSample): number {
    if (sample.isDirectory || sample.size === 0) return 0;
    // Cheap gate: the first byte must be the tag of a Profile field (text files rarely pass it).
    const c = sample.head.charCodeAt(0);
    if (!(c >= 0x08 && c <= 0x7a && (c & 7) <= 2)) return 0;
    const bytes = headBytes(sample);
    const whole = !sample.gzip && bytes.length >= sample.size;
    try {
      const fields = checkFraming(bytes, 0, bytes.length, undefined, !whole);
      if (fields < 2) return 0;
      return fields >= 3 ? 0.7 : 0.4;
    } catch (e) {
      if (e instanceof WireError) return 0;
      throw e;
    }
  },
};

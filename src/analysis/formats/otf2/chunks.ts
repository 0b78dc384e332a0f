import { readChunks, type InputOptions } from '../io/file-input';
import { ProfileReadError } from '../reader';
import { Otf2Cursor, Otf2FormatError } from './cursor';

/** OTF2's buffer-internal record types (the first bytes of the type space). */
export const BufferRecord = {
  EndOfChunk: 0,
  EndOfBuffer: 1,
  EndOfFile: 2,
  ChunkHeader: 3,
  Timestamp: 5,
  AttributeList: 6,
} as const;

/** Byte-order marks of a chunk header. */
const LITTLE_ENDIAN = 0x42;
const BIG_ENDIAN = 0x23;

/**
 * Event records stored without a record length because their only attribute is one compressed
 * integer: Enter, Leave, MpiIsendComplete, MpiIrecvRequest, MpiRequestTest, MpiRequestCancelled,
 * OmpFork, OmpTaskCreate/Switch/Complete. Every other record carries its length, so records this
 * reader does not know are skipped by it.
 */
const SINGLETON_EVENTS = new Uint8Array(256);
for (const t of [12, 13, 16, 17, 20, 21, 24, 28, 29, 30]) SINGLETON_EVENTS[t] = 1;

/**
 * Called per record with the cursor on the record's data (`cur.end` is the record's end). For
 * event files, timestamp records and singleton events arrive already decoded: the value is in
 * `cur.hi`/`cur.lo` and the handler must not read.
 */
export type RecordHandler = (type: number, cur: Otf2Cursor) => void;

/**
 * Walks the records of one chunk: the chunk header (type 3, byte-order mark, first and last event
 * number), then records until an end-of-chunk or end-of-file marker. Returns true at the end of
 * the file. `events` selects the event-file encoding (timestamps, attribute lists, singletons).
 */
export function walkChunk(chunk: Uint8Array, events: boolean, onRecord: RecordHandler): boolean {
  const cur = new Otf2Cursor(chunk);
  if (chunk.length < 2 || chunk[0] !== BufferRecord.ChunkHeader)
    cur.fail('a chunk does not start with a chunk header (not an OTF2 file, or a damaged one)');
  const mark = chunk[1];
  if (mark !== LITTLE_ENDIAN && mark !== BIG_ENDIAN) cur.fail(`unknown byte-order mark 0x${mark!.toString(16)}`);
  cur.littleEndian = mark === LITTLE_ENDIAN;
  cur.pos = 2;
  cur.need(16, 'chunk header');
  cur.pos += 16;
  const size = chunk.length;
  while (cur.pos < size) {
    const type = chunk[cur.pos++]!;
    if (type === BufferRecord.EndOfChunk || type === BufferRecord.EndOfBuffer) return false;
    if (type === BufferRecord.EndOfFile) return true;
    cur.end = size;
    if (events && type === BufferRecord.Timestamp) {
      cur.fullU64Parts();
      onRecord(type, cur);
      continue;
    }
    if (events && SINGLETON_EVENTS[type]) {
      cur.u64Parts();
      onRecord(type, cur);
      continue;
    }
    let length = cur.u8();
    if (length === 0xff) {
      cur.fullU64Parts();
      length = cur.hi * 4294967296 + cur.lo;
    }
    const recordEnd = cur.pos + length;
    if (recordEnd > size) cur.fail(`truncated record of type ${type} (${length} bytes announced)`);
    cur.end = recordEnd;
    if (!(events && type === BufferRecord.AttributeList)) onRecord(type, cur);
    cur.pos = recordEnd;
  }
  return cur.fail('the chunk ends without an end-of-chunk or end-of-file marker (truncated file)');
}

/**
 * Streams an OTF2 buffer file chunk by chunk (records never cross chunk boundaries, so memory stays
 * at one chunk), gunzipping transparently. A damaged file ends in a ProfileReadError naming it.
 */
export async function walkFile(
  path: string,
  chunkSize: number,
  events: boolean,
  onRecord: RecordHandler,
  options: InputOptions = {},
): Promise<void> {
  const buf = new Uint8Array(chunkSize);
  let fill = 0,
    index = 0,
    done = false;
  const run = (chunk: Uint8Array) => {
    try {
      done = walkChunk(chunk, events, onRecord);
    } catch (e) {
      if (e instanceof Otf2FormatError)
        throw new ProfileReadError(path, `${e.message}${index ? ` (chunk ${index + 1})` : ''}`, { cause: e });
      throw e;
    }
    index++;
  };
  for await (const data of readChunks(path, { ...options, chunkSize: Math.min(chunkSize, 1 << 20) })) {
    let at = 0;
    while (at < data.length && !done) {
      const n = Math.min(chunkSize - fill, data.length - at);
      buf.set(data.subarray(at, at + n), fill);
      fill += n;
      at += n;
      if (fill === chunkSize) {
        run(buf);
        fill = 0;
      }
    }
    if (done) break;
  }
  if (!done && fill > 0) run(buf.subarray(0, fill));
  if (!done)
    throw new ProfileReadError(
      path,
      index ? 'the file ends without an end-of-file record (truncated)' : 'the file is empty',
    );
}

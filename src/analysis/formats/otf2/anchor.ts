import { Otf2Cursor } from './cursor';

/** What the anchor file (`<name>.otf2`) says about the archive. */
export interface Otf2Anchor {
  version: [number, number, number];
  traceFormat: number;
  eventChunkSize: number;
  defChunkSize: number;
  locations: number;
  globalDefinitions: number;
  machine: string;
  creator: string;
  description: string;
  properties: Record<string, string>;
}

/** The OTF2 major versions whose encoding this reader knows (1.x to 3.x share it). */
export const SUPPORTED_MAJOR_VERSIONS = [1, 2, 3];

const SUBSTRATE_POSIX = 1,
  SUBSTRATE_SION = 2,
  SUBSTRATE_NONE = 3;
const COMPRESSION_NONE = 1,
  COMPRESSION_ZLIB = 2;
/** Chunk sizes OTF2 accepts are 256 KiB–16 MiB; a wider range still rejects garbage before allocating. */
const MIN_CHUNK = 1024,
  MAX_CHUNK = 1 << 30;

/** True when the bytes start like an anchor file: chunk-header type, byte-order mark, "OTF2\0". */
export function looksLikeAnchor(head: Uint8Array | string): boolean {
  const at = (i: number) => (typeof head === 'string' ? head.charCodeAt(i) : head[i]);
  return (
    at(0) === 3 &&
    (at(1) === 0x42 || at(1) === 0x23) &&
    at(2) === 0x4f &&
    at(3) === 0x54 &&
    at(4) === 0x46 &&
    at(5) === 0x32 &&
    at(6) === 0
  );
}

/** Decodes an anchor file; `fail` receives the reason when it is not one this reader can use. */
export function parseAnchor(bytes: Uint8Array, fail: (reason: string) => never): Otf2Anchor {
  if (!looksLikeAnchor(bytes)) fail('not an OTF2 anchor file (wrong magic: it does not start with an OTF2 header)');
  const cur = new Otf2Cursor(bytes, bytes[1] === 0x42);
  cur.pos = 7;
  const anchorFormat = cur.u8();
  if (anchorFormat === 0) fail('malformed anchor file (anchor format 0)');
  cur.need(38, 'anchor header');
  const traceFormat = cur.u8();
  const version: [number, number, number] = [cur.u8(), cur.u8(), cur.u8()];
  if (!SUPPORTED_MAJOR_VERSIONS.includes(version[0])) {
    fail(
      `unsupported OTF2 version ${version.join('.')} (this reader supports versions ${SUPPORTED_MAJOR_VERSIONS[0]}.x to ${SUPPORTED_MAJOR_VERSIONS.at(-1)}.x)`,
    );
  }
  const eventChunkSize = cur.fullU64();
  const defChunkSize = cur.fullU64();
  for (const [what, size] of [
    ['event', eventChunkSize],
    ['definition', defChunkSize],
  ] as const) {
    if (!(size >= MIN_CHUNK && size <= MAX_CHUNK)) fail(`implausible ${what} chunk size ${size} in the anchor file`);
  }
  const substrate = cur.u8();
  if (substrate === SUBSTRATE_SION)
    fail(
      'the archive uses the SIONlib file substrate, which this reader does not support (record with SCOREP_TRACING_USE_SION=false)',
    );
  if (substrate !== SUBSTRATE_POSIX && substrate !== SUBSTRATE_NONE)
    fail(`unknown file substrate ${substrate} in the anchor file`);
  const compression = cur.u8();
  if (compression === COMPRESSION_ZLIB)
    fail('the archive is zlib-compressed per chunk, which this reader does not support');
  if (compression !== COMPRESSION_NONE && compression !== 0)
    fail(`unknown compression ${compression} in the anchor file`);
  const locations = cur.fullU64();
  const globalDefinitions = cur.fullU64();
  const machine = cur.string(),
    creator = cur.string(),
    description = cur.string();
  const properties: Record<string, string> = {};
  if (anchorFormat > 1) {
    const n = cur.fullU32();
    for (let i = 0; i < n; i++) {
      const k = cur.string();
      properties[k] = cur.string();
    }
  }
  return {
    version,
    traceFormat,
    eventChunkSize,
    defChunkSize,
    locations,
    globalDefinitions,
    machine,
    creator,
    description,
    properties,
  };
}

import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import {
  DRAGONFLY_LINK_TYPES,
  PACKET_FIELDS,
  ROUTER_HOP_FIELDS,
  type LinkStats,
  type NetworkTraceTable,
  type PacketTable,
  type RouterHopTable,
  type TerminalStats,
} from '../../pdes/model/network';
import { forEachLine } from '../io/file-input';
import { ProfileReadError, throwIfAborted, type ReadOptions } from '../reader';
import { numberField, requireColumns } from './text-table';

// A module-local binding for the per-field loop: a transpiled (unbundled) import is a getter call per use.
const parseNumber = numberField;

/** A per-PE CODES trace file and the PE that wrote it. */
export interface PeFile {
  path: string;
  pe: number;
}

/** `packet-latency/packets-delay-gid=<pe>.txt` files: one row per delivered packet. */
export function readPacketTraces(files: readonly PeFile[], options: ReadOptions = {}): Promise<PacketTable> {
  return readPeCsv(files, PACKET_FIELDS, options);
}

/** `router-timing/router-timing-gid=<pe>.txt` files: one row per router hop of a packet. */
export function readRouterTimings(files: readonly PeFile[], options: ReadOptions = {}): Promise<RouterHopTable> {
  return readPeCsv(files, ROUTER_HOP_FIELDS, options);
}

/**
 * CODES's per-PE CSV traces: a `#`-prefixed header line naming the columns, then comma-separated
 * numbers. Only the named fields are kept; a header without one of them is an error naming it.
 */
async function readPeCsv<F extends string>(
  files: readonly PeFile[],
  fields: readonly F[],
  options: ReadOptions,
): Promise<NetworkTraceTable<F>> {
  const cols = fields.map(() => new GrowableFloat64(1024));
  const pe = new GrowableInt32(1024);
  for (const f of files) {
    throwIfAborted(options.signal);
    /** For each column of the file, the field it fills (-1 for columns not kept); null before the header. */
    let fieldOfColumn: Int32Array | null = null;
    await forEachLine(
      f.path,
      (line, n) => {
        if (fieldOfColumn === null) {
          const header = line.replace(/^#\s*/, '').split(',');
          const found = requireColumns(f.path, header, fields);
          fieldOfColumn = new Int32Array(header.length).fill(-1);
          fields.forEach((k, i) => (fieldOfColumn![found[k]] = i));
          return;
        }
        if (!line.trim()) return;
        // Cut at commas and parse only the kept columns: the traces have 20-odd columns, most unused.
        const width = fieldOfColumn.length;
        let start = 0;
        for (let column = 0; column < width; column++) {
          const comma = line.indexOf(',', start);
          const last = column === width - 1;
          if (last ? comma >= 0 : comma < 0)
            throw new ProfileReadError(f.path, `line ${n} does not have the header's ${width} columns`);
          const end = last ? line.length : comma;
          const field = fieldOfColumn[column]!;
          if (field >= 0) cols[field]!.push(parseNumber(f.path, line.slice(start, end), n, fields[field]!));
          start = end + 1;
        }
        pe.push(f.pe);
      },
      { signal: options.signal },
    );
    if (fieldOfColumn === null) throw new ProfileReadError(f.path, 'the file is empty (no header line)');
  }
  const columns = {} as Record<F, Float64Array>;
  fields.forEach((k, i) => (columns[k] = cols[i]!.finish()));
  return { count: pe.length, pe: pe.finish(), columns };
}

/**
 * `lp-io/dragonfly-link-stats`: `# Format <source_id> <source_type> <dest_id> <dest_type>
 * <link_type> <link_traffic> <link_saturation> <stalled_chunks>`, then one whitespace-separated row
 * per directed link.
 */
export async function readLinkStats(path: string, options: ReadOptions = {}): Promise<LinkStats> {
  const src = new GrowableInt32(),
    dst = new GrowableInt32();
  const srcR = new GrowableUint8(),
    dstR = new GrowableUint8(),
    type = new GrowableUint8();
  const traffic = new GrowableFloat64(),
    saturation = new GrowableFloat64(),
    stalled = new GrowableFloat64();
  const endpoint = (t: string | undefined, n: number, column: string): number => {
    if (t === 'R' || t === 'T') return t === 'R' ? 1 : 0;
    throw new ProfileReadError(path, `line ${n}: column "${column}" is "${t ?? ''}", not T or R`);
  };
  await forEachLine(
    path,
    (line, n) => {
      if (line.startsWith('#')) {
        if (!/link_type/.test(line))
          throw new ProfileReadError(
            path,
            `line ${n}: the header does not describe dragonfly link stats ("link_type")`,
          );
        return;
      }
      if (!line.trim()) return;
      const f = line.trim().split(/\s+/);
      if (f.length !== 8) throw new ProfileReadError(path, `line ${n} has ${f.length} fields, not 8`);
      const t = DRAGONFLY_LINK_TYPES.indexOf(f[4] as never);
      if (t < 0) throw new ProfileReadError(path, `line ${n}: column "link_type" is "${f[4]}", not CN, L or G`);
      src.push(numberField(path, f[0], n, 'source_id'));
      srcR.push(endpoint(f[1], n, 'source_type'));
      dst.push(numberField(path, f[2], n, 'dest_id'));
      dstR.push(endpoint(f[3], n, 'dest_type'));
      type.push(t);
      traffic.push(numberField(path, f[5], n, 'link_traffic'));
      saturation.push(numberField(path, f[6], n, 'link_saturation'));
      stalled.push(numberField(path, f[7], n, 'stalled_chunks'));
    },
    { signal: options.signal },
  );
  return {
    count: src.length,
    srcId: src.finish(),
    srcIsRouter: srcR.finish(),
    dstId: dst.finish(),
    dstIsRouter: dstR.finish(),
    type: type.finish(),
    traffic: traffic.finish(),
    saturation: saturation.finish(),
    stalled: stalled.finish(),
  };
}

const CN_FIELDS = 10;

/**
 * `lp-io/dragonfly-cn-stats`: `# Format <LP id> <Terminal ID> <Total Data Sent> <Total Data
 * Received> <Avg packet latency> <Max packet Latency> <Min packet Latency> <# Packets finished>
 * <Avg Hops> <Avg Busy Time (over rails)>`.
 */
export async function readTerminalStats(path: string, options: ReadOptions = {}): Promise<TerminalStats> {
  const cols = Array.from({ length: CN_FIELDS }, () => new GrowableFloat64());
  const names = [
    'LP id',
    'Terminal ID',
    'Total Data Sent',
    'Total Data Received',
    'Avg packet latency',
    'Max packet Latency',
    'Min packet Latency',
    '# Packets finished',
    'Avg Hops',
    'Avg Busy Time',
  ];
  await forEachLine(
    path,
    (line, n) => {
      if (line.startsWith('#') || !line.trim()) return;
      const f = line.trim().split(/\s+/);
      if (f.length < CN_FIELDS) throw new ProfileReadError(path, `line ${n} has ${f.length} fields, not ${CN_FIELDS}`);
      for (let k = 0; k < CN_FIELDS; k++) cols[k]!.push(numberField(path, f[k], n, names[k]!));
    },
    { signal: options.signal },
  );
  const c = cols.map(g => g.finish());
  return {
    count: c[0]!.length,
    lp: Int32Array.from(c[0]!),
    terminal: Int32Array.from(c[1]!),
    dataSent: c[2]!,
    dataReceived: c[3]!,
    avgLatency: c[4]!,
    maxLatency: c[5]!,
    minLatency: c[6]!,
    packetsFinished: c[7]!,
    avgHops: c[8]!,
    busyTime: c[9]!,
  };
}

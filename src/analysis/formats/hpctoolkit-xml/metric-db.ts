import { Buffer } from 'node:buffer';
import { endianness } from 'node:os';
import { ProfileReadError } from '../reader';

/**
 * One `*.metric-db` file of an HPCToolkit classic database: the values of every calling-context
 * node for one rank × thread, as hpcprof-mpi writes them.
 *
 *   offset  0  18 bytes  tag "HPCPROF-metricdb__"
 *   offset 18   5 bytes  version "00.10"
 *   offset 23   1 byte   byte order: 'b' (big-endian, what hpcprof writes) or 'l'
 *   offset 24  u32       number of nodes N
 *   offset 28  u32       number of metrics M
 *   offset 32  N × M f64 row-major; row k holds the node whose `i` is k + 1, columns in MetricDB `db-id` order
 */
export class MetricDb {
  static readonly HEADER_BYTES = 32;
  private static readonly TAG = 'HPCPROF-metricdb__';
  private static readonly VERSION = '00.10';

  readonly nodeCount: number;
  readonly metricCount: number;
  /** The N × M matrix in the machine's byte order. */
  private readonly values: Float64Array;

  constructor(
    readonly path: string,
    bytes: Uint8Array,
  ) {
    const fail = (reason: string): never => {
      throw new ProfileReadError(path, reason);
    };
    if (bytes.length < MetricDb.HEADER_BYTES)
      fail(`truncated metric-db: the header needs ${MetricDb.HEADER_BYTES} bytes, the file has ${bytes.length}`);
    const text = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
    const tag = text(0, 18);
    if (tag !== MetricDb.TAG)
      fail(`not a metric-db file: wrong magic ${JSON.stringify(tag)} (expected "${MetricDb.TAG}")`);
    const version = text(18, 23);
    if (version !== MetricDb.VERSION)
      fail(`unsupported metric-db version ${JSON.stringify(version)} (HPC Lens reads ${MetricDb.VERSION})`);
    const order = text(23, 24);
    if (order !== 'b' && order !== 'l')
      fail(`unknown byte order ${JSON.stringify(order)} in the metric-db header (expected "b" or "l")`);
    const littleEndian = order === 'l';
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.nodeCount = view.getUint32(24, littleEndian);
    this.metricCount = view.getUint32(28, littleEndian);
    const needed = MetricDb.HEADER_BYTES + this.nodeCount * this.metricCount * 8;
    if (bytes.length < needed) {
      fail(
        `truncated metric-db: ${this.nodeCount} nodes × ${this.metricCount} metrics need ${needed} bytes, the file has ${bytes.length}`,
      );
    }
    // One copy into an aligned buffer, byte-swapped natively (Buffer.swap64) when the file's order
    // is not the machine's: no DataView call per value, which a cold process runs in the interpreter.
    const matrix = Buffer.allocUnsafeSlow(needed - MetricDb.HEADER_BYTES);
    matrix.set(bytes.subarray(MetricDb.HEADER_BYTES, needed));
    if (littleEndian !== (endianness() === 'LE')) matrix.swap64();
    this.values = new Float64Array(matrix.buffer, matrix.byteOffset, this.nodeCount * this.metricCount);
  }

  /** Value of the node with XML id `i` in `column`. The caller keeps i in [1, nodeCount]. */
  value(i: number, column: number): number {
    return this.values[(i - 1) * this.metricCount + column]!;
  }

  /** `out[k]` = the value in `column` of the node with XML id `ids[k]` (each in [1, nodeCount]). */
  gather(column: number, ids: Int32Array, out: Float64Array): void {
    const { values, metricCount } = this;
    for (let k = 0; k < ids.length; k++) out[k] = values[(ids[k]! - 1) * metricCount + column]!;
  }
}

export function isMetricDbName(name: string): boolean {
  return /\.metric-db(\.gz)?$/.test(name);
}

/**
 * Rank and thread from hpcprof's file name `<n>.<exe>-<rank>-<thread>-<host id>-<pid>-<gen>.metric-db`
 * (or hpcrun's `<exe>-<rank>-<thread>-<host id>-<pid>-<gen>.hpctrace`)
 * (the program name may itself contain dashes, so the fields are taken from the end), or null.
 */
export function rankThreadOf(fileName: string): { rank: number; thread: number } | null {
  const m = /-(\d+)-(\d+)-[0-9A-Za-z]+-\d+-\d+\.(?:metric-db(?:\.gz)?|hpctrace)$/.exec(fileName);
  return m ? { rank: Number(m[1]), thread: Number(m[2]) } : null;
}

/** HPCToolkit numbers GPU streams as threads from 500 up. */
export const FIRST_GPU_STREAM_THREAD = 500;

import { classValues, CLASS_COUNT, type ClassValues } from './categories';
import { dmvClock } from './clock';
import { dmvDeviceName, type DmvIndex } from './dmv-index';
import { dataMovementFlags, type FlagOptions } from './flags';
import { communicationMatrix } from './matrix';

/**
 * What `hpc-lens data-movement --json` prints: the run's range, busy time per class, the 12-sector
 * clock, the communication matrix and the flags, in seconds and bytes, from the same functions the
 * views use. The key order is part of the format.
 */
export interface DataMovementReport {
  range: { start: number; end: number };
  categories: ClassValues;
  clock: { sectorSeconds: number; sectors: ({ bytes: number } & ClassValues)[] };
  matrix: { src: string; dst: string; count: number; bytes: number }[];
  flags: { kind: string; file: string | null; line: number | null; count: number }[];
}

const seconds = (ns: number) => ns / 1e9;

export function dataMovementReport(index: DmvIndex, flagOptions?: FlagOptions): DataMovementReport {
  const busy = new Float64Array(CLASS_COUNT);
  index.classUnions.forEach((u, c) => (busy[c] = u.total));
  const clock = dmvClock(index, index.range);
  const matrix = communicationMatrix(index);
  return {
    range: { start: seconds(index.range.start), end: seconds(index.range.end) },
    categories: classValues(Array.from(busy, seconds)),
    clock: {
      sectorSeconds: seconds(clock.sectorWidth),
      sectors: clock.sectors.map(s => ({
        bytes: s.bytes,
        dataMovement: seconds(s.busy.dataMovement),
        gpuCompute: seconds(s.busy.gpuCompute),
        runtime: seconds(s.busy.runtime),
        cpuCompute: seconds(s.busy.cpuCompute),
      })),
    },
    matrix: matrix.cells.map(c => ({
      src: dmvDeviceName(c.src),
      dst: dmvDeviceName(c.dst),
      count: c.count,
      bytes: c.bytes,
    })),
    flags: dataMovementFlags(index, flagOptions).map(f => ({
      kind: f.kind,
      file: f.file,
      line: f.line,
      count: f.count,
    })),
  };
}

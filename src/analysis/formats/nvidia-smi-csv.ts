import { GrowableFloat64 } from '../model/growable';
import { forEachLine } from './io/file-input';
import { fromFileSystemError } from './io/fs-errors';
import { isAbortError, ProfileReadError, type ReadOptions } from './reader';

/**
 * GPU metrics sampled by `nvidia-smi --query-gpu=timestamp,index,utilization.gpu,memory.used,…
 * --format=csv -lms 500` (DMV's metric file, thesis §7.3; the DMVis sample has the same columns with
 * `timestamp` in ns since the epoch):
 *
 * ```text
 * timestamp, index, utilization.gpu [%], memory.used [MiB], pstate
 * 2024/01/15 10:00:00.123, 0, 45 %, 1234 MiB, P0
 * ```
 *
 * One series per GPU (the `index` column, else `pci.bus_id`, else a single GPU 0) and numeric column;
 * values keep nvidia-smi's units (`[%]`, `[MiB]`, `[W]`), and `[N/A]`, `[Not Supported]` and text
 * columns (name, pstate, uuid) are left out. Streamed line by line.
 */
export interface NvidiaSmiSeries {
  gpu: number;
  /** The query field, e.g. `utilization.gpu`. */
  metric: string;
  /** From the header's `[unit]` (`%`, `MiB`, `W`), or ''. */
  unit: string;
  /** Milliseconds since the Unix epoch (UTC), ascending. */
  epochMs: Float64Array;
  value: Float64Array;
}

export interface NvidiaSmiSamples {
  path: string;
  series: NvidiaSmiSeries[];
  /** Rows whose timestamp could not be read (skipped). */
  badRows: number;
}

export interface NvidiaSmiCsvOptions extends ReadOptions {
  /**
   * nvidia-smi prints local time without a zone; minutes to add to UTC to get that local time (e.g. 60
   * for CET). Default 0: the timestamps are taken as UTC.
   */
  utcOffsetMinutes?: number;
}

/** Reads an `nvidia-smi --format=csv` file; without a `timestamp` column it is a ProfileReadError naming the file. */
export async function readNvidiaSmiCsv(path: string, options: NvidiaSmiCsvOptions = {}): Promise<NvidiaSmiSamples> {
  const offsetMs = (options.utcOffsetMinutes ?? 0) * 60_000;
  let header: { name: string; unit: string }[] | null = null;
  let timeCol = -1,
    gpuCol = -1,
    busCol = -1;
  const busIds = new Map<string, number>();
  const cols = new Map<string, { time: GrowableFloat64; value: GrowableFloat64 }>();
  let badRows = 0;
  const lines = forEachLine(
    path,
    (line, lineNumber) => {
      if (!line.trim()) return;
      const cells = splitCsv(line);
      if (!header) {
        header = cells.map(c => {
          const m = /^(.*?)\s*\[([^\]]*)\]\s*$/.exec(c);
          return m ? { name: m[1]!.trim(), unit: m[2]!.trim() } : { name: c.trim(), unit: '' };
        });
        timeCol = header.findIndex(h => h.name.toLowerCase() === 'timestamp');
        if (timeCol < 0)
          throw new ProfileReadError(
            path,
            `line ${lineNumber}: no "timestamp" column (columns: ${cells.slice(0, 8).join(', ') || 'none'}); write it with --query-gpu=timestamp,… --format=csv`,
          );
        gpuCol = header.findIndex(h => ['index', 'gpu', 'gpu_index'].includes(h.name.toLowerCase()));
        busCol = header.findIndex(h => /^pci\.bus_id$/i.test(h.name));
        return;
      }
      const t = parseTimestamp(cells[timeCol] ?? '', offsetMs);
      if (!Number.isFinite(t)) {
        badRows++;
        return;
      }
      let gpu = 0;
      if (gpuCol >= 0) gpu = Number(cells[gpuCol]);
      else if (busCol >= 0) {
        const bus = cells[busCol] ?? '';
        if (!busIds.has(bus)) busIds.set(bus, busIds.size);
        gpu = busIds.get(bus)!;
      }
      if (!Number.isInteger(gpu)) {
        badRows++;
        return;
      }
      for (let c = 0; c < header.length; c++) {
        if (c === timeCol || c === gpuCol || c === busCol) continue;
        const v = leadingNumber(cells[c] ?? '');
        if (!Number.isFinite(v)) continue;
        const key = `${gpu}\u0000${c}`;
        let s = cols.get(key);
        if (!s) cols.set(key, (s = { time: new GrowableFloat64(), value: new GrowableFloat64() }));
        s.time.push(t);
        s.value.push(v);
      }
    },
    { signal: options.signal },
  );
  try {
    await lines;
  } catch (e) {
    if (isAbortError(e) || e instanceof ProfileReadError) throw e;
    throw fromFileSystemError(e, path);
  }
  if (!header) throw new ProfileReadError(path, 'the file is empty (no header line with a "timestamp" column)');
  const head: { name: string; unit: string }[] = header;
  const series: NvidiaSmiSeries[] = [...cols.entries()].map(([key, s]) => {
    const [gpu, c] = key.split('\u0000').map(Number) as [number, number];
    const time = s.time.finish(),
      value = s.value.finish();
    const order = Int32Array.from(time.keys()).sort((a, b) => time[a]! - time[b]! || a - b);
    return {
      gpu,
      metric: head[c]!.name,
      unit: head[c]!.unit,
      epochMs: Float64Array.from(order, i => time[i]!),
      value: Float64Array.from(order, i => value[i]!),
    };
  });
  series.sort(
    (a, b) => a.gpu - b.gpu || head.findIndex(h => h.name === a.metric) - head.findIndex(h => h.name === b.metric),
  );
  return { path, series, badRows };
}

/** Comma-separated cells, trimmed; double quotes group a cell (nvidia-smi does not quote, hand-made files may). */
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = '',
    quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** `45 %` → 45, `1234 MiB` → 1234, `P2` → NaN, `[N/A]` → NaN. */
function leadingNumber(cell: string): number {
  const m = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(cell.trim());
  return m ? Number(m[0]) : NaN;
}

/**
 * Milliseconds since the epoch from nvidia-smi's `YYYY/MM/DD HH:MM:SS.mmm` (local time: minus the
 * offset), an ISO date, or a number: ns (> 1e17), µs (> 1e14), ms (> 1e11) or s since the epoch.
 */
export function parseTimestamp(cell: string, utcOffsetMs = 0): number {
  const s = cell.trim();
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})[ T](\d{1,2}):(\d{2}):(\d{2})(\.\d+)?$/.exec(s);
  if (m) {
    const ms = m[7] ? Number(m[7]) * 1000 : 0;
    return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) + ms - utcOffsetMs;
  }
  if (/^\d+(\.\d+)?$/.test(s)) {
    const v = Number(s);
    return v > 1e17 ? v / 1e6 : v > 1e14 ? v / 1e3 : v > 1e11 ? v : v * 1e3;
  }
  const iso = Date.parse(s);
  return Number.isNaN(iso) ? NaN : iso;
}

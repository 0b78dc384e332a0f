/**
 * The per-reader table of `npm run bench`: for every dataset that has a Hatchet oracle, our read
 * time (median, in this process after a warm-up, CPU beside), throughput, the ratio to a plain parse of the
 * same bytes for JSON and XML inputs, and the speed-up over Hatchet's reader as timed on this
 * machine class (shared/oracle/README.md). Datasets are only read, never copied.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SaxesParser } from 'saxes';
import { readProfile } from '../src/analysis/formats';
import { sampleFile } from '../src/analysis/formats/file-sample';
import { formatMBs, median, summarise, timeRepeated, type Timing } from './bench-timing';

export interface ReaderBenchRow {
  dataset: string;
  format: string;
  bytes: number;
  nodes: number;
  medianMs: number;
  /** CPU milliseconds of the warm reads (median). */
  medianCpuMs: number;
  /** First read in a fresh process after the module is loaded (Hatchet's own timing method), or null when dist/read-once.js is missing. */
  coldMs: number | null;
  /** CPU milliseconds of that first read (median), steadier than wall time on a loaded machine. */
  coldCpuMs: number | null;
  plainParseMs: number | null;
  hatchetMs: number | null;
}

/**
 * Medians of `runs` first reads in fresh Node processes: wall and CPU milliseconds of the read alone.
 * `codeCache`: the folder of the V8 code cache the processes use, as the CLI's do (a first run, not
 * counted, writes it when it is missing); 'off' (the default): none, every process compiles afresh.
 */
export function coldRead(path: string, runs = 5, codeCache = 'off'): Timing | null {
  const script = join(__dirname, 'read-once.js');
  if (!existsSync(script)) return null;
  const times: Timing[] = [];
  const env = { ...process.env, HPC_LENS_CODE_CACHE: codeCache };
  if (codeCache !== 'off') spawnSync(process.execPath, [script, path], { env });
  for (let k = 0; k < runs; k++) {
    const r = spawnSync(process.execPath, [script, path, '--cpu'], { encoding: 'utf8', env });
    if (r.status !== 0) return null;
    const [w, c] = r.stdout.trim().split(' / ');
    times.push({ wallMs: Number(w), cpuMs: Number(c) });
  }
  const { wallMs, cpuMs } = summarise(times);
  return { wallMs, cpuMs };
}

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((s, e) => s + sizeOf(join(path, e)), 0);
}

/** Hatchet's median load times keyed by `<format>/<dataset>`, from the oracle README's table. */
function hatchetTimings(shared: string): Map<string, number> {
  return new Map([...hatchetRecords(shared)].map(([k, v]) => [k, v.loadMs]));
}

/**
 * Hatchet's recorded timings keyed by `<format>/<dataset>` (oracle README): the median load and the
 * whole Python process (interpreter start, `import hatchet`, load), as recorded, never rescaled.
 */
export function hatchetRecords(shared: string): Map<string, { loadMs: number; procMs: number; bytes: number }> {
  const out = new Map<string, { loadMs: number; procMs: number; bytes: number }>();
  const readme = join(shared, 'oracle', 'README.md');
  if (!existsSync(readme)) return out;
  for (const line of readFileSync(readme, 'utf8').split('\n')) {
    const cells = line.split('|').map(c => c.trim());
    // | format | dataset | reader | size | nodes | rows | median load (ms) | min–max | proc | status |
    if (cells.length < 11 || !/^\d+(\.\d+)?$/.test(cells[7] ?? '') || cells[10] !== 'ok') continue;
    const dataset = cells[2]!.replace(/ \(.*\)$/, '');
    out.set(`${cells[1]}/${dataset}`, { loadMs: Number(cells[7]), procMs: Number(cells[9]), bytes: Number(cells[4]) });
  }
  return out;
}

/** The plain parse our reader is compared with: JSON.parse for JSON, a bare SAX pass for XML. */
function plainParse(path: string): (() => unknown) | null {
  const st = statSync(path);
  const file = st.isDirectory() ? join(path, 'experiment.xml') : path;
  if (!existsSync(file) || statSync(file).isDirectory()) return null;
  const head = readFileSync(file).subarray(0, 64).toString('utf8').trimStart();
  if (head.startsWith('{') || head.startsWith('[')) return () => JSON.parse(readFileSync(file, 'utf8'));
  if (head.startsWith('<?xml') || head.startsWith('<')) {
    return () => {
      const p = new SaxesParser();
      p.on('opentag', () => undefined);
      p.write(readFileSync(file, 'utf8')).close();
    };
  }
  return null;
}

function oracleFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...oracleFiles(p));
    else if (e.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

/** The shared datasets that have a Hatchet oracle: `<format>/<dataset>` and the data's path (from the oracle file). */
export function oracleDatasets(shared: string): { key: string; dataPath: string }[] {
  const oracleRoot = join(shared, 'oracle');
  const out: { key: string; dataPath: string }[] = [];
  for (const file of oracleFiles(oracleRoot)) {
    const oracle = JSON.parse(readFileSync(file, 'utf8')) as { dataset: string };
    const dataPath = join(shared, '..', oracle.dataset);
    if (existsSync(dataPath)) out.push({ key: relative(oracleRoot, file).replace(/\.json$/, ''), dataPath });
  }
  return out;
}

/** Warm reads: 10 warm-ups (enough for V8 to optimise a reader's hot functions), then until 400 ms are spent (3 to 25 reads). */
const WARM_READS = { warmup: 10, repeats: 25, minRepeats: 3, budgetMs: 400 };

export async function benchReaders(shared: string): Promise<ReaderBenchRow[]> {
  const timings = hatchetTimings(shared);
  const rows: ReaderBenchRow[] = [];
  for (const { key, dataPath } of oracleDatasets(shared)) {
    let nodes: number;
    let format: string;
    try {
      const p = await readProfile(dataPath);
      nodes = p.tree.size;
      format = p.format;
    } catch (e) {
      console.log(`${key.padEnd(60)} cannot be read: ${(e as Error).message}`);
      continue;
    }
    const warm = await timeRepeated(() => readProfile(dataPath), WARM_READS);
    const plain = plainParse(dataPath);
    const plainParseMs =
      plain && !(await sampleFile(dataPath)).gzip ? (await timeRepeated(plain, WARM_READS)).wallMs : null;
    const cold = coldRead(dataPath);
    rows.push({
      dataset: key,
      format,
      bytes: sizeOf(dataPath),
      nodes,
      medianMs: warm.wallMs,
      medianCpuMs: warm.cpuMs,
      coldMs: cold?.wallMs ?? null,
      coldCpuMs: cold?.cpuMs ?? null,
      plainParseMs,
      hatchetMs: timings.get(key) ?? null,
    });
  }
  return rows;
}

/** The table as Markdown (the README's performance section is pasted from this output). */
export function readerTable(rows: ReaderBenchRow[]): string {
  const out = [
    '| dataset | reader | size (KB) | nodes | warm (ms) | warm CPU (ms) | MB/s warm | plain parse ÷ ours | cold (ms) | cold CPU (ms) | Hatchet (ms) | vs Hatchet, warm | vs Hatchet, cold |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const x = (h: number | null, ours: number | null) =>
    h === null || ours === null ? '–' : `${(h / ours).toFixed(h / ours < 10 ? 1 : 0)}×`;
  for (const r of rows) {
    const mbs = formatMBs(r.bytes, r.medianMs).replace(' MB/s', '');
    out.push(
      `| ${r.dataset} | ${r.format} | ${(r.bytes / 1024).toFixed(1)} | ${r.nodes} | ${r.medianMs.toFixed(2)} | ${r.medianCpuMs.toFixed(2)} | ${mbs} | ${r.plainParseMs === null ? '–' : (r.plainParseMs / r.medianMs).toFixed(2)} | ${r.coldMs === null ? '–' : r.coldMs.toFixed(1)} | ${r.coldCpuMs === null ? '–' : r.coldCpuMs.toFixed(1)} | ${r.hatchetMs ?? '–'} | ${x(r.hatchetMs, r.medianMs)} | ${x(r.hatchetMs, r.coldMs)} |`,
    );
  }
  const summary = (label: string, pick: (r: ReaderBenchRow) => number | null) => {
    const rs = rows.filter(r => r.hatchetMs !== null && pick(r) !== null);
    if (!rs.length) return;
    const ratios = rs.map(r => r.hatchetMs! / pick(r)!);
    const low = ratios.indexOf(Math.min(...ratios));
    out.push(
      `Speed-up over Hatchet, ${label}: median ${median(ratios).toFixed(1)}×, lowest ${ratios[low]!.toFixed(1)}× (${rs[low]!.dataset}), over ${rs.length} datasets.`,
    );
  };
  out.push('');
  summary('warm (in-process median after a warm-up)', r => r.medianMs);
  summary('cold (first read in a fresh process, as Hatchet was timed, without a code cache)', r => r.coldMs);
  return out.join('\n');
}

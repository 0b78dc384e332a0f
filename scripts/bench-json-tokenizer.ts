/**
 * Throughput of the streaming JSON tokenizer (src/analysis/formats/json/json-tokenizer.ts) against
 * `JSON.parse(readFileSync(f, 'utf8'))` and stream-json's parser, on two generated ~50 MB documents:
 * a numeric-heavy Caliper json-split profile and a string-heavy Chrome trace. The tokenizer runs with
 * a no-op handler, and also feeding a ValueAssembler that builds the whole document (the
 * like-for-like comparison with JSON.parse, which must build it).
 *
 *   npm run bench -- json-tokenizer     (HPC_LENS_BENCH_TOKENIZER_MB=50, HPC_LENS_BENCH_TOKENIZER_RUNS=3)
 *
 * The documents are written to os.tmpdir() and deleted at the end. Best of the runs, CPU beside wall.
 */
import { createReadStream, openSync, readFileSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parser from 'stream-json/parser.js';
import { tokenizeJsonFile, ValueAssembler, type JsonHandler } from '../src/analysis/formats/json/json-tokenizer';
import { seededRandom } from '../src/analysis/stats/seeded-random';
import { formatMBs, formatMs, timeRepeated, type Timing } from './bench-timing';

/** Writes a document produced piecewise by `next()` (returns null when done) to `path`. */
function writeDoc(path: string, head: string, next: (first: boolean) => string | null, tail: string): void {
  const fd = openSync(path, 'w');
  try {
    let pending = head;
    let first = true;
    for (;;) {
      const piece = next(first);
      if (piece === null) break;
      first = false;
      pending += piece;
      if (pending.length > 1 << 20) {
        writeSync(fd, pending);
        pending = '';
      }
    }
    writeSync(fd, pending + tail);
  } finally {
    closeSync(fd);
  }
}

/**
 * Caliper json-split: rows of [node id, rank, time, count, null]; times mostly with 6 significant
 * digits (what Caliper prints), one in ten at full double precision (17 digits).
 */
function writeCaliper(path: string, targetBytes: number): void {
  const r = seededRandom(1);
  let bytes = 0;
  writeDoc(
    path,
    '{"data":[',
    first => {
      if (bytes >= targetBytes) return null;
      const t = r() * 1000;
      const time = r() < 0.1 ? String(t) : String(Number(t.toPrecision(6)));
      const row = `${first ? '' : ','}[${Math.floor(r() * 5000)},${Math.floor(r() * 512)},${time},${Math.floor(r() * 100000)},null]`;
      bytes += row.length;
      return row;
    },
    `],"columns":["path","mpi.rank","time","count","extra"],"column_metadata":[{"is_value":false},{"is_value":false},{"is_value":true},{"is_value":true},{"is_value":false}],"nodes":[${Array.from(
      { length: 5000 },
      (_, i) => `{"label":"fn${i}","column":"path"${i > 0 ? `,"parent":${Math.floor(r() * i)}` : ''}}`,
    ).join(',')}]}`,
  );
}

/** Chrome trace: complete events with repeated names and categories, unique-ish args strings. */
function writeChromeTrace(path: string, targetBytes: number): void {
  const r = seededRandom(2);
  const kernels = Array.from(
    { length: 300 },
    (_, i) =>
      `void stencil::kernel_${i}<double, ${1 + (i % 8)}>(double const*, double*, int, int, stencil::Params<${i % 5}>)`,
  );
  const apis = [
    'cudaLaunchKernel',
    'cudaMemcpyAsync',
    'cudaStreamSynchronize',
    'MPI_Allreduce',
    'MPI_Isend',
    'MPI_Wait',
    'omp_parallel',
  ];
  let bytes = 0;
  let ts = 0;
  writeDoc(
    path,
    '{"traceEvents":[',
    first => {
      if (bytes >= targetBytes) return null;
      ts += Math.round(r() * 1e6) / 1e3;
      const gpu = r() < 0.5;
      const name = gpu ? kernels[Math.floor(r() * kernels.length)] : apis[Math.floor(r() * apis.length)];
      const args = gpu
        ? `{"correlation":${Math.floor(r() * 1e7)},"grid":"[${1 + Math.floor(r() * 1024)}, 1, 1]","block":"[256, 1, 1]","stream":${Math.floor(r() * 16)},"device":0,"context":"ctx-${Math.floor(r() * 1e9).toString(16)}"}`
        : `{"External id":${Math.floor(r() * 1e7)},"comm":"MPI_COMM_WORLD","bytes":${Math.floor(r() * 1e6)},"peer":"rank ${Math.floor(r() * 512)}"}`;
      const ev = `${first ? '' : ','}{"name":${JSON.stringify(name)},"cat":"${gpu ? 'kernel' : 'cuda_runtime'}","ph":"X","ts":${ts.toFixed(3)},"dur":${(r() * 100).toFixed(1)},"pid":${Math.floor(r() * 4)},"tid":${Math.floor(r() * 8)},"args":${args}}`;
      bytes += ev.length;
      return ev;
    },
    '],"displayTimeUnit":"ms"}',
  );
}

class NoopHandler implements JsonHandler {
  startObject(): void {}
  endObject(): void {}
  startArray(): void {}
  endArray(): void {}
  key(): void {}
  string(): void {}
  number(): void {}
  literal(): void {}
}

async function viaStreamJson(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let tokens = 0;
    const p = parser.asStream({ packValues: true, streamValues: false });
    p.on('data', () => tokens++);
    p.on('end', () => resolve(tokens));
    p.on('error', reject);
    createReadStream(path).on('error', reject).pipe(p);
  });
}

/** The best of `n` runs (wall and CPU each at their minimum): the tokenizers' own speed, least disturbed by load. */
const best = async (n: number, fn: () => unknown): Promise<Timing> =>
  (await timeRepeated(fn, { repeats: n, warmup: 0 })).min;

async function bench(label: string, path: string, runs: number): Promise<void> {
  const size = statSync(path).size;
  console.log(`\n${label}: ${path} (${(size / 1e6).toFixed(1)} MB)`);
  const rows: [string, Timing][] = [];
  rows.push(['JSON.parse(readFileSync(f, "utf8"))', await best(runs, () => JSON.parse(readFileSync(path, 'utf8')))]);
  const handler = new NoopHandler();
  rows.push(['tokenizeJsonFile + no-op handler', await best(runs, () => tokenizeJsonFile(path, handler))]);
  rows.push([
    'tokenizeJsonFile + ValueAssembler',
    await best(runs, async () => {
      const assembler = new ValueAssembler();
      assembler.begin();
      await tokenizeJsonFile(path, assembler);
      if (!assembler.done) throw new Error('ValueAssembler did not complete');
    }),
  ]);
  rows.push(['stream-json parser (packValues)', await best(1, () => viaStreamJson(path))]);
  const base = rows[0]![1];
  for (const [name, t] of rows) {
    console.log(
      `  ${name.padEnd(38)} ${formatMBs(size, t.wallMs).padStart(12)}  ${formatMs(t.wallMs, { digits: 0, width: 9 })} (CPU ${formatMs(t.cpuMs, { digits: 0 })})  ${(base.wallMs / t.wallMs).toFixed(2)}x JSON.parse`,
    );
  }
}

/** The section: two generated documents of about `mb` MB, best of `runs` runs each. */
export async function benchJsonTokenizer(
  mb = Number(process.env.HPC_LENS_BENCH_TOKENIZER_MB ?? 50),
  runs = Number(process.env.HPC_LENS_BENCH_TOKENIZER_RUNS ?? 3),
): Promise<void> {
  const stamp = `${process.pid}-${Date.now()}`;
  const caliper = join(tmpdir(), `bench-json-tokenizer-caliper-${stamp}.json`);
  const chrome = join(tmpdir(), `bench-json-tokenizer-trace-${stamp}.json`);
  try {
    console.log(`\nJSON tokenizer: generating ~${mb} MB documents in ${tmpdir()} …`);
    writeCaliper(caliper, mb * 1e6);
    writeChromeTrace(chrome, mb * 1e6);
    console.log(`node ${process.version}, best of ${runs} runs (stream-json: 1 run)`);
    await bench('numeric-heavy (Caliper json-split)', caliper, runs);
    await bench('string-heavy (Chrome trace)', chrome, runs);
  } finally {
    rmSync(caliper, { force: true });
    rmSync(chrome, { force: true });
  }
}

/**
 * Throughput of the streaming JSON tokenizer (src/analysis/formats/json/json-tokenizer.ts) against
 * `JSON.parse(readFileSync(f, 'utf8'))` and stream-json's parser, on two generated ~50 MB documents:
 * a numeric-heavy Caliper json-split profile and a string-heavy Chrome trace. The tokenizer runs with
 * a no-op handler, and also feeding a ValueAssembler that builds the whole document (the
 * like-for-like comparison with JSON.parse, which must build it).
 *
 *   npx tsx scripts/bench-json-tokenizer.ts [--mb 50] [--runs 3]
 *
 * The documents are written to os.tmpdir() and deleted at the end.
 */
import { createReadStream, openSync, readFileSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import parser from 'stream-json/parser.js';
import { tokenizeJsonFile, ValueAssembler, type JsonHandler } from '../src/analysis/formats/json/json-tokenizer';
import { seededRandom } from '../src/analysis/stats/seeded-random';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const targetBytes = arg('mb', 50) * 1e6;
const runs = arg('runs', 3);

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
function writeCaliper(path: string): void {
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
function writeChromeTrace(path: string): void {
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

/** Best wall time of `n` runs, in ms. */
async function best(n: number, fn: () => unknown): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

async function bench(label: string, path: string): Promise<void> {
  const size = statSync(path).size;
  const mb = size / 1e6;
  console.log(`\n${label}: ${path} (${mb.toFixed(1)} MB)`);
  const rows: [string, number][] = [];
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
  const base = rows[0][1];
  for (const [name, ms] of rows) {
    console.log(
      `  ${name.padEnd(38)} ${(mb / (ms / 1000)).toFixed(1).padStart(7)} MB/s  ${ms.toFixed(0).padStart(6)} ms  ${(base / ms).toFixed(2)}x JSON.parse`,
    );
  }
}

async function main(): Promise<void> {
  const stamp = `${process.pid}-${Date.now()}`;
  const caliper = join(tmpdir(), `bench-json-tokenizer-caliper-${stamp}.json`);
  const chrome = join(tmpdir(), `bench-json-tokenizer-trace-${stamp}.json`);
  try {
    console.log(`generating ~${targetBytes / 1e6} MB documents in ${tmpdir()} …`);
    writeCaliper(caliper);
    writeChromeTrace(chrome);
    console.log(`node ${process.version}, best of ${runs} runs (stream-json: 1 run)`);
    await bench('numeric-heavy (Caliper json-split)', caliper);
    await bench('string-heavy (Chrome trace)', chrome);
  } finally {
    rmSync(caliper, { force: true });
    rmSync(chrome, { force: true });
  }
}

main().catch(e => {
  console.error(e);
  process.exitCode = 1;
});

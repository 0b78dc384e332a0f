/**
 * Writes a large, realistic synthetic profile for the responsiveness benchmark and the extension-host
 * responsiveness test: a sampled call tree (Caliper json-split with call paths and source locations,
 * the layout `cali-query … format json-split` gives for sampling runs) with deep call paths, many
 * functions spread over many source files, two metrics and one MPI rank per context. Also writes
 * the C sources those paths name, so the editor can place CodeLens on them.
 *
 * Deterministic: the same options give the same bytes.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { seededRandom } from '../src/analysis/stats/seeded-random';

export interface LargeProfileOptions {
  /** Call-tree nodes (call paths). */
  nodes: number;
  /** MPI ranks, i.e. contexts. */
  ranks: number;
  /** Distinct source files; each defines FUNCTIONS_PER_FILE functions. */
  files: number;
  /** Directory the recorded source paths point into (the sources are written there by writeLargeProfileSources). */
  sourceDir: string;
}

export const FUNCTIONS_PER_FILE = 10;
/** Lines per generated function: a definition line, an opening brace, a body, a closing brace. */
const FUNCTION_SPAN = 12;
/** Distinct sampled lines inside each function body. */
const SAMPLED_LINES = 8;
const MAX_DEPTH = 48;

export function generatedFileName(file: number): string {
  return `kernel_${String(file).padStart(4, '0')}.c`;
}

export function generatedFunctionName(fn: number): string {
  return `k${Math.floor(fn / FUNCTIONS_PER_FILE)}_step${fn % FUNCTIONS_PER_FILE}`;
}

/** 1-based definition line of function `fn` in its file. */
function definitionLine(fn: number): number {
  return 1 + (fn % FUNCTIONS_PER_FILE) * FUNCTION_SPAN;
}

/** The C source of generated file `file`: FUNCTIONS_PER_FILE functions at fixed lines. */
export function generatedSource(file: number): string {
  const out: string[] = [];
  for (let j = 0; j < FUNCTIONS_PER_FILE; j++) {
    const fn = file * FUNCTIONS_PER_FILE + j;
    out.push(`void ${generatedFunctionName(fn)}(double *restrict a, const double *restrict b, int n)`, '{');
    for (let l = 0; l < SAMPLED_LINES; l++)
      out.push(`  for (int i = ${l}; i < n; i += ${SAMPLED_LINES}) a[i] += ${l + 1}.0 * b[i];`);
    while (out.length % FUNCTION_SPAN !== FUNCTION_SPAN - 1) out.push('');
    out.push('}');
  }
  return out.join('\n') + '\n';
}

/** Writes every source file the profile names into `options.sourceDir`. */
export function writeLargeProfileSources(options: LargeProfileOptions): void {
  mkdirSync(options.sourceDir, { recursive: true });
  for (let f = 0; f < options.files; f++)
    writeFileSync(join(options.sourceDir, generatedFileName(f)), generatedSource(f));
}

/**
 * The profile's text in chunks of about 50 000 rows. Call paths follow a random walk that goes
 * deeper more often than it climbs (depth up to MAX_DEPTH); function popularity is skewed (a few
 * functions own most nodes, as in real codes); every node carries exclusive time on one rank, and
 * one node in 32 on every rank with a rank-dependent skew (so load imbalance is visible).
 */
function* largeProfileChunks(options: LargeProfileOptions): Generator<string> {
  const { nodes, ranks, files, sourceDir } = options;
  if (nodes < 1 || ranks < 1 || files < 1)
    throw new Error('a generated profile needs at least one node, rank and file');
  const functions = files * FUNCTIONS_PER_FILE;
  const rnd = seededRandom(0x5eed);
  const parent = new Int32Array(nodes);
  const fnOf = new Int32Array(nodes);
  const stack: number[] = [];
  for (let i = 0; i < nodes; i++) {
    if (i === 0) {
      parent[0] = -1;
      fnOf[0] = 0;
      stack.push(0);
      continue;
    }
    while (stack.length > MAX_DEPTH || (stack.length > 1 && rnd() < 0.3)) stack.pop();
    parent[i] = stack[stack.length - 1]!;
    fnOf[i] = Math.min(functions - 1, Math.floor(functions * rnd() ** 3));
    if (rnd() < 0.65) stack.push(i);
  }

  let buf: string[] = [];
  const take = () => {
    const s = buf.join('');
    buf = [];
    return s;
  };
  const locNode = (fn: number, k: number) => nodes + fn * SAMPLED_LINES + k;
  buf.push('{"data":[');
  let first = true;
  for (let i = 0; i < nodes; i++) {
    const base = 1e-5 * (1 + Math.floor(rnd() * 1000)) * (i < 64 ? 50 : 1);
    const loc = locNode(fnOf[i]!, i % SAMPLED_LINES);
    const everyRank = i % 32 === 0;
    const r0 = Math.floor(rnd() * ranks);
    for (let r = everyRank ? 0 : r0; r < (everyRank ? ranks : r0 + 1); r++) {
      const t = base * (everyRank ? 1 + r / ranks : 1);
      const cycles = Math.round(t * 2.4e9 * (0.9 + 0.2 * rnd()));
      buf.push(`${first ? '' : ','}[${t.toPrecision(6)},${cycles},${r},${i},${loc}]`);
      first = false;
    }
    if (buf.length > 50000) yield take();
  }
  buf.push(
    '],"columns":["sum#time.duration","sum#papi.PAPI_TOT_CYC","mpi.rank","source.function#callpath.address","sourceloc#cali.sampler.pc"],',
  );
  buf.push(
    '"column_metadata":[{"is_value":true},{"is_value":true},{"is_value":false},{"is_value":false},{"is_value":false}],"nodes":[',
  );
  for (let i = 0; i < nodes; i++) {
    buf.push(
      `${i ? ',' : ''}{"label":"${generatedFunctionName(fnOf[i]!)}","column":"source.function#callpath.address"${i ? `,"parent":${parent[i]}` : ''}}`,
    );
    if (buf.length > 50000) yield take();
  }
  for (let fn = 0; fn < functions; fn++) {
    const file = join(sourceDir, generatedFileName(Math.floor(fn / FUNCTIONS_PER_FILE))).replaceAll('\\', '/');
    for (let k = 0; k < SAMPLED_LINES; k++)
      buf.push(
        `,{"label":${JSON.stringify(`${file}:${definitionLine(fn) + 2 + k}`)},"column":"sourceloc#cali.sampler.pc"}`,
      );
    if (buf.length > 50000) yield take();
  }
  buf.push(`],"mpi.world.size":${ranks},"cali.caliper.version":"2.10.0"}`);
  yield take();
}

/** Writes the profile to `path` (see largeProfileChunks). */
export function writeLargeProfile(path: string, options: LargeProfileOptions): { bytes: number } {
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    for (const chunk of largeProfileChunks(options)) bytes += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { bytes };
}

/** writeLargeProfile that yields to the event loop between chunks (for the extension host, which must stay responsive). */
export async function writeLargeProfileAsync(path: string, options: LargeProfileOptions): Promise<{ bytes: number }> {
  const file = await open(path, 'w');
  let bytes = 0;
  try {
    for (const chunk of largeProfileChunks(options)) bytes += (await file.write(chunk)).bytesWritten;
  } finally {
    await file.close();
  }
  return { bytes };
}

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { WorkerPool } from './worker-pool';

/**
 * The Node bundles as built (node esbuild.mjs): the CLI and the analysis worker load the sniffers
 * plus the reader that matched, each reader a chunk (dist/part-*.js) required on first use, with
 * the code cache for every chunk loaded.
 */
const DIST = resolve(__dirname, '..', '..', 'dist');
const ROOT = resolve(__dirname, '..', '..');
const SAMPLE = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
const CALLGRIND = join(ROOT, 'samples/heat-stencil/profiles/callgrind.out.heat-stencil-4ranks');
/** A build older than esbuild.mjs may predate the split (npm test runs the unit tests before it builds). */
const skip = !existsSync(join(DIST, 'cli-main.js'))
  ? 'dist is not built (node esbuild.mjs)'
  : statSync(join(DIST, 'cli-main.js')).mtimeMs < statSync(join(ROOT, 'esbuild.mjs')).mtimeMs
    ? 'dist is older than esbuild.mjs (node esbuild.mjs)'
    : false;

/** Strings only a reader (or a library only that reader uses) holds: absent from what a process loads at start. */
const READER_ONLY = [
  'no TAU profile files', // tau-profile.ts
  'the file is missing from the OTF2 archive', // otf2.ts
  'a pprof profile is a protobuf message', // pprof.ts
  'sql-wasm.wasm', // nsight-sqlite (sql.js)
  'YAMLParseError', // the yaml package, read by hpctoolkit-metadb's metric taxonomy
];

/** The files a bundle loads when it starts: itself and the chunks it requires at its top level (not inside import()). */
function loadedAtStart(main: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = readFileSync(join(DIST, name), 'utf8');
    // A lazy chunk is required inside `Promise.resolve().then(() => __toESM(require(…)))` (minified or not).
    for (const m of text.matchAll(/require\("\.\/((?:dev-)?part-[^"]+\.js)"\)/g))
      if (!/Promise\.resolve\(\)\.then\(\(\) ?=> ?\w+\($/.test(text.slice(Math.max(0, m.index - 60), m.index)))
        visit(m[1]!);
  };
  visit(main);
  return [...seen];
}

describe('split Node bundles (lazily loaded reader chunks)', { skip }, () => {
  it('the CLI and the worker load no reader at start; each reader is in a chunk of its own', () => {
    const chunks = readdirSync(DIST).filter(n => /^part-.*\.js$/.test(n));
    for (const main of ['cli-main.js', 'analysis-worker-main.js']) {
      const atStart = loadedAtStart(main);
      assert.ok(atStart.length > 1, `${main} requires its shared chunks`);
      const text = atStart.map(n => readFileSync(join(DIST, n), 'utf8')).join('\n');
      for (const s of READER_ONLY) assert.ok(!text.includes(s), `${main} loads "${s}" at start`);
      // Each reader is required lazily (import() became a require inside a promise).
      assert.match(
        readFileSync(join(DIST, main), 'utf8') + text,
        /Promise\.resolve\(\)\.then\(\(\) ?=> ?\w+\(require\("\.\/part-tau-profile-/,
      );
    }
    for (const s of READER_ONLY)
      assert.ok(
        chunks.some(n => readFileSync(join(DIST, n), 'utf8').includes(s)),
        `"${s}" is built`,
      );
  });

  it('worker threads read through the chunks, with a code cache per loaded chunk', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'hpc-lens-split-'));
    try {
      for (let round = 0; round < 2; round++) {
        const pool = new WorkerPool({ workerScript: join(DIST, 'analysis-worker.js'), codeCacheDir: cacheDir });
        try {
          const warm = await pool.warm();
          assert.equal(warm.codeCache, round === 0 ? 'created' : 'accepted');
          const a = await pool.open({ path: SAMPLE });
          const b = await pool.open({ path: CALLGRIND });
          assert.equal(a.data.format, 'caliper-json-split');
          assert.equal(b.data.format, 'callgrind');
          assert.ok(b.data.tree.parent.length > 1);
        } finally {
          pool.dispose();
        }
        const caches = readdirSync(cacheDir);
        assert.ok(caches.some(n => n.startsWith('analysis-worker-main-')));
        // The callgrind reader's chunk (not warmed at start) stored its cache after its first read.
        for (const reader of ['caliper-json-split', 'callgrind'])
          assert.ok(
            caches.some(n => n.startsWith(`part-${reader}-`)),
            `${reader}: ${caches.join(' ')}`,
          );
      }
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

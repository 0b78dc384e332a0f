// Builds every bundle HPC Lens ships: the extension host, the analysis worker, the CLI, the benchmark
// and the single webview bundle. `--production` minifies; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

/**
 * A Node bundle split into chunks: each `import()` (every format's reader, formats/registry.ts) and
 * the code those chunks share become `dist/part-*.js` files that load on first use, so a process
 * loads the sniffers plus the reader it needs. esbuild splits only ES modules, so each output file is
 * then converted to CommonJS (import() becoming a require of the chunk): the launchers run CommonJS
 * through vm.Script with V8's code cache (src/service/code-cache.ts), chunks included, on Node 20 too.
 * Chunks stay beside the bundles, so __dirname (sql-wasm.wasm, package.json) means the same in all.
 */
const splitCommonJs = {
  name: 'split-commonjs',
  setup(build) {
    build.onEnd(async result => {
      for (const file of result.outputFiles ?? []) {
        if (!file.path.endsWith('.js')) continue;
        const out = await esbuild.transform(file.text, {
          format: 'cjs',
          platform: 'node',
          target: 'node20',
          supported: { 'dynamic-import': false },
          sourcefile: file.path,
          sourcemap: production ? false : 'external',
          minify: production,
        });
        const mapName = `${basename(file.path)}.map`;
        writeFileSync(file.path, production ? out.code : `${out.code}//# sourceMappingURL=${mapName}\n`);
        if (!production) writeFileSync(`${file.path}.map`, out.map);
      }
    });
  },
};
const split = {
  ...node,
  format: 'esm',
  splitting: true,
  chunkNames: 'part-[name]-[hash]',
  // The ESM output carries its source map inline; the conversion above maps it on to the sources.
  sourcemap: production ? false : 'inline',
  write: false,
  plugins: [splitCommonJs],
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  { ...node, entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist', external: ['vscode'] },
  // The worker and the CLI each start from a tiny launcher that runs their bundle with V8's code
  // cache (src/service/code-cache.ts); `hpc-lens --version` never loads the bundle.
  {
    ...node,
    entryPoints: { 'analysis-worker': 'src/service/analysis-worker-launch.ts' },
    outdir: 'dist',
    sourcemap: false,
  },
  { ...split, entryPoints: { 'analysis-worker-main': 'src/service/analysis-worker.ts' }, outdir: 'dist' },
  {
    ...node,
    entryPoints: { cli: 'src/cli/launch.ts' },
    outdir: 'dist',
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
    define: { HPC_LENS_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  },
  { ...split, entryPoints: { 'cli-main': 'src/cli/hpc-lens.ts' }, outdir: 'dist' },
  // The bench's chunks are named apart so that packaging (.vscodeignore) leaves them out.
  { ...split, entryPoints: { bench: 'scripts/bench.ts' }, outdir: 'dist', chunkNames: 'dev-part-[name]-[hash]' },
  {
    ...split,
    entryPoints: { 'read-once-main': 'scripts/read-once.ts' },
    outdir: 'dist',
    chunkNames: 'dev-part-[name]-[hash]',
  },
  { ...node, entryPoints: { 'read-once': 'scripts/read-once-launch.ts' }, outdir: 'dist', sourcemap: false },
  // Extension-host tests: bundled so they run in any VS Code without a TypeScript step.
  {
    ...node,
    entryPoints: { 'test/suite/index': 'test/integration/suite/index.ts' },
    outdir: 'dist',
    external: ['vscode', 'mocha'],
  },
  {
    entryPoints: { webview: 'webview-ui/src/main.tsx' },
    outdir: 'dist',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    // The Chromium in VS Code 1.138 and later.
    target: 'chrome130',
    jsx: 'automatic',
    sourcemap: production ? false : 'inline',
    minify: production,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  },
];

// sql.js (Nsight SQLite reader) loads its WebAssembly from beside the bundle.
mkdirSync('dist', { recursive: true });
// Chunks are named by content hash: a fresh build removes the previous build's (packaging takes dist/part-*.js).
if (!watch) for (const name of readdirSync('dist')) if (/^(dev-)?part-/.test(name)) rmSync(join('dist', name));
copyFileSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist/sql-wasm.wasm');

if (watch) {
  const contexts = await Promise.all(builds.map(b => esbuild.context(b)));
  await Promise.all(contexts.map(c => c.watch()));
  console.log('[esbuild] watching');
} else {
  await Promise.all(builds.map(b => esbuild.build(b)));
}

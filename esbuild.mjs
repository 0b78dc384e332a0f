// Builds every bundle HPC Lens ships: the extension host, the analysis worker, the CLI, the benchmark
// and the single webview bundle. `--production` minifies; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

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
  { ...node, entryPoints: { 'analysis-worker-main': 'src/service/analysis-worker.ts' }, outdir: 'dist' },
  {
    ...node,
    entryPoints: { cli: 'src/cli/launch.ts' },
    outdir: 'dist',
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
    define: { HPC_LENS_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  },
  { ...node, entryPoints: { 'cli-main': 'src/cli/hpc-lens.ts' }, outdir: 'dist' },
  {
    ...node,
    entryPoints: { bench: 'scripts/bench-launch.ts', 'read-once-main': 'scripts/read-once.ts' },
    outdir: 'dist',
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
copyFileSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist/sql-wasm.wasm');

/**
 * Escapes the non-ASCII characters esbuild leaves in comments and regular expression literals (it
 * escapes strings and templates itself) as `\uXXXX`, the same characters in either place, so the
 * launchers read an all-ASCII bundle as Latin-1 (src/service/code-cache.ts `readSource`).
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  // `\×` (an identity escape) would become a backslash and `u00d7`: none is written today.
  if (/\\[\u0080-\uffff]/.test(text)) throw new Error(`${file}: a backslash before a non-ASCII character`);
  const escaped = text.replace(/[\u0080-\uffff]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped !== text) writeFileSync(file, escaped);
}
/** The bundles the launchers run through the code cache. */
const CACHED_BUNDLES = ['dist/cli-main.js', 'dist/analysis-worker-main.js', 'dist/read-once-main.js'];

if (watch) {
  const contexts = await Promise.all(builds.map(b => esbuild.context(b)));
  await Promise.all(contexts.map(c => c.watch()));
  console.log('[esbuild] watching');
} else {
  await Promise.all(builds.map(b => esbuild.build(b)));
  for (const bundle of CACHED_BUNDLES) asciiOnly(bundle);
}

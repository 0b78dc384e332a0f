import { buildSync } from 'esbuild';

/**
 * An analysis-worker script for worker-thread tests, bundled from the TypeScript sources by esbuild
 * as one CommonJS file: the format registry loads readers by import(), which tsx's CommonJS hook
 * cannot serve inside a worker thread (the product's bundles split them into chunks, esbuild.mjs).
 * `source` is the worker's CommonJS code (requires of .ts files, e.g. a test system's registration
 * before analysis-worker.ts).
 */
export function writeTestWorker(outfile: string, source: string): string {
  buildSync({
    stdin: { contents: source, loader: 'js', resolveDir: __dirname },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

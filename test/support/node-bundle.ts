import { buildSync } from 'esbuild';

/**
 * Bundles a few lines of TypeScript (importing project modules by absolute path) into one CommonJS
 * file for Node, as esbuild.mjs bundles the CLI and the worker, so a test can run it in a fresh process.
 */
export function bundleNodeScript(lines: string[], outfile: string, resolveDir: string): string {
  buildSync({
    stdin: { contents: lines.join('\n'), resolveDir, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

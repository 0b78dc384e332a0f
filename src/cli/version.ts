/**
 * The version `hpc-lens --version` prints: put into the bundle by esbuild.mjs (`HPC_LENS_VERSION`),
 * read from package.json when run from source.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

declare const HPC_LENS_VERSION: string | undefined;

export function cliVersion(): string {
  if (typeof HPC_LENS_VERSION === 'string') return HPC_LENS_VERSION;
  return (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}

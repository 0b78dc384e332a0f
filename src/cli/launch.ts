/**
 * dist/cli.js, the `hpc-lens` command: answers `--version` at once, and otherwise runs the CLI bundle
 * (dist/cli-main.js, built from hpc-lens.ts) with V8's tiering chosen by the input's size
 * (short-run-tiering.ts) and V8's code cache, so a fresh process skips compiling
 * it. The cache lives in $HPC_LENS_CODE_CACHE, else $XDG_CACHE_HOME/hpc-lens, else ~/.cache/hpc-lens;
 * HPC_LENS_CODE_CACHE=off runs without one. Kept tiny: only Node built-ins and code-cache.ts.
 */
import { join } from 'node:path';
import { launchWithUserCodeCache } from '../service/code-cache';
import { cliVersion } from './version';

const first = process.argv[2];
if (first === '--version' || first === '-V') {
  process.stdout.write(`hpc-lens ${cliVersion()}\n`);
} else {
  launchWithUserCodeCache(join(__dirname, 'cli-main.js'), process.argv.slice(3));
}

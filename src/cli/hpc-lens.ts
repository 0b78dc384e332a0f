/**
 * `hpc-lens`: the analysis library on the command line, for terminals, CI jobs and clusters. Each
 * verb (verbs/) prints JSON from the same analysis code as the editor's view of that capability.
 */
import { currentCodeCache } from '../service/code-cache';
import { runHpcLens } from './cli-main';
import type { VerbIO } from './verb';

// `hpc-lens inspect --json big | head` closes the pipe early: that ends the output, it is no error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});
const io: VerbIO = { out: t => process.stdout.write(t), err: t => process.stderr.write(t) };
runHpcLens(process.argv.slice(2), io).then(async code => {
  process.exitCode = code;
  // A run that found no usable code cache (the first after an install or update) warms the hot
  // readers and analyses and stores the cache with them compiled, as the analysis workers do.
  const cache = currentCodeCache();
  if (cache && cache.state !== 'accepted')
    await import('../service/warm-up').then(m => m.warmUp()).catch(() => undefined);
});

/**
 * `hpc-lens`: the analysis library on the command line, for terminals, CI jobs and clusters. Each
 * verb (verbs/) prints JSON from the same analysis code as the editor's view of that capability.
 */
import { quoteContent } from '../analysis/errors/escape-control';
import { formatError } from '../analysis/errors/format-error';
import { ProfileReadError } from '../analysis/formats/reader';
import { currentCodeCache } from '../service/code-cache';
import { warmUp } from '../service/warm-up';
import { UsageError, type VerbIO } from './verb';
import { VERBS } from './verbs';
import { cliVersion } from './version';

const USAGE = `usage: hpc-lens <verb> [options]

Verbs:
${VERBS.map(v => `  ${v.synopsis}`).join('\n')}

hpc-lens <verb> --help prints a verb's options.`;

async function main(argv: string[], io: VerbIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V') {
    io.out(`hpc-lens ${cliVersion()}\n`);
    return 0;
  }
  const verb = VERBS.find(v => v.name === name);
  if (!verb) {
    io.err(`hpc-lens: unknown verb ${quoteContent(name)}\n${USAGE}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(verb.usage + '\n');
    return 0;
  }
  try {
    return await verb.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`hpc-lens ${verb.name}: ${e.message}\n${verb.usage}\n`);
      return 2;
    }
    // One clean line; HPC_LENS_DEBUG=1 adds the stack trace of an internal error for bug reports.
    io.err(`hpc-lens: ${formatError(e)}\n`);
    if (process.env['HPC_LENS_DEBUG'] && e instanceof Error && !(e instanceof ProfileReadError))
      io.err(`${e.stack ?? ''}\n`);
    return 1;
  }
}

// `hpc-lens inspect --json big | head` closes the pipe early: that ends the output, it is no error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});
const io: VerbIO = { out: t => process.stdout.write(t), err: t => process.stderr.write(t) };
main(process.argv.slice(2), io).then(async code => {
  process.exitCode = code;
  // A run that found no usable code cache (the first after an install or update) warms the hot
  // readers and analyses and stores the cache with them compiled, as the analysis workers do.
  const cache = currentCodeCache();
  if (cache && cache.state !== 'accepted') await warmUp().catch(() => undefined);
});

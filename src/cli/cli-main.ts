/**
 * The `hpc-lens` command line as a function: dispatches `argv` to its verb and turns every error into
 * one clean line on `io.err`. `hpc-lens.ts` runs it as a process; the fuzz runner's pooled children
 * run the same code path in-process, many inputs per process.
 */
import { quoteContent } from '../analysis/errors/escape-control';
import { formatError } from '../analysis/errors/format-error';
import { ProfileReadError } from '../analysis/formats/reader';
import { UsageError, type VerbIO } from './verb';
import { VERBS } from './verbs';
import { cliVersion } from './version';

const USAGE = `usage: hpc-lens <verb> [options]

Verbs:
${VERBS.map(v => `  ${v.synopsis}`).join('\n')}

hpc-lens <verb> --help prints a verb's options.`;

export async function runHpcLens(argv: string[], io: VerbIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V') {
    io.out(`hpc-lens ${cliVersion()}\n`);
    return 0;
  }
  const entry = VERBS.find(v => v.name === name);
  if (!entry) {
    io.err(`hpc-lens: unknown verb ${quoteContent(name)}\n${USAGE}\n`);
    return 2;
  }
  const verb = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(verb.usage + '\n');
    return 0;
  }
  try {
    return await verb.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`hpc-lens ${entry.name}: ${e.message}\n${verb.usage}\n`);
      return 2;
    }
    // One clean line; HPC_LENS_DEBUG=1 adds the stack trace of an internal error for bug reports.
    io.err(`hpc-lens: ${formatError(e)}\n`);
    if (process.env['HPC_LENS_DEBUG'] && e instanceof Error && !(e instanceof ProfileReadError))
      io.err(`${e.stack ?? ''}\n`);
    return 1;
  }
}

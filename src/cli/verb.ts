/**
 * One `hpc-lens` verb as `verbs/index.ts` lists it: its name, its synopsis and how to load its
 * module (loaded only when the verb runs or prints its help); `cli-main.ts` only dispatches.
 */
export interface VerbEntry {
  name: string;
  /** One line for the verb list: `inspect [--json] [--top N] PATH`. */
  synopsis: string;
  load(): Promise<Verb>;
}

/** What a verb's module (its own file under `verbs/`) gives: its usage text and what it does. */
export interface Verb {
  /** The verb's full help (options and what it prints). */
  usage: string;
  /** Runs the verb; resolves to the process exit code (0 ok, 1 failed on the input, 2 bad usage). */
  run(args: string[], io: VerbIO): Promise<number>;
}

/** Where a verb writes: stdout for results, stderr for errors and progress. */
export interface VerbIO {
  out(text: string): void;
  err(text: string): void;
}

/** A usage error: the verb's usage is printed after the message and the exit code is 2. */
export class UsageError extends Error {}

/**
 * Splits `args` into flags and positional arguments. `valued` names the flags that take a value
 * (`--top 5` or `--top=5`); any other `--flag` is boolean. An unknown flag is a UsageError.
 */
export function parseArgs(
  args: readonly string[],
  spec: { boolean?: readonly string[]; valued?: readonly string[] },
): { flags: Map<string, string | true>; positional: string[] } {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  const valued = new Set(spec.valued ?? []);
  const boolean = new Set(spec.boolean ?? []);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('--') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (valued.has(name)) {
      const value = eq >= 0 ? a.slice(eq + 1) : args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else if (boolean.has(name) && eq < 0) flags.set(name, true);
    else throw new UsageError(`unknown option ${a}`);
  }
  return { flags, positional };
}

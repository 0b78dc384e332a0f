/**
 * A long-lived fuzz child (bundled beside the CLI by `buildCli`): runs `hpc-lens inspect --json PATH`
 * in-process for each input the parent sends — the CLI's own code path (`runHpcLens`), with stdout
 * and stderr captured — and answers with the exit code, the output, the CPU time of the input
 * (`process.cpuUsage` delta), its peak resident memory (the kernel's high-water mark, reset before
 * each input) and the memory left once the input is collected, so the parent can restart a child
 * that grew. The parent enforces the CPU, memory and wall-clock limits from outside (a blocked event
 * loop cannot police itself) and re-runs every failing input in a fresh process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { runHpcLens } from '../../src/cli/cli-main';
import type { PoolAnswer, PoolRequest } from './pool-protocol';

/** Resident-memory high-water mark of this process in bytes (VmHWM), or 0 where /proc is absent. */
function peakResident(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resets the high-water mark to the current resident size (Linux ≥ 4.0), so it measures one input. */
function resetPeakResident(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    /* not Linux: the parent's sampling still bounds the peak */
  }
}

const send = (answer: PoolAnswer) => process.send!(answer);

/** The output of the input being read; direct writes to stdout/stderr (console.warn…) land here too. */
let current: { id: number; out: string[]; err: string[] } | null = null;
const capture =
  (stream: 'out' | 'err', original: typeof process.stdout.write) =>
  (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    if (!current) return (original as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    current[stream].push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find(r => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  };
process.stdout.write = capture('out', process.stdout.write.bind(process.stdout)) as typeof process.stdout.write;
process.stderr.write = capture('err', process.stderr.write.bind(process.stderr)) as typeof process.stderr.write;

// An exception no one catches ends the real CLI with a stack trace: report it against the input
// being read (or the last one, when it comes between inputs) and exit, as the CLI would.
let lastId: number | null = null;
const fatal = (e: unknown) => {
  send({ type: 'uncaught', id: current?.id ?? lastId, error: String((e as Error)?.stack ?? e) });
  process.exit(70);
};
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

/** Handles (sockets, timers, file handles) that keep a process alive, by kind. */
const activeResources = () => process.getActiveResourcesInfo().sort();

/**
 * Waits up to `ms` for the handles the input opened to close. A handle left open would keep the real
 * CLI from exiting (a hang, found only in a fresh process): the parent re-runs such an input there.
 */
async function lingering(before: readonly string[], ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    await new Promise(r => setImmediate(r));
    const left = [...activeResources()];
    for (const b of before) {
      const i = left.indexOf(b);
      if (i >= 0) left.splice(i, 1);
    }
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise(r => setTimeout(r, 5));
  }
}

process.on('message', (request: PoolRequest) => {
  void (async () => {
    current = { id: request.id, out: [], err: [] };
    const before = activeResources();
    resetPeakResident();
    const cpu = process.cpuUsage();
    const code = await runHpcLens(['inspect', '--json', request.path], {
      out: t => current!.out.push(t),
      err: t => current!.err.push(t),
    });
    const used = process.cpuUsage(cpu);
    const left = await lingering(before, 200);
    const peakRssBytes = peakResident();
    const { out, err } = current;
    current = null;
    lastId = request.id;
    // What stays after a full collection is what this input leaked (or cached) into the process; the
    // collection (tens of ms) only runs when the child looks big, which is what the parent decides on.
    let memory = process.memoryUsage();
    if (memory.rss > request.collectAboveBytes) {
      (globalThis as { gc?: () => void }).gc?.();
      memory = process.memoryUsage();
    }
    send({
      type: 'result',
      id: request.id,
      code,
      stdout: out.join(''),
      stderr: err.join(''),
      cpuSeconds: (used.user + used.system) / 1e6,
      peakRssBytes,
      rssAfterBytes: memory.rss,
      heapAfterBytes: memory.heapUsed + memory.external,
      lingering: left,
    });
  })();
});

send({ type: 'ready' });

/**
 * A long-lived child process that reads fuzz inputs in-process (`pool-child.ts`): thousands of inputs
 * without a process start each. The limits are enforced from here, by sampling the child's CPU time
 * and resident memory in /proc: past the CPU or memory limit, or the wall-clock limit, the child is
 * killed and restarted. A child that grew past `restartAboveBytes` after an input is restarted before
 * the next one, so one input's leak is not blamed on the next. The verdict is `judge`'s, as for a fresh
 * process; the runner re-runs every failing (or suspect) input in a fresh `hpc-lens inspect --json`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { DEFAULT_LIMITS, judge, type CaseResult, type RunLimits } from './run-case';
import type { PoolAnswer } from './pool-protocol';
import { processCpuSeconds, residentBytes } from './proc-usage';

/** A pooled child's verdict on one input. */
export interface PooledResult extends CaseResult {
  /**
   * Why this passing result is not to be trusted without a fresh process: the input left handles open
   * (the real CLI might not exit), or the child died after answering. Null when there is no doubt.
   */
  suspect: string | null;
}

export interface PoolOptions {
  limits?: RunLimits;
  /** Restart the child when, after an input and a full collection, it is resident above this (default 768 MB). */
  restartAboveBytes?: number;
  /** Restart the child after this many inputs whatever its size (default 2000). */
  restartEvery?: number;
  /** How often /proc is sampled while an input runs (default 100 ms). */
  sampleMs?: number;
}

interface Pending {
  id: number;
  path: string;
  resolve: (r: PooledResult) => void;
}

export class PooledInspector {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private pending: Pending | null = null;
  private nextId = 0;
  private served = 0;
  private readonly limits: RunLimits;
  private readonly restartAboveBytes: number;
  private readonly restartEvery: number;
  private readonly sampleMs: number;
  /** Children started so far (the first one, then one per restart). */
  started = 0;
  /** The last input a child answered for and that child's exit, when it died between inputs. */
  diedAfter: { path: string; detail: string } | null = null;

  /** `script` is the bundled child (`fuzz-child.js` beside the CLI). */
  constructor(
    private readonly script: string,
    options: PoolOptions = {},
  ) {
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.restartAboveBytes = options.restartAboveBytes ?? 768e6;
    this.restartEvery = options.restartEvery ?? 2000;
    this.sampleMs = options.sampleMs ?? 100;
  }

  private start(): Promise<void> {
    const child = fork(this.script, [], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    this.served = 0;
    // What reaches the real stdout/stderr (V8's fatal errors, a crash report) belongs to the input being read.
    this.raw = [];
    child.stdout!.on('data', (d: Buffer) => this.raw.push(d));
    child.stderr!.on('data', (d: Buffer) => this.raw.push(d));
    let lastAnswered: string | null = null;
    this.ready = new Promise((resolve, reject) => {
      child.once('error', reject);
      child.on('message', (m: PoolAnswer) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'result' && this.pending?.id === m.id) {
          const p = this.pending;
          lastAnswered = p.path;
          this.finish(p, m);
        } else if (m.type === 'uncaught' && this.pending && (m.id === null || m.id === this.pending.id)) {
          this.fail(this.pending, 'crash', `uncaught exception: ${m.error.split('\n')[0]!.slice(0, 300)}`);
        } else if (m.type === 'uncaught') {
          this.diedAfter = { path: lastAnswered ?? '?', detail: m.error.split('\n')[0]!.slice(0, 300) };
        }
      });
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        reject(new Error(`fuzz child exited (${code ?? signal}) before it was ready`));
        const stderr = Buffer.concat(this.raw).toString('utf8');
        if (this.pending) {
          const p = this.pending;
          const verdict = judge(p.path, {
            code,
            signal,
            killedFor: this.killedFor,
            cpuSeconds: NaN,
            rssBytes: this.peak,
            stdout: '',
            stderr,
          });
          this.settle(p, { ...verdict, cpuSeconds: this.cpuSoFar(), rssBytes: this.peak, suspect: null });
        } else if (lastAnswered && !this.stopping)
          this.diedAfter ??= { path: lastAnswered, detail: `exit ${code ?? signal}: ${stderr.split('\n')[0]}` };
      });
    });
    return this.ready;
  }

  /** What the child wrote to its real stdout and stderr during the current input. */
  private raw: Buffer[] = [];
  private killedFor: 'memory' | 'timeout' | null = null;
  private peak = 0;
  private cpuAtStart = 0;
  private poll: NodeJS.Timeout | null = null;
  private wall: NodeJS.Timeout | null = null;
  private stopping = false;

  private cpuSoFar(): number {
    return this.lastCpu - this.cpuAtStart;
  }
  private lastCpu = 0;

  /** Reads `path` with `hpc-lens inspect --json` in the pooled child and judges the outcome. */
  async inspect(path: string): Promise<PooledResult> {
    if (this.pending) throw new Error('one input at a time per pooled inspector');
    if (this.child && this.served >= this.restartEvery) await this.stop();
    if (!this.child) {
      this.started++;
      await this.start();
    }
    const child = this.child!;
    const pid = child.pid!;
    this.killedFor = null;
    this.raw = [];
    this.peak = residentBytes(pid);
    this.cpuAtStart = this.lastCpu = processCpuSeconds(pid);
    return new Promise<PooledResult>(resolve => {
      const p: Pending = { id: this.nextId++, path, resolve };
      this.pending = p;
      this.served++;
      this.poll = setInterval(() => {
        const rss = residentBytes(pid);
        this.peak = Math.max(this.peak, rss);
        const cpu = processCpuSeconds(pid);
        if (Number.isFinite(cpu)) this.lastCpu = cpu;
        if (rss > this.limits.rssBytes) this.kill('memory');
        // A second past the limit, as the kernel's limit does for a fresh process.
        else if (this.cpuSoFar() > this.limits.cpuSeconds + 1) this.kill('timeout');
      }, this.sampleMs);
      this.wall = setTimeout(() => this.kill('timeout'), this.limits.wallSeconds * 1000);
      child.send({ id: p.id, path, collectAboveBytes: this.restartAboveBytes });
    });
  }

  private kill(reason: 'memory' | 'timeout'): void {
    this.killedFor ??= reason;
    this.child?.kill('SIGKILL');
  }

  private finish(p: Pending, m: Extract<PoolAnswer, { type: 'result' }>): void {
    const rssBytes = Math.max(m.peakRssBytes, this.peak);
    const verdict = judge(p.path, {
      code: m.code,
      signal: null,
      killedFor: null,
      cpuSeconds: m.cpuSeconds,
      rssBytes,
      stdout: m.stdout,
      stderr: m.stderr,
    });
    const suspect = m.lingering.length ? `left open: ${m.lingering.join(', ')}` : null;
    this.settle(p, { ...verdict, cpuSeconds: m.cpuSeconds, rssBytes, suspect });
    // A child that kept what it read (a leak, or caches) would inflate the next input's figures.
    if (m.rssAfterBytes > this.restartAboveBytes) void this.stop();
  }

  private fail(p: Pending, verdict: 'crash', detail: string): void {
    this.settle(p, { verdict, detail, cpuSeconds: this.cpuSoFar(), rssBytes: this.peak, suspect: null });
    void this.stop();
  }

  private settle(p: Pending, r: PooledResult): void {
    if (this.pending !== p) return;
    this.pending = null;
    if (this.poll) clearInterval(this.poll);
    if (this.wall) clearTimeout(this.wall);
    this.poll = this.wall = null;
    p.resolve(r);
  }

  /** Stops the child (the next input starts a new one). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    this.stopping = true;
    await new Promise<void>(resolve => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    this.stopping = false;
  }
}

/**
 * Writes Kineto / PyTorch-profiler trace JSON (the dialect DMTracker also writes, thesis §7.3) for
 * tests and demos: CPU threads with Python frames and operators, CUDA runtime calls that launch GPU
 * work (kernels, copies, memsets) on streams linked by `correlation` and `ac2g` flows, counters and
 * allocator events. Times are microseconds, as in real traces; the file goes through the project's
 * own Chrome-trace reader like any other.
 */
export interface GpuWork {
  kind: 'kernel' | 'memcpy' | 'memset';
  /** Start and duration on the GPU, µs. */
  ts: number;
  dur: number;
  name?: string;
  /** Copies and memsets. */
  bytes?: number;
  /** Copies: `HtoD`, `DtoH`, `DtoD`; the copy name becomes `Memcpy HtoD (Pageable -> Device)`. */
  direction?: 'HtoD' | 'DtoH' | 'DtoD';
  /** Host memory kind of a copy (default Pinned). */
  host?: 'Pageable' | 'Pinned';
  device?: number;
  stream?: number;
}

const PID = 4242;

export class KinetoTraceWriter {
  private readonly events: Record<string, unknown>[] = [];
  private correlation = 1;
  private readonly streams = new Set<string>();
  readonly deviceProperties: Record<string, unknown>[] = [];

  /** A Python frame (`python_function`, named `file.py(LINE): func`) on a CPU thread. */
  python(frame: string, ts: number, dur: number, tid = PID): void {
    this.events.push({ ph: 'X', cat: 'python_function', name: frame, pid: PID, tid, ts, dur, args: {} });
  }

  /** A CPU operator (`cpu_op`) or any other CPU slice. */
  op(name: string, ts: number, dur: number, cat = 'cpu_op', tid = PID): void {
    this.events.push({ ph: 'X', cat, name, pid: PID, tid, ts, dur, args: {} });
  }

  /** A CUDA runtime call at [ts, ts + dur) launching GPU work (same correlation id, an ac2g flow). */
  launch(runtime: string, ts: number, dur: number, work: GpuWork, tid = PID): void {
    const corr = this.correlation++;
    this.events.push({
      ph: 'X',
      cat: 'cuda_runtime',
      name: runtime,
      pid: PID,
      tid,
      ts,
      dur,
      args: { correlation: corr },
    });
    this.gpu(work, corr);
    const device = work.device ?? 0,
      stream = work.stream ?? 7;
    this.events.push({ ph: 's', cat: 'ac2g', name: 'ac2g', id: corr, pid: PID, tid, ts });
    this.events.push({ ph: 'f', cat: 'ac2g', name: 'ac2g', id: corr, pid: device, tid: stream, ts: work.ts, bp: 'e' });
  }

  /** GPU work with no runtime call (or with a given correlation id). */
  gpu(work: GpuWork, correlation?: number): void {
    const device = work.device ?? 0,
      stream = work.stream ?? 7;
    this.streams.add(`${device}:${stream}`);
    const args: Record<string, unknown> = { device, stream };
    if (correlation !== undefined) args['correlation'] = correlation;
    if (work.bytes !== undefined) args['bytes'] = work.bytes;
    let cat = 'kernel',
      name = work.name ?? 'void gemm_kernel<float>(float*, float const*, float const*)';
    if (work.kind === 'memcpy') {
      cat = 'gpu_memcpy';
      const dir = work.direction ?? 'HtoD';
      const host = work.host ?? 'Pinned';
      name =
        work.name ??
        `Memcpy ${dir} (${dir === 'HtoD' ? `${host} -> Device` : dir === 'DtoH' ? `Device -> ${host}` : 'Device -> Device'})`;
    } else if (work.kind === 'memset') {
      cat = 'gpu_memset';
      name = work.name ?? 'Memset (Device)';
    }
    this.events.push({ ph: 'X', cat, name, pid: device, tid: stream, ts: work.ts, dur: work.dur, args });
  }

  /** A counter sample (`C`): one series per key of `values`. */
  counter(name: string, ts: number, values: Record<string, number>): void {
    this.events.push({ ph: 'C', name, pid: PID, ts, args: values });
  }

  /** An allocator event (`[memory]`) on a device (-1 = host). */
  memory(ts: number, device: number, bytes: number): void {
    this.events.push({
      ph: 'i',
      s: 't',
      cat: 'cpu_instant_event',
      name: '[memory]',
      pid: PID,
      tid: PID,
      ts,
      args: { 'Device Type': device < 0 ? 0 : 1, 'Device Id': device, Bytes: bytes },
    });
  }

  /** Any raw event (for malformed-input tests). */
  raw(event: Record<string, unknown>): void {
    this.events.push(event);
  }

  /** Adds a `deviceProperties` entry (an A100-like GPU). */
  device(id: number, name = 'NVIDIA A100-SXM4-40GB'): void {
    this.deviceProperties.push({
      id,
      name,
      totalGlobalMem: 42297524224,
      computeMajor: 8,
      computeMinor: 0,
      numSms: 108,
    });
  }

  get eventCount(): number {
    return this.events.length;
  }

  toJson(): string {
    const meta: Record<string, unknown>[] = [
      { name: 'process_name', ph: 'M', pid: PID, tid: 0, args: { name: 'python' } },
      { name: 'thread_name', ph: 'M', pid: PID, tid: PID, args: { name: 'thread (python)' } },
    ];
    for (const s of this.streams) {
      const [device, stream] = s.split(':');
      meta.push({ name: 'process_name', ph: 'M', pid: Number(device), tid: 0, args: { name: 'python' } });
      meta.push({
        name: 'thread_name',
        ph: 'M',
        pid: Number(device),
        tid: Number(stream),
        args: { name: `stream ${stream}` },
      });
    }
    return JSON.stringify({
      schemaVersion: 1,
      ...(this.deviceProperties.length ? { deviceProperties: this.deviceProperties } : {}),
      traceEvents: [...meta, ...this.events],
    });
  }
}

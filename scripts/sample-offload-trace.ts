/**
 * Writes samples/heat-stencil/profiles/heat-offload-kineto.json: a trace of the GPU port that
 * src/offload.c sketches, in the Chrome trace-event shape the PyTorch profiler (Kineto) writes —
 * `Operator` events with a `Call stack`, `Runtime` events (cudaMemcpyAsync, cudaMemsetAsync,
 * cudaLaunchKernel) with correlation ids, `Memcpy`/`Memset`/`Kernel` activities on `stream 7` of
 * GPU 0 with `bytes`, and `launch` flows from each runtime call to its activity.
 *
 * It is synthetic, like the other sample profiles: rank 0 of `make run` (409 of 1024 rows, 1026
 * doubles a row with the ghost columns) for 20 time steps of offload_timesteps(), with copy times
 * from a latency + bytes/bandwidth model of pageable PCIe copies and ±4 % seeded noise. The call
 * stacks are C frames in Kineto's `file(line): function` form, and every line is found in
 * src/offload.c by a code fragment inside a named function (generate-samples' `locate`), so the
 * copies lead to the lines that issue them after the C file changes and the trace is regenerated.
 */
import { BUILD_SRC, locate, partitionRows, prepare, RUN, type Site } from './generate-samples';
import { seededRandom } from '../src/analysis/stats/seeded-random';

export const OFFLOAD_TRACE_FILE = 'heat-offload-kineto.json';

/** The traced window: rank 0 of the default run, 20 steps. */
export const OFFLOAD_RUN = { rank: 0, steps: 20 } as const;

const SEED = 0x0ff1;
const NOISE = 0.04;

/** The model of the device and its link, in µs and bytes per µs. Roughly a PCIe 4 x16 link and an A100. */
const LINK = {
  h2dLatency: 2,
  h2dBandwidth: 11e3, // pageable host → device, 11 GB/s
  d2hLatency: 2,
  d2hBandwidth: 12e3, // device → pageable host, 12 GB/s
  memsetLatency: 1,
  memsetBandwidth: 900e3, // device fill, 900 GB/s
  sweepPerCell: 9e-6, // jacobi kernel, bandwidth-bound: ~14 bytes a cell at 1.5 TB/s
  launch: 3, // runtime call overhead on the host
  exchange: 28, // exchange_halos on rank 0 (the slowest rank: its neighbours are already waiting)
};

/** A call in offload.c, found by a code fragment inside function `fn` (a plain object: generate-samples imports this module). */
const call = (fn: string, code: string): Site => ({ file: 'offload.c', fn, code });

/** The calls every stack frame of the trace stands at. */
const O = {
  stageInCopy: call('offload_stage_in', 'dev_memcpy_async(d->u, u, d->cells'),
  stageInMemset: call('offload_stage_in', 'dev_memset_async(d->unew, 0,'),
  toHostFirst: call('offload_halos_to_host', 'dev_memcpy_async(u + w, d->u + w, row,'),
  toHostLast: call('offload_halos_to_host', 'dev_memcpy_async(u + (size_t)b->rows * w,'),
  toDeviceFirst: call('offload_halos_to_device', 'dev_memcpy_async(d->u, u, row,'),
  toDeviceLast: call('offload_halos_to_device', 'dev_memcpy_async(d->u + (size_t)(b->rows + 1) * w,'),
  stageOutCopy: call('offload_stage_out', 'dev_memcpy_async(u, d->u, d->cells'),
  callStageIn: call('offload_timesteps', 'offload_stage_in(b, u, &d)'),
  callToHost: call('offload_timesteps', 'offload_halos_to_host(b, &d, u);'),
  callExchange: call('offload_timesteps', 'exchange_halos(b, u);'),
  callToDevice: call('offload_timesteps', 'offload_halos_to_device(b, &d, u);'),
  callSweep: call('offload_timesteps', 'jacobi_sweep(b, d.u, d.unew);'),
  callStageOut: call('offload_timesteps', 'offload_stage_out(b, &d, u);'),
};

const CPU_PID = 4242;
const GPU_PID = 0;
const STREAM = 7;

type Activity = 'HtoD' | 'DtoH' | 'memset';

/** The trace, as the text of the JSON file, for the given C sources (by file name). */
export function generateOffloadTrace(sources: Record<string, string>): string {
  const prepared = prepare(sources);
  const frame = (s: Site): string => `${BUILD_SRC}${s.file}(${locate(prepared, s)}): ${s.fn}`;
  const stack = (...frames: Site[]) => frames.map(frame).join(';');
  const random = seededRandom(SEED);
  const noisy = (us: number) => Math.max(1, Math.round(us * (1 + NOISE * (2 * random() - 1))));

  const { count: rows } = partitionRows(RUN.ny, RUN.ranks, OFFLOAD_RUN.rank);
  const width = RUN.nx + 2;
  const blockBytes = (rows + 2) * width * 8;
  const rowBytes = width * 8;

  const events: string[] = [];
  const origin = 1_700_000_000_000_000; // µs since the epoch, as Kineto writes
  let cpu = 0; // host clock, µs from the origin
  let gpuFree = 0; // when stream 7 is next idle
  let correlation = 1000;
  let external = 1;
  const x = (
    cat: string,
    name: string,
    pid: number,
    tid: string,
    ts: number,
    dur: number,
    args: Record<string, unknown>,
  ) =>
    events.push(
      `  {"ph": "X", "cat": ${JSON.stringify(cat)}, "name": ${JSON.stringify(name)}, "pid": ${pid}, "tid": ${JSON.stringify(tid)}, "ts": ${origin + ts}, "dur": ${dur}, "args": ${JSON.stringify(args)}}`,
    );
  const flow = (ph: 's' | 'f', id: number, pid: number, tid: string, ts: number) =>
    events.push(
      `  {"ph": "${ph}", "id": ${id}, "pid": ${pid}, "tid": ${JSON.stringify(tid)}, "ts": ${origin + ts}, "cat": "async", "name": "launch"${ph === 'f' ? ', "bp": "e"' : ''}}`,
    );
  const cpuTid = String(CPU_PID),
    gpuTid = `stream ${STREAM}`;

  /** One runtime call under an Operator with the given stack, and the GPU activity it starts. */
  const launch = (
    op: string,
    callStack: string,
    runtime: string,
    gpu: { cat: string; name: string; dur: number; args: Record<string, unknown> },
    blocking: boolean,
  ) => {
    const corr = correlation++,
      ext = external++;
    const opStart = cpu,
      callStart = cpu + 1;
    const gpuStart = Math.max(gpuFree, callStart + 2);
    const gpuDur = gpu.dur;
    gpuFree = gpuStart + gpuDur;
    // Copies from or to pageable memory return when the copy is done; launches and memsets at once.
    const callEnd = blocking ? gpuFree + 1 : callStart + noisy(LINK.launch);
    const opEnd = callEnd + 1;
    x('Operator', op, CPU_PID, cpuTid, opStart, opEnd - opStart, {
      Device: CPU_PID,
      'External id': ext,
      'Trace name': 'PyTorch Profiler',
      'Trace iteration': 0,
      'Call stack': callStack,
    });
    x('Runtime', runtime, CPU_PID, cpuTid, callStart, callEnd - callStart, {
      cbid: runtime === 'cudaLaunchKernel' ? 211 : runtime === 'cudaMemsetAsync' ? 51 : 41,
      correlation: corr,
      'external id': ext,
    });
    flow('s', corr, CPU_PID, cpuTid, callStart);
    x(gpu.cat, gpu.name, GPU_PID, gpuTid, gpuStart, gpuDur, {
      device: 0,
      context: 1,
      stream: STREAM,
      correlation: corr,
      'external id': ext,
      ...gpu.args,
    });
    flow('f', corr, GPU_PID, gpuTid, gpuStart);
    cpu = opEnd + 1;
  };
  const copy = (kind: Activity, bytes: number, at: Site, caller: Site) => {
    if (kind === 'memset') {
      const dur = noisy(LINK.memsetLatency + bytes / LINK.memsetBandwidth);
      launch(
        'dev_memset_async',
        stack(at, caller),
        'cudaMemsetAsync',
        { cat: 'Memset', name: 'Memset (Device)', dur, args: { bytes, 'memory bandwidth (GB/s)': bytes / dur / 1e3 } },
        false,
      );
      return;
    }
    const [latency, bandwidth, name] =
      kind === 'HtoD'
        ? [LINK.h2dLatency, LINK.h2dBandwidth, 'Memcpy HtoD (Pageable -> Device)']
        : [LINK.d2hLatency, LINK.d2hBandwidth, 'Memcpy DtoH (Device -> Pageable)'];
    const dur = noisy(latency + bytes / bandwidth);
    launch(
      'dev_memcpy_async',
      stack(at, caller),
      'cudaMemcpyAsync',
      { cat: 'Memcpy', name, dur, args: { bytes, 'memory bandwidth (GB/s)': bytes / dur / 1e3 } },
      true,
    );
  };
  const hostOp = (name: string, at: Site, dur: number) => {
    x('Operator', name, CPU_PID, cpuTid, cpu, dur, {
      Device: CPU_PID,
      'External id': external++,
      'Trace name': 'PyTorch Profiler',
      'Trace iteration': 0,
      'Call stack': stack(at),
    });
    cpu += dur + 1;
  };

  copy('HtoD', blockBytes, O.stageInCopy, O.callStageIn);
  copy('memset', blockBytes, O.stageInMemset, O.callStageIn);
  for (let step = 1; step <= OFFLOAD_RUN.steps; step++) {
    copy('DtoH', rowBytes, O.toHostFirst, O.callToHost);
    copy('DtoH', rowBytes, O.toHostLast, O.callToHost);
    hostOp('exchange_halos', O.callExchange, noisy(LINK.exchange));
    copy('HtoD', rowBytes, O.toDeviceFirst, O.callToDevice);
    copy('HtoD', rowBytes, O.toDeviceLast, O.callToDevice);
    launch(
      'jacobi_sweep',
      stack(O.callSweep),
      'cudaLaunchKernel',
      {
        cat: 'Kernel',
        name: 'jacobi_sweep_kernel',
        dur: noisy(2 + rows * RUN.nx * LINK.sweepPerCell),
        args: {
          grid: [Math.ceil(RUN.nx / 32), Math.ceil(rows / 8), 1],
          block: [32, 8, 1],
          'registers per thread': 24,
          'shared memory': 0,
        },
      },
      false,
    );
  }
  copy('DtoH', blockBytes, O.stageOutCopy, O.callStageOut);

  const meta = (pid: number, name: string, args: Record<string, unknown>) =>
    `  {"name": ${JSON.stringify(name)}, "ph": "M", "ts": ${origin}, "pid": ${pid}, "tid": 0, "args": ${JSON.stringify(args)}}`;
  const header = [
    '{',
    '  "schemaVersion": 1,',
    '  "generator": "scripts/sample-offload-trace.ts: synthetic, from a model of the GPU port in src/offload.c (not measured)",',
    '  "deviceProperties": [{"id": 0, "name": "modelled GPU (A100-class)", "totalGlobalMem": 42505273344, "computeMajor": 8, "computeMinor": 0, "numSms": 108, "warpSize": 32}],',
    '  "traceEvents": [',
  ];
  const all = [
    meta(CPU_PID, 'process_name', { name: 'heat' }),
    meta(CPU_PID, 'process_labels', { labels: 'CPU' }),
    meta(GPU_PID, 'process_name', { name: 'heat' }),
    meta(GPU_PID, 'process_labels', { labels: 'GPU 0' }),
    ...events,
  ];
  return `${header.join('\n')}\n${all.join(',\n')}\n  ]\n}\n`;
}

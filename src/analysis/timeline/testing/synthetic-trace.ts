import { writeFileSync } from 'node:fs';
import { NodeKind } from '../../model/call-tree';
import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import type { Profile } from '../../model/profile';
import { ProfileBuilder } from '../../model/profile-builder';
import { DataMovementKind, FlowKind, TraceEventKind, type TraceData } from '../../model/trace';
import { seededRandom } from '../../stats/seeded-random';

/**
 * A large synthetic MPI + OpenMP + CUDA trace for scale tests and benchmarks, built straight into
 * the model's columns (no parsing): per rank a main thread, OpenMP worker threads and GPU streams.
 * Each iteration: the main thread computes (launching kernels), exchanges halos (Isend/Irecv/
 * Waitall, with message flows to the neighbour rank) and meets the others in MPI_Allreduce, which
 * ends when the slowest rank arrives; the straggler rank computes 60 % longer, so everybody else
 * waits in the allreduce. An init phase opens the run and a checkpoint phase (file I/O) runs every
 * `checkpointEvery` iterations. Kernels run on stream 0 (launch flows from cudaLaunchKernel),
 * host↔device copies on stream 1 (data-movement rows). Deterministic for a seed.
 */
export interface SyntheticTraceOptions {
  ranks?: number;
  threadsPerRank?: number;
  streamsPerRank?: number;
  /** Roughly how many events to make; the iteration count follows from it. */
  targetEvents?: number;
  seed?: number;
  stragglerRank?: number;
  checkpointEvery?: number;
}

const KERNELS_PER_ITER = 4;
const INNER_LOOPS = 6;
const SOURCE = '/home/user/stencil/src/stencil.c';

export function syntheticTraceProfile(options: SyntheticTraceOptions = {}): Profile {
  const ranks = options.ranks ?? 128;
  const threads = Math.max(1, options.threadsPerRank ?? 6);
  const streams = Math.max(0, Math.min(2, options.streamsPerRank ?? 2));
  const target = options.targetEvents ?? 1e7;
  const straggler = options.stragglerRank ?? Math.min(ranks - 1, 5);
  const checkpointEvery = options.checkpointEvery ?? 200;
  const rnd = seededRandom(options.seed ?? 1);
  const perIter =
    7 +
    KERNELS_PER_ITER +
    (threads - 1) * (2 + INNER_LOOPS) +
    (streams > 0 ? KERNELS_PER_ITER : 0) +
    (streams > 1 ? 2 : 0);
  const iters = Math.max(1, Math.round(target / (ranks * perIter)));

  const b = new ProfileBuilder('synthetic-trace', `synthetic:${ranks}x${threads}+${streams}`);
  const tr = b.tree;
  const fn = (parent: number, name: string, line: number, module = 'stencil') =>
    tr.add(parent, name, NodeKind.Function, {
      file: module === 'stencil' ? SOURCE : null,
      line: module === 'stencil' ? line : null,
      module,
    });
  const N = {} as Record<string, number>;
  N.main = fn(-1, 'main', 10);
  N.init = fn(N.main, 'initialize', 40);
  N.step = fn(N.main, 'timestep', 80);
  N.compute = fn(N.step, 'compute_stencil', 120);
  N.launch = fn(N.compute, 'cudaLaunchKernel', 0, 'libcudart.so');
  N.kernel = fn(N.launch, 'stencil_kernel', 0, 'stencil.cu');
  N.copy = fn(N.compute, 'cudaMemcpyAsync', 0, 'libcudart.so');
  N.h2d = fn(N.copy, 'Memcpy HtoD', 0, 'stencil.cu');
  N.d2h = fn(N.copy, 'Memcpy DtoH', 0, 'stencil.cu');
  N.halo = fn(N.step, 'halo_exchange', 160);
  N.isend = fn(N.halo, 'MPI_Isend', 0, 'libmpi.so');
  N.irecv = fn(N.halo, 'MPI_Irecv', 0, 'libmpi.so');
  N.wait = fn(N.halo, 'MPI_Waitall', 0, 'libmpi.so');
  N.allreduce = fn(N.step, 'MPI_Allreduce', 0, 'libmpi.so');
  N.checkpoint = fn(N.main, 'write_checkpoint', 200);
  N.write = fn(N.checkpoint, 'fwrite', 0, 'libc.so');
  N.omp = fn(-1, 'omp_worker', 0, 'libgomp.so');
  N.ompCompute = fn(N.omp, 'compute_stencil._omp_fn.0', 125);
  N.inner = fn(N.ompCompute, 'inner_loop', 130);
  const strings = tr.strings;
  const nameId = new Map<number, number>();
  const namesByNode = new Map<number, string>([
    [N.main, 'main'],
    [N.init, 'initialize'],
    [N.step, 'timestep'],
    [N.compute, 'compute_stencil'],
    [N.launch, 'cudaLaunchKernel'],
    [N.kernel, 'stencil_kernel'],
    [N.copy, 'cudaMemcpyAsync'],
    [N.h2d, 'Memcpy HtoD'],
    [N.d2h, 'Memcpy DtoH'],
    [N.halo, 'halo_exchange'],
    [N.isend, 'MPI_Isend'],
    [N.irecv, 'MPI_Irecv'],
    [N.wait, 'MPI_Waitall'],
    [N.allreduce, 'MPI_Allreduce'],
    [N.checkpoint, 'write_checkpoint'],
    [N.write, 'fwrite'],
    [N.omp, 'omp_worker'],
    [N.ompCompute, 'compute_stencil._omp_fn.0'],
    [N.inner, 'inner_loop'],
  ]);
  for (const [n, s] of namesByNode) nameId.set(n, strings.intern(s));
  const catCpu = strings.intern('cpu'),
    catKernel = strings.intern('Kernel'),
    catCopy = strings.intern('Memcpy'),
    catMpi = strings.intern('mpi');

  // Global schedule: per iteration, every rank's compute and halo time; the allreduce ends when the slowest arrives.
  const initEnd = 2_000_000;
  const comp = new Float64Array(ranks * iters),
    halo = new Float64Array(ranks * iters),
    iterStart = new Float64Array(iters + 1);
  let now = initEnd;
  for (let i = 0; i < iters; i++) {
    iterStart[i] = now;
    let slowest = 0;
    for (let r = 0; r < ranks; r++) {
      const c = Math.round(600_000 * (r === straggler ? 1.6 : 1) * (0.9 + 0.2 * rnd()));
      const h = Math.round(60_000 * (0.8 + 0.4 * rnd()));
      comp[r * iters + i] = c;
      halo[r * iters + i] = h;
      slowest = Math.max(slowest, c + h);
    }
    now += slowest + 40_000 + (checkpointEvery > 0 && (i + 1) % checkpointEvery === 0 ? 3_000_000 : 0);
  }
  iterStart[iters] = now;
  const runEnd = now + 1_000_000;

  // Event columns, written track by track in (start, depth) order, so already sorted.
  const evTrack = new GrowableInt32(1 << 20),
    evStart = new GrowableFloat64(1 << 20),
    evDur = new GrowableFloat64(1 << 20);
  const evNode = new GrowableInt32(1 << 20),
    evDepth = new GrowableInt32(1 << 20),
    evCat = new GrowableInt32(1 << 20),
    evName = new GrowableInt32(1 << 20);
  const tracks: TraceData['tracks'] = [];
  const trackEventStart: number[] = [];
  const excl = new Map<number, Float64Array>(); // per context: exclusive ns per node
  const nodes = tr.size;
  let track = -1,
    ctxExcl = new Float64Array(nodes);
  const stack: { node: number; end: number }[] = [];
  const slice = (start: number, dur: number, node: number, depth: number, cat: number): number => {
    evTrack.push(track);
    evStart.push(start);
    evDur.push(dur);
    evNode.push(node);
    evDepth.push(depth);
    evCat.push(cat);
    ctxExcl[node]! += dur;
    if (depth > 0) ctxExcl[stack[depth - 1]!.node]! -= dur;
    stack[depth] = { node, end: start + dur };
    return evName.push(nameId.get(node)!);
  };
  const newTrack = (t: Omit<TraceData['tracks'][number], 'context' | 'sortIndex'>) => {
    track = tracks.length;
    trackEventStart.push(evTrack.length);
    const context = b.newContext({
      rank: t.rank,
      thread: t.thread,
      gpuDevice: t.gpuDevice,
      gpuStream: t.gpuStream,
      label: `${t.process} · ${t.name}`,
    });
    tracks.push({ ...t, context, sortIndex: 0 });
    ctxExcl = new Float64Array(nodes);
    excl.set(context, ctxExcl);
  };
  const launchRow = new Int32Array(iters * KERNELS_PER_ITER),
    launchAt = new Float64Array(iters * KERNELS_PER_ITER);
  const sendRow = new Int32Array(ranks * iters),
    recvRow = new Int32Array(ranks * iters);
  const flows = {
    kind: new GrowableUint8(),
    id: new GrowableInt32(),
    fromTrack: new GrowableInt32(),
    fromTime: new GrowableFloat64(),
    fromEvent: new GrowableInt32(),
    toTrack: new GrowableInt32(),
    toTime: new GrowableFloat64(),
    toEvent: new GrowableInt32(),
  };
  const dm = {
    kind: new GrowableUint8(),
    bytes: new GrowableFloat64(),
    srcDevice: new GrowableInt32(),
    dstDevice: new GrowableInt32(),
    start: new GrowableFloat64(),
    duration: new GrowableFloat64(),
    track: new GrowableInt32(),
    event: new GrowableInt32(),
    node: new GrowableInt32(),
    sourceNode: new GrowableInt32(),
  };
  const mainTrackOf = new Int32Array(ranks);
  const flowId = strings.intern('launch');
  const msgId = strings.intern('halo');

  for (let r = 0; r < ranks; r++) {
    const process = `rank ${r}`;
    // Main thread.
    newTrack({
      name: 'thread 0 (main)',
      kind: 'thread',
      process,
      pid: String(r),
      tid: '0',
      rank: r,
      thread: 0,
      gpuDevice: -1,
      gpuStream: -1,
    });
    mainTrackOf[r] = track;
    slice(0, runEnd, N.main, 0, catCpu);
    slice(100_000, initEnd - 200_000, N.init, 1, catCpu);
    for (let i = 0; i < iters; i++) {
      const t0 = iterStart[i]!,
        c = comp[r * iters + i]!,
        h = halo[r * iters + i]!;
      const next = iterStart[i + 1]!;
      const ckpt = checkpointEvery > 0 && (i + 1) % checkpointEvery === 0;
      const stepEnd = next - (ckpt ? 3_000_000 : 0) - 10_000;
      slice(t0, stepEnd - t0, N.step, 1, catCpu);
      slice(t0, c, N.compute, 2, catCpu);
      for (let k = 0; k < KERNELS_PER_ITER; k++) {
        const at = t0 + 20_000 + k * (c / KERNELS_PER_ITER);
        launchRow[i * KERNELS_PER_ITER + k] = slice(at, 8_000, N.launch, 3, catCpu);
        launchAt[i * KERNELS_PER_ITER + k] = at;
      }
      slice(t0 + c, h, N.halo, 2, catMpi);
      sendRow[r * iters + i] = slice(t0 + c, 5_000, N.isend, 3, catMpi);
      recvRow[r * iters + i] = slice(t0 + c + 6_000, 5_000, N.irecv, 3, catMpi);
      slice(t0 + c + 12_000, h - 12_000, N.wait, 3, catMpi);
      slice(t0 + c + h, stepEnd - (t0 + c + h) - 5_000, N.allreduce, 2, catMpi);
      if (ckpt) {
        slice(stepEnd + 5_000, 2_900_000, N.checkpoint, 1, catCpu);
        slice(stepEnd + 50_000, 2_800_000, N.write, 2, catCpu);
      }
    }
    // OpenMP workers: busy during the rank's compute phase.
    for (let w = 1; w < threads; w++) {
      newTrack({
        name: `thread ${w} (omp)`,
        kind: 'thread',
        process,
        pid: String(r),
        tid: String(w),
        rank: r,
        thread: w,
        gpuDevice: -1,
        gpuStream: -1,
      });
      for (let i = 0; i < iters; i++) {
        const t0 = iterStart[i]! + 2_000,
          c = comp[r * iters + i]! - 4_000;
        slice(t0, c, N.omp, 0, catCpu);
        slice(t0 + 1_000, c - 2_000, N.ompCompute, 1, catCpu);
        const step = (c - 2_000) / INNER_LOOPS;
        for (let k = 0; k < INNER_LOOPS; k++)
          slice(t0 + 1_000 + k * step, Math.floor(step * (0.85 + 0.1 * rnd())), N.inner, 2, catCpu);
      }
    }
    // GPU streams: kernels on stream 0, copies on stream 1.
    if (streams > 0) {
      newTrack({
        name: 'stream 0',
        kind: 'gpu-stream',
        process,
        pid: String(r),
        tid: 'stream 0',
        rank: r,
        thread: -1,
        gpuDevice: r % 8,
        gpuStream: 0,
      });
      for (let i = 0; i < iters; i++) {
        for (let k = 0; k < KERNELS_PER_ITER; k++) {
          const q = i * KERNELS_PER_ITER + k;
          const at = launchAt[q]! + 5_000,
            dur = Math.round((comp[r * iters + i]! / KERNELS_PER_ITER) * 0.7);
          const row = slice(at, dur, N.kernel, 0, catKernel);
          flows.kind.push(FlowKind.Launch);
          flows.id.push(flowId);
          flows.fromTrack.push(mainTrackOf[r]!);
          flows.fromTime.push(launchAt[q]!);
          flows.fromEvent.push(launchRow[q]!);
          flows.toTrack.push(track);
          flows.toTime.push(at);
          flows.toEvent.push(row);
        }
      }
    }
    if (streams > 1) {
      newTrack({
        name: 'stream 1',
        kind: 'gpu-stream',
        process,
        pid: String(r),
        tid: 'stream 1',
        rank: r,
        thread: -1,
        gpuDevice: r % 8,
        gpuStream: 1,
      });
      for (let i = 0; i < iters; i++) {
        const t0 = iterStart[i]!,
          c = comp[r * iters + i]!;
        const bytes = 8 << 20;
        for (const [at, node, kind] of [
          [t0 + 1_000, N.h2d, DataMovementKind.HostToDevice],
          [t0 + c - 60_000, N.d2h, DataMovementKind.DeviceToHost],
        ] as const) {
          const dur = 40_000;
          const row = slice(at, dur, node, 0, catCopy);
          dm.kind.push(kind);
          dm.bytes.push(bytes);
          dm.srcDevice.push(kind === DataMovementKind.HostToDevice ? -1 : r % 8);
          dm.dstDevice.push(kind === DataMovementKind.HostToDevice ? r % 8 : -1);
          dm.start.push(at);
          dm.duration.push(dur);
          dm.track.push(track);
          dm.event.push(row);
          dm.node.push(node);
          dm.sourceNode.push(N.compute);
        }
      }
    }
  }
  trackEventStart.push(evTrack.length);
  // Halo messages: rank r sends to r + 1 (ring).
  for (let r = 0; r < ranks && ranks > 1; r++) {
    const to = (r + 1) % ranks;
    for (let i = 0; i < iters; i++) {
      const s = sendRow[r * iters + i]!,
        v = recvRow[to * iters + i]!;
      flows.kind.push(FlowKind.Message);
      flows.id.push(msgId);
      flows.fromTrack.push(mainTrackOf[r]!);
      flows.fromTime.push(evStart.get(s));
      flows.fromEvent.push(s);
      flows.toTrack.push(mainTrackOf[to]!);
      flows.toTime.push(evStart.get(v) + evDur.get(v));
      flows.toEvent.push(v);
    }
  }

  const n = evTrack.length;
  const trace: TraceData = {
    originNs: '0',
    tracks,
    events: {
      track: evTrack.finish(),
      start: evStart.finish(),
      duration: evDur.finish(),
      node: evNode.finish(),
      depth: evDepth.finish(),
      kind: new Uint8Array(n).fill(TraceEventKind.Slice),
      category: evCat.finish(),
      name: evName.finish(),
    },
    trackEventStart: Int32Array.from(trackEventStart),
    counters: { series: [], seriesStart: new Int32Array(1), time: new Float64Array(0), value: new Float64Array(0) },
    flows: {
      kind: flows.kind.finish(),
      id: flows.id.finish(),
      fromTrack: flows.fromTrack.finish(),
      fromTime: flows.fromTime.finish(),
      fromEvent: flows.fromEvent.finish(),
      toTrack: flows.toTrack.finish(),
      toTime: flows.toTime.finish(),
      toEvent: flows.toEvent.finish(),
    },
    dataMovement: {
      kind: dm.kind.finish(),
      bytes: dm.bytes.finish(),
      srcDevice: dm.srcDevice.finish(),
      dstDevice: dm.dstDevice.finish(),
      start: dm.start.finish(),
      duration: dm.duration.finish(),
      track: dm.track.finish(),
      event: dm.event.finish(),
      node: dm.node.finish(),
      sourceNode: dm.sourceNode.finish(),
    },
    timeRange: [0, runEnd],
  };
  b.trace = trace;
  b.metadata['ranks'] = ranks;
  b.metadata['straggler rank'] = straggler;
  b.metadata['iterations'] = iters;
  const time = b.addMetric({
    name: 'time',
    label: 'Time',
    sourceKeys: [],
    unit: 'ns',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  for (const [ctx, values] of excl)
    for (let node = 0; node < nodes; node++) b.addExclusive(time, node, ctx, values[node]!);
  return b.build(time);
}

/**
 * Writes a synthetic trace as Chrome trace-event JSON in Kineto's shape (X events in µs, GPU
 * tracks named `stream N` with `Kernel`/`Memcpy` categories, `args.bytes` on copies,
 * `args.correlation` linking cudaLaunchKernel to its kernel), for end-to-end tests through the
 * real reader. Keep it small (≤ 10⁶ events): the whole JSON is built in memory.
 */
export function writeSyntheticChromeTrace(path: string, options: SyntheticTraceOptions = {}): Profile {
  const p = syntheticTraceProfile({ targetEvents: 20_000, ranks: 4, ...options });
  const t = p.trace!;
  const s = p.data.strings;
  const ev = t.events;
  const out: string[] = [];
  const us = (ns: number) => ns / 1000;
  const pidOf = (k: number) => (t.tracks[k]!.kind === 'gpu-stream' ? 1000 + t.tracks[k]!.rank : t.tracks[k]!.rank);
  t.tracks.forEach((tr, k) => {
    out.push(JSON.stringify({ ph: 'M', name: 'process_name', pid: pidOf(k), tid: 0, args: { name: tr.process } }));
    if (tr.kind !== 'gpu-stream')
      out.push(
        JSON.stringify({ ph: 'M', name: 'thread_name', pid: pidOf(k), tid: tr.thread, args: { name: tr.name } }),
      );
  });
  const copyOf = new Map<number, number>();
  t.dataMovement.event.forEach((e, i) => copyOf.set(e, i));
  const correlation = new Map<number, number>();
  for (let f = 0; f < t.flows.kind.length; f++)
    if (t.flows.kind[f] === FlowKind.Launch) {
      correlation.set(t.flows.fromEvent[f]!, f + 1);
      correlation.set(t.flows.toEvent[f]!, f + 1);
    }
  for (let r = 0; r < ev.track.length; r++) {
    const tr = t.tracks[ev.track[r]!]!;
    const gpu = tr.kind === 'gpu-stream';
    const e: Record<string, unknown> = {
      ph: 'X',
      cat: s[ev.category[r]!],
      name: s[ev.name[r]!],
      pid: pidOf(ev.track[r]!),
      tid: gpu ? `stream ${tr.gpuStream}` : tr.thread,
      ts: us(ev.start[r]!),
      dur: us(ev.duration[r]!),
    };
    const args: Record<string, unknown> = {};
    if (gpu) {
      args.device = tr.gpuDevice;
      args.stream = tr.gpuStream;
    }
    if (correlation.has(r)) {
      args.correlation = correlation.get(r);
      if (!gpu) e.cat = 'Runtime';
    }
    const c = copyOf.get(r);
    if (c !== undefined) args.bytes = t.dataMovement.bytes[c];
    if (Object.keys(args).length) e.args = args;
    out.push(JSON.stringify(e));
  }
  writeFileSync(path, `{"traceEvents":[\n${out.join(',\n')}\n]}\n`);
  return p;
}

/**
 * What the bulk messages cost to cross threads (issue 24, transferable messages): each answer the
 * worker sends the host and the host sends a webview, on the largest shared files and the generated
 * 10⁶-node × 16-rank profile. Per message:
 *
 *   - **worker → host**: bytes of its structured clone (`v8.serialize`), and the clone's cost as
 *     Node's `postMessage` pays it (`structuredClone` with the message's transfer list, the same
 *     serializer: buffers in the list move, everything else is copied element by element);
 *   - **host → webview**: VS Code's serialization of `webview.postMessage` (JSON.stringify with
 *     ArrayBuffers and typed arrays replaced by references and sent beside it, as the extension host
 *     of engines ≥ 1.57 does), its JSON bytes, the host's stringify and the page's `JSON.parse`.
 *
 * `node dist/bench.js transfer` runs it (HPC_LENS_BENCH_TRANSFER_NODES sets the generated profile's
 * node count, 10⁶ by default).
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serialize } from 'node:v8';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { LoopWatch } from './bench-service';
import {
  collectGarbage,
  loadNote,
  summarise,
  timeOnce,
  timeRepeated,
  timeSync,
  type Repeated,
  type Timing,
} from './bench-timing';
import { LocalAnalysisService } from '../src/service/local-analysis-service';
import { transferables } from '../src/service/shared-memory';
import { packCallflowData, unpackCallflowData } from '../src/shared/callflow-packing';
import type { TimelineResults } from '../src/service/timeline-requests';
import { writeLargeProfile } from './large-profile-generator';
import { generateSyntheticEnsemble, writeSyntheticEnsemble } from '../src/analysis/ensemble/testing/synthetic-ensemble';
import { loadEnsemble } from '../src/analysis/ensemble/ensemble-runs';
import { EnsembleProfile } from '../src/analysis/ensemble/ensemble-profile';
import { EnsembleSession, packEnsembleView } from '../src/service/ensemble-session';
import { EnsembleGraphReader, packEnsembleGraph, unpackEnsembleGraph } from '../src/shared/ensemble-packing';
import type { EnsembleHostToView } from '../src/shared/ensemble-protocol';
import { EMPTY_PDES_PANEL_STATE, pdesViewState } from '../src/shared/pdes-protocol';

const SHARED_DATA = resolve(__dirname, '..', '..', 'shared', 'data');

/** Wall and CPU ms of `f`, median over `repeats` (the machine is shared: CPU is what load changes least). */
function timed(f: () => void, repeats: number): { wall: number; cpu: number } {
  const r = summarise(Array.from({ length: repeats }, () => timeSync(f)));
  return { wall: r.wallMs, cpu: r.cpuMs };
}

/** VS Code's `serializeWebviewMessage` (extHostWebview.ts) for extensions on engines ≥ 1.57. */
export function webviewSerialize(message: unknown): { json: string; buffers: ArrayBufferLike[] } {
  const buffers: ArrayBufferLike[] = [];
  const add = (b: ArrayBufferLike) => {
    let i = buffers.indexOf(b);
    if (i < 0) i = buffers.push(b) - 1;
    return i;
  };
  const json = JSON.stringify(message, (_k, v: unknown) => {
    if (v instanceof ArrayBuffer) return { $$vscode_array_buffer_reference$$: true, index: add(v) };
    if (ArrayBuffer.isView(v)) {
      return {
        $$vscode_array_buffer_reference$$: true,
        index: add(v.buffer),
        view: { type: v.constructor.name, byteLength: v.byteLength, byteOffset: v.byteOffset },
      };
    }
    return v;
  });
  return { json, buffers };
}

export interface TransferRow {
  label: string;
  /** Structured-clone bytes (buffers included) and those in transferred buffers. */
  cloneBytes: number;
  transferredBytes: number;
  clone: { wall: number; cpu: number };
  webviewJsonBytes: number;
  webviewBufferBytes: number;
  stringify: { wall: number; cpu: number };
  parse: { wall: number; cpu: number };
  /** Packed payloads: the worker's packing and the page's unpacking into the views' objects. */
  pack?: { wall: number; cpu: number };
  unpack?: { wall: number; cpu: number };
}

/** Measures one message both ways (the message is cloned before each transfer, so it stays usable). */
export function measureMessage(label: string, message: unknown, repeats = 5): TransferRow {
  const cloneBytes = serialize(message).length;
  const list = transferables(message);
  const transferredBytes = list.reduce((s, b) => s + b.byteLength, 0);
  const clone = list.length
    ? (() => {
        // A transfer detaches: time the clone of a fresh copy each round.
        const copies = Array.from({ length: repeats }, () => structuredClone(message));
        let k = 0;
        return timed(() => {
          const c = copies[k++];
          structuredClone(c, { transfer: transferables(c) });
        }, repeats);
      })()
    : timed(() => structuredClone(message), repeats);
  let out = webviewSerialize(message);
  const stringify = timed(() => (out = webviewSerialize(message)), repeats);
  const parse = timed(() => JSON.parse(out.json), repeats);
  return {
    label,
    cloneBytes,
    transferredBytes,
    clone,
    webviewJsonBytes: out.json.length,
    webviewBufferBytes: out.buffers.reduce((s, b) => s + b.byteLength, 0),
    stringify,
    parse,
  };
}

/** A worker that posts back, on each request, a fresh copy of the message it started with (its buffers transferred). */
const ECHO_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const buffers = v => {
  const out = new Set(), stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (x instanceof ArrayBuffer) out.add(x);
    else if (ArrayBuffer.isView(x)) { if (x.buffer instanceof ArrayBuffer) out.add(x.buffer); }
    else for (const e of Object.values(x)) stack.push(e);
  }
  return [...out];
};
parentPort.on('message', () => {
  const m = structuredClone(workerData);
  parentPort.postMessage(m, buffers(m));
});`;

/**
 * The host thread's longest block while it receives `message` from a worker 5 times (as the CallFlow
 * panel receives the service's answer): the structured clone's deserialization runs on the host.
 */
async function hostReceiveBlock(message: unknown): Promise<{ wall: number; cpu: number }> {
  const w = new Worker(ECHO_WORKER, { eval: true, workerData: message });
  try {
    const watch = new LoopWatch();
    for (let k = 0; k < 5; k++) {
      const got = once(w, 'message');
      w.postMessage(null);
      await got;
    }
    const { wall, cpu } = watch.stop();
    return { wall, cpu };
  } finally {
    await w.terminate();
  }
}

const kb = (b: number) => (b / 1024).toFixed(b < 10240 ? 1 : 0);
const ms = (t: { wall: number; cpu: number }) => `${t.wall.toFixed(1)} (${t.cpu.toFixed(1)})`;

export function transferTable(rows: readonly TransferRow[]): string {
  const out = [
    '| message | clone KB (transferred) | worker→host clone ms wall (CPU) | webview JSON KB + buffers KB | host stringify ms | page JSON.parse ms | worker pack / page unpack ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    out.push(
      `| ${r.label} | ${kb(r.cloneBytes)} (${kb(r.transferredBytes)}) | ${ms(r.clone)} | ${kb(r.webviewJsonBytes)} + ${kb(r.webviewBufferBytes)} | ${ms(r.stringify)} | ${ms(r.parse)} | ${r.pack && r.unpack ? `${ms(r.pack)} / ${ms(r.unpack)}` : '–'} |`,
    );
  return out.join('\n');
}

/** Lines printed under the table (the host's receive blocks). */
const blocks: string[] = [];

async function inventory(nodes: number): Promise<TransferRow[]> {
  const rows: TransferRow[] = [];
  const service = new LocalAnalysisService();
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-transfer-'));
  const shared = (p: string) => join(SHARED_DATA, p);
  try {
    // The Sankey (and the correlation view's per-metric values) of the generated profile and the largest real ones.
    const big = join(tmp, 'big.json');
    writeLargeProfile(big, { nodes, ranks: 16, files: 400, sourceDir: join(tmp, 'src') });
    const sankeys: [string, string][] = [
      [`generated ${nodes.toLocaleString('en')} nodes × 16 ranks`, big],
      ['hpctoolkit-metadb/lammps-openmp', shared('hpctoolkit-metadb/lammps-openmp')],
      ['pprof/go-large-cpu', shared('pprof/go-large-cpu/large.cpu.pb.gz')],
      [
        'chrome-trace resnet50',
        shared('chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz'),
      ],
    ];
    for (const [label, path] of sankeys) {
      if (!existsSync(path)) continue;
      const o = await service.open({ path });
      if (o.system) continue;
      const options = { metric: o.data.primaryMetric };
      const packed = await service.superGraph({ dataset: o.dataset, title: label, options });
      // Before (main until issue 24's transferable messages): the graph as per-node objects.
      const data = unpackCallflowData(packed);
      const name = `Sankey graph: ${label} (${data.nodes.length} supernodes)`;
      rows.push(measureMessage(`${name}, as objects`, { type: 'graph', data }));
      const row = measureMessage(`${name}, packed`, { type: 'graph', data: packed });
      row.pack = timed(() => packCallflowData(data), 5);
      row.unpack = timed(() => unpackCallflowData(packed), 5);
      rows.push(row);
      if (label.startsWith('generated')) {
        const before = await hostReceiveBlock({ type: 'done', result: data });
        const after = await hostReceiveBlock({ type: 'done', result: packed });
        blocks.push(
          `host's longest block receiving the ${label} Sankey from a worker (5 receives): as objects ${ms(before)} ms, packed ${ms(after)} ms (wall (CPU))`,
        );
      }
      const nodeId = [...data.nodes].sort((a, b) => b.inclusive - a.inclusive)[0]!.id;
      const metrics = await service.superGraphQuery<'nodeMetrics'>({
        dataset: o.dataset,
        query: { kind: 'nodeMetrics', options, nodeId, maxMetrics: 8 },
      });
      rows.push(measureMessage(`Sankey nodeMetrics: ${label}`, metrics));
      if (path.endsWith('.gz') && o.data.trace) {
        const init = (await service.timeline({
          dataset: o.dataset,
          request: { kind: 'init', minimapWidth: 1200 },
        })) as TimelineResults['init'];
        rows.push(measureMessage(`timeline init: ${label} (${init.trackCount} lanes)`, init));
        const tracks = Array.from({ length: init.trackCount }, (_, i) => i);
        const tiles = await service.timeline({
          dataset: o.dataset,
          request: {
            kind: 'tiles',
            window: { start: init.timeRange[0], end: init.timeRange[1] },
            tracks,
            width: 1600,
            depth: 32,
            colourBy: 'function',
            depthViews: [],
          },
        });
        rows.push(measureMessage(`timeline tiles: ${label} (${tracks.length} lanes × 1600 px)`, tiles));
      }
      await service.close({ dataset: o.dataset });
    }
    // Ensemble CallFlow: 100 and 1,000 runs × 10⁴ nodes, as objects (before) and packed.
    for (const [runs, source] of [
      [100, 'memory'],
      [1000, 'memory'],
      [100, 'disk'],
      [1000, 'disk'],
    ] as const) {
      const f = await ensembleTransfer(runs, 10_000, source);
      rows.push(f.objects, f.packed, f.detailObjects, f.detailPacked);
      blocks.push(...ensembleTransferLines(f));
    }
    // PDES views of the largest ROSS/CODES runs.
    for (const name of [
      'codes-dragonfly-dally-72-nearest-neighbor',
      'codes-dragonfly-dally-72-uniform-random-8pe-fulltrace',
    ]) {
      const path = shared(`pdes-ross-codes/${name}`);
      if (!existsSync(path)) continue;
      const o = await service.open({ path });
      if (o.system !== 'pdes') continue;
      const state = EMPTY_PDES_PANEL_STATE;
      const views = await service.systemRequest<'pdes', 'views'>({
        dataset: o.dataset,
        system: 'pdes',
        request: {
          kind: 'views',
          options: state.options,
          state: pdesViewState(state, { width: 900 }),
        },
      });
      rows.push(measureMessage(`PDES views: ${name}`, views));
      await service.close({ dataset: o.dataset });
    }
    // Memory samples (MemAxes) and the DMV overview.
    const lulesh = shared('pebs-memaxes/lulesh/data/lulesh_inorder.out');
    if (existsSync(lulesh)) {
      const o = await service.open({ path: lulesh });
      if (o.system === 'memory') {
        const data = await service.systemRequest({
          dataset: o.dataset,
          system: 'memory',
          request: { kind: 'view' } as never,
        });
        rows.push(measureMessage('Memory view: lulesh_inorder', data));
      }
      await service.close({ dataset: o.dataset });
    }
    for (const [label, path] of [
      ['resnet50', shared('chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz')],
      [
        'saxpy-mpi-cuda',
        shared('nsight-systems-sqlite/saxpy-mpi-cuda-perlmutter/saxpy-mpi-cuda_nsys_perlmutter0.sqlite'),
      ],
    ] as const) {
      if (!existsSync(path)) continue;
      try {
        const o = await service.open({ path });
        const data = await service.systemRequest({
          dataset: o.dataset,
          system: 'dataMovement',
          request: { kind: 'overview' } as never,
        });
        rows.push(measureMessage(`DMV overview: ${label}`, data));
        await service.close({ dataset: o.dataset });
      } catch (err) {
        console.log(`  (DMV ${label}: ${(err as Error).message})`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

export async function benchTransfer(): Promise<void> {
  const nodes = Number(process.env.HPC_LENS_BENCH_TRANSFER_NODES ?? 1_000_000);
  console.log(`\nBulk messages across threads (median of 5; ${loadNote()} at the start; ms wall (CPU)):\n`);
  console.log(transferTable(await inventory(nodes)));
  for (const b of blocks) console.log(`\n${b}`);
}

/**
 * The host thread's longest block in each of `rounds` receives of `message` from a worker, each
 * followed in the same task by what the panel does with it: `forward` (VS Code's serialization of
 * the webview message it posts). One LoopWatch per receive, so two messages can be interleaved.
 */
async function hostReceiveForwardBlocks(
  messages: readonly { message: unknown; forward: (received: unknown) => void }[],
  rounds = 5,
): Promise<{ wall: number; cpu: number }[][]> {
  const workers = messages.map(m => new Worker(ECHO_WORKER, { eval: true, workerData: m.message }));
  const out = messages.map(() => [] as { wall: number; cpu: number }[]);
  try {
    for (let k = 0; k < rounds; k++)
      for (let i = 0; i < workers.length; i++) {
        // Which side goes first changes each round.
        const j = k % 2 ? workers.length - 1 - i : i;
        collectGarbage();
        const watch = new LoopWatch();
        const got = once(workers[j]!, 'message');
        workers[j]!.postMessage(null);
        const [received] = (await got) as [unknown];
        messages[j]!.forward(received);
        await new Promise(r => setTimeout(r, 5));
        const { wall, cpu } = watch.stop();
        out[j]!.push({ wall, cpu });
      }
  } finally {
    await Promise.all(workers.map(w => w.terminate()));
  }
  return out;
}

/** What crossing threads costs for one Ensemble CallFlow graph, before (as objects) and after (packed). */
export interface EnsembleTransferFigures {
  runs: number;
  nodes: number;
  source: 'memory' | 'disk';
  supernodes: number;
  links: number;
  objects: TransferRow;
  packed: TransferRow;
  /** The linked views' message on selecting the heaviest supernode, as objects and with its correlation points packed. */
  detailObjects: TransferRow;
  detailPacked: TransferRow;
  /** Host's longest block receiving and forwarding that selection's answer (as the graph's). */
  detailBlockObjects: { median: { wall: number; cpu: number }; max: { wall: number; cpu: number } };
  detailBlockPacked: { median: { wall: number; cpu: number }; max: { wall: number; cpu: number } };
  /** Host's longest block per receive + forward (5 each, interleaved): median and max, wall and CPU. */
  blockObjects: { median: { wall: number; cpu: number }; max: { wall: number; cpu: number } };
  blockPacked: { median: { wall: number; cpu: number }; max: { wall: number; cpu: number } };
  /** The host's one-node lookup (a click opening an entry's source) on a fresh reader: id index + entries. */
  lookup: { wall: number; cpu: number };
  /** The worker's answer to selecting the heaviest supernode (linked-view detail, as the panel asks it). */
  detail: Repeated;
  /** The first such answer of this ensemble (the code of the detail may still be running cold). */
  firstDetail: Timing;
  heaviest: { id: string; members: number };
}

const medianMax = (xs: { wall: number; cpu: number }[]) => {
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  return {
    median: { wall: med(xs.map(x => x.wall)), cpu: med(xs.map(x => x.cpu)) },
    max: { wall: Math.max(...xs.map(x => x.wall)), cpu: Math.max(...xs.map(x => x.cpu)) },
  };
};

/**
 * A generated ensemble of `runs` runs × `nodes` call-tree nodes (in memory), its first Ensemble
 * CallFlow answer from the panel's own session, and that answer as the worker used to send it (the
 * graph as objects) and as it sends it now (`packEnsembleView`, what LocalAnalysisService returns).
 */
export async function ensembleTransfer(
  runs: number,
  nodes = 10_000,
  source: 'memory' | 'disk' = 'memory',
): Promise<EnsembleTransferFigures> {
  const ep = source === 'memory' ? syntheticInMemory(runs, nodes) : await syntheticFromDisk(runs, nodes);
  const metric = ep.profile.metrics[ep.profile.primaryMetric]!.name;
  const session = new EnsembleSession(ep, { title: 'bench', metric: () => metric });
  const result = session.respond(null, true);
  const graph = result.graph!;
  const answer = packEnsembleView(result);
  const packed = answer.graph!.data;
  const toView = (data: unknown, r: typeof result | typeof answer) =>
    ({ type: 'ensemble/graph', data, state: r.state, projection: r.graph!.projection }) as EnsembleHostToView;
  const label = `Ensemble graph: ${runs.toLocaleString('en')} runs × ${nodes.toLocaleString('en')} nodes ${source === 'disk' ? 'read from json-split files' : 'in memory'} (${graph.data.nodes.length} supernodes)`;
  const objects = measureMessage(`${label}, as objects`, toView(graph.data, result));
  const packedRow = measureMessage(`${label}, packed`, toView(packed, answer));
  packedRow.pack = timed(() => packEnsembleGraph(graph.data), 5);
  packedRow.unpack = timed(() => unpackEnsembleGraph(packed), 5);
  const [before, after] = await hostReceiveForwardBlocks([
    {
      message: { id: 1, type: 'done', result },
      forward: m => webviewSerialize(toView((m as { result: typeof result }).result.graph!.data, result)),
    },
    {
      message: { id: 1, type: 'done', result: answer },
      forward: m => webviewSerialize(toView((m as { result: typeof answer }).result.graph!.data, answer)),
    },
  ]);
  const heavy = graph.data.nodes.reduce((a, b) => (b.memberCount > a.memberCount ? b : a));
  const lookup = timed(() => {
    const reader = new EnsembleGraphReader(packed);
    reader.entries(reader.indexOf(heavy.id));
  }, 5);
  // Two heavy nodes alternately: each click computes its detail afresh.
  const second = graph.data.nodes
    .filter(n => n.id !== heavy.id)
    .reduce((a, b) => (b.memberCount > a.memberCount ? b : a), graph.data.nodes[0]!);
  let k = 0;
  const select = () =>
    packEnsembleView(session.respond({ type: 'ensemble/select', nodeId: k++ % 2 ? second.id : heavy.id }, false));
  const firstDetail = await timeOnce(select);
  const detail = await timeRepeated(select, { repeats: 6, warmup: 0 });
  const raw = session.respond({ type: 'ensemble/select', nodeId: heavy.id }, false);
  const selected = packEnsembleView(raw);
  const detailLabel = `Ensemble detail: ${runs.toLocaleString('en')} runs, ${heavy.id}`;
  const toDetail = (detail: unknown, r: typeof raw | typeof selected) =>
    ({ type: 'ensemble/detail', detail, state: r.state }) as EnsembleHostToView;
  const detailObjects = measureMessage(`${detailLabel}, as objects`, toDetail(raw.detail, raw));
  const detailPacked = measureMessage(`${detailLabel}, correlation packed`, toDetail(selected.detail, selected));
  const [detailBefore, detailAfter] = await hostReceiveForwardBlocks([
    {
      message: { id: 1, type: 'done', result: raw },
      forward: m => webviewSerialize(toDetail((m as { result: typeof raw }).result.detail, raw)),
    },
    {
      message: { id: 1, type: 'done', result: selected },
      forward: m => webviewSerialize(toDetail((m as { result: typeof selected }).result.detail, selected)),
    },
  ]);
  return {
    runs,
    nodes,
    source,
    supernodes: graph.data.nodes.length,
    links: graph.data.links.length,
    objects,
    packed: packedRow,
    detailObjects,
    detailPacked,
    detailBlockObjects: medianMax(detailBefore!),
    detailBlockPacked: medianMax(detailAfter!),
    blockObjects: medianMax(before!),
    blockPacked: medianMax(after!),
    lookup,
    detail,
    firstDetail: { wallMs: firstDetail.wallMs, cpuMs: firstDetail.cpuMs },
    heaviest: { id: heavy.id, members: heavy.memberCount },
  };
}

/** The generated runs as built in memory: each node carries its module (a few module supernodes). */
function syntheticInMemory(runs: number, nodes: number): EnsembleProfile {
  return new EnsembleProfile(generateSyntheticEnsemble({ runs, nodes, maxContexts: 2 }).runs, { path: 'synthetic' });
}

/**
 * The generated runs written as Caliper json-split files and read back as the editor reads a folder
 * (modules from the function names: more supernodes, as the real files give).
 */
async function syntheticFromDisk(runs: number, nodes: number): Promise<EnsembleProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-ensemble-transfer-'));
  try {
    writeSyntheticEnsemble(dir, { runs, nodes, maxContexts: 2 });
    const loaded = await loadEnsemble(dir, { concurrency: 2 });
    if (loaded.errors.length) throw new Error(`ensemble bench: ${loaded.errors.length} runs could not be read`);
    return new EnsembleProfile(loaded.runs, { path: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures' lines under the table. */
export function ensembleTransferLines(f: EnsembleTransferFigures): string[] {
  const b = (x: EnsembleTransferFigures['blockObjects']) => `median ${ms(x.median)}, max ${ms(x.max)}`;
  return [
    `Ensemble ${f.runs.toLocaleString('en')} runs × ${f.nodes.toLocaleString('en')} nodes ${f.source === 'disk' ? 'from json-split files' : 'in memory'} (${f.supernodes} supernodes, ${f.links} links): host's longest block receiving the graph from a worker and forwarding it to the webview (5 each, interleaved), ms wall (CPU): as objects ${b(f.blockObjects)}; packed ${b(f.blockPacked)}`,
    `  bytes worker→host: as objects ${kb(f.objects.cloneBytes)} KB, packed ${kb(f.packed.cloneBytes)} KB (${kb(f.packed.transferredBytes)} KB transferred); host→webview: as objects ${kb(f.objects.webviewJsonBytes)} KB JSON, packed ${kb(f.packed.webviewJsonBytes)} KB JSON + ${kb(f.packed.webviewBufferBytes)} KB buffer`,
    `  host's one-node lookup (fresh reader: id index + entries) ${ms(f.lookup)}; worker pack ${ms(f.packed.pack!)}, page unpack ${ms(f.packed.unpack!)}`,
    `  linked-view detail (select ${f.heaviest.id}, ${f.heaviest.members} call-tree nodes, answered by the session): first ${f.firstDetail.wallMs.toFixed(1)} (${f.firstDetail.cpuMs.toFixed(1)}) ms, then median ${f.detail.wallMs.toFixed(1)} (${f.detail.cpuMs.toFixed(1)}) ms, max ${Math.max(...f.detail.runs.map(r => r.wallMs)).toFixed(1)} ms; its message as objects ${kb(f.detailObjects.webviewJsonBytes)} KB JSON, correlation packed ${kb(f.detailPacked.webviewJsonBytes)} KB JSON + ${kb(f.detailPacked.webviewBufferBytes)} KB buffer`,
    `  host's longest block receiving and forwarding that selection: as objects ${b(f.detailBlockObjects)}; correlation packed ${b(f.detailBlockPacked)}`,
  ];
}

/** `node dist/bench.js transfer-ensemble`: the Ensemble CallFlow rows of the transfer bench alone. */
export async function benchEnsembleTransfer(): Promise<void> {
  // `100d`: read from json-split files on disk (written first), else generated in memory.
  const sizes = (process.env.HPC_LENS_BENCH_ENSEMBLE_RUNS ?? '100,1000,100d,1000d').split(',');
  console.log(`\nEnsemble CallFlow messages (median of 5; ${loadNote()} at the start; ms wall (CPU)):\n`);
  const rows: TransferRow[] = [];
  const lines: string[] = [];
  for (const size of sizes) {
    const f = await ensembleTransfer(parseInt(size, 10), 10_000, size.endsWith('d') ? 'disk' : 'memory');
    rows.push(f.objects, f.packed, f.detailObjects, f.detailPacked);
    lines.push(...ensembleTransferLines(f));
  }
  console.log(transferTable(rows));
  for (const l of lines) console.log(`\n${l}`);
  console.log(`\n(${loadNote()} at the end)`);
}

import { NodeKind } from '../../model/call-tree';
import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import type { Profile } from '../../model/profile';
import type { ProfileBuilder } from '../../model/profile-builder';
import { DataMovementKind, FlowKind, MemoryKind, memoryKindOf, TraceEventKind } from '../../model/trace';
import { nestSlices, TraceBuilder } from '../../model/trace-builder';
import { throwIfAborted } from '../reader';
import type { SqliteFile } from './sqlite';

/** 2^24: globalTid = … | pid << 24 | tid (Nsight docs). Plain arithmetic, as the ids exceed 32 bits but stay below 2^53. */
const SPAN = 0x1000000;
export const pidOf = (globalTid: number): number => Math.floor(globalTid / SPAN) % SPAN;
export const tidOf = (globalTid: number): number => globalTid % SPAN;
/** The globalPid of a globalTid (its tid bits cleared), the key of a process. */
const processOf = (globalTid: number): number => globalTid - (globalTid % SPAN);

/** What a collected slice came from. */
const Src = { Nvtx: 0, Runtime: 1, Osrt: 2, Kernel: 3, Memcpy: 4, Memset: 5 } as const;

/** NVTX_EVENTS.eventType values (NvtxEventType in the Nsight schema). */
const NVTX_MARK = 34,
  NVTX_THREAD_NAME = 39,
  NVTX_PUSH_POP = 59,
  NVTX_START_END = 60,
  NVTX_DOMAIN_CREATE = 75;

/** CUPTI_ActivityMemcpyKind → slice name and direction (A = CUDA array, on the device). */
const COPY_NAMES = [
  'Memcpy ?',
  'Memcpy HtoD',
  'Memcpy DtoH',
  'Memcpy HtoA',
  'Memcpy AtoH',
  'Memcpy AtoA',
  'Memcpy AtoD',
  'Memcpy DtoA',
  'Memcpy DtoD',
  'Memcpy HtoH',
  'Memcpy PtoP',
  // nsys's own unified-memory migrations (ENUM_CUDA_MEMCPY_OPER 11–13).
  'Unified Memcpy HtoD',
  'Unified Memcpy DtoH',
  'Unified Memcpy DtoD',
];
const H = DataMovementKind.HostToDevice,
  D = DataMovementKind.DeviceToHost,
  DD = DataMovementKind.DeviceToDevice,
  O = DataMovementKind.Other;
const COPY_KINDS: DataMovementKind[] = [O, H, D, H, D, DD, DD, DD, DD, O, DataMovementKind.Peer, H, D, DD];
/** copyKind values from which on a copy is a unified-memory migration rather than an explicit copy. */
const FIRST_UNIFIED_COPY = 11;

/** Environment variables MPI launchers set to the rank. */
const RANK_ENV = ['OMPI_COMM_WORLD_RANK', 'PMIX_RANK', 'PMI_RANK', 'MV2_COMM_WORLD_RANK', 'SLURM_PROCID'];

interface Plan {
  gpu: boolean;
  process: number;
  tid: number;
  device: number;
  stream: number;
  globalTid: number;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : NaN);

/** Reads the tables of an Nsight Systems export into the trace and the profile (time, bytes, samples per node × track). */
export function buildNsight(
  db: SqliteFile,
  b: ProfileBuilder,
  signal: AbortSignal | undefined,
  progress: (f: number) => void,
): Profile {
  const strings = b.tree.strings;
  const warnings = b.warnings;
  const text: string[] = [];
  db.each('SELECT id, value FROM StringIds', r => {
    text[num(r[0])] = String(r[1] ?? '');
  });
  const str = (id: unknown): string | undefined => {
    const i = num(id);
    return Number.isInteger(i) && i >= 0 ? text[i] : undefined;
  };

  // --- tracks: one per CPU thread (globalTid) and per GPU stream (process, device, stream) ------------
  const plans: Plan[] = [];
  const threadPlan = new Map<number, number>();
  const gpuPlan = new Map<string, number>();
  const thread = (g: number): number => {
    let p = threadPlan.get(g);
    if (p === undefined) {
      threadPlan.set(g, (p = plans.length));
      plans.push({ gpu: false, process: processOf(g), tid: tidOf(g), device: -1, stream: -1, globalTid: g });
    }
    return p;
  };
  const stream = (gpid: number, device: number, s: number): number => {
    const key = `${gpid}:${device}:${s}`;
    let p = gpuPlan.get(key);
    if (p === undefined) {
      gpuPlan.set(key, (p = plans.length));
      plans.push({ gpu: true, process: gpid, tid: -1, device, stream: s, globalTid: NaN });
    }
    return p;
  };

  // --- slices, collected column-wise --------------------------------------------------------------------
  const sPlan = new GrowableInt32(),
    sSrc = new GrowableUint8(),
    sName = new GrowableInt32(),
    sCat = new GrowableInt32();
  const sStart = new GrowableFloat64(),
    sDur = new GrowableFloat64(),
    sCorr = new GrowableFloat64(),
    sBytes = new GrowableFloat64();
  const sKind = new GrowableUint8(),
    sSrcDev = new GrowableInt32(),
    sDstDev = new GrowableInt32();
  // Copies only: memory kinds (MemoryKind) and whether the copy is a unified-memory migration.
  const sSrcKind = new GrowableUint8(),
    sDstKind = new GrowableUint8(),
    sMigration = new GrowableUint8();
  let badTimes = 0;
  const slice = (
    plan: number,
    src: number,
    start: number,
    end: number,
    name: string,
    cat: string,
    corr = NaN,
  ): number => {
    if (!(Number.isFinite(start) && end >= start)) {
      badTimes++;
      return -1;
    }
    sPlan.push(plan);
    sSrc.push(src);
    sName.push(strings.intern(name));
    sCat.push(strings.intern(cat));
    sStart.push(start);
    sDur.push(end - start);
    sCorr.push(corr);
    sBytes.push(NaN);
    sKind.push(0);
    sSrcDev.push(-1);
    sSrcKind.push(MemoryKind.Unknown);
    sDstKind.push(MemoryKind.Unknown);
    sMigration.push(0);
    return sDstDev.push(-1);
  };
  const iPlan: number[] = [],
    iTime: number[] = [],
    iName: string[] = [],
    iCat: string[] = [];

  const steps = 8;
  let step = 0;
  const next = () => {
    throwIfAborted(signal);
    progress(++step / steps);
  };

  // NVTX: domains first (their names are the categories: "MPI" for nsys --trace=mpi), then ranges and marks.
  const threadNames = new Map<number, string>();
  if (db.has('NVTX_EVENTS')) {
    const cols = db.select('NVTX_EVENTS', ['start', 'end', 'eventType', 'text', 'textId', 'globalTid', 'domainId']);
    const domains = new Map<number, string>();
    const rows: unknown[][] = [];
    db.each(`SELECT ${cols} FROM NVTX_EVENTS`, r => {
      const type = num(r[2]);
      if (type === NVTX_DOMAIN_CREATE) domains.set(num(r[6]), String(r[3] ?? str(r[4]) ?? ''));
      else rows.push(r);
    });
    for (const r of rows) {
      const type = num(r[2]);
      const g = num(r[5]);
      const label = typeof r[3] === 'string' ? r[3] : str(r[4]);
      if (type === NVTX_THREAD_NAME) {
        if (label && Number.isFinite(g)) threadNames.set(g, label);
        continue;
      }
      if (!Number.isFinite(g)) continue;
      const cat = domains.get(num(r[6])) || 'NVTX';
      if (type === NVTX_PUSH_POP || type === NVTX_START_END)
        slice(thread(g), Src.Nvtx, num(r[0]), num(r[1]), label ?? '<unnamed range>', cat);
      else if (type === NVTX_MARK && Number.isFinite(num(r[0]))) {
        iPlan.push(thread(g));
        iTime.push(num(r[0]));
        iName.push(label ?? '<mark>');
        iCat.push(cat);
      }
    }
  }
  next();

  // CUDA runtime/driver API calls and OS runtime calls, on their threads; runtime calls by (process, correlationId).
  const launches = new Map<number, Map<number, number>>();
  if (db.has('CUPTI_ACTIVITY_KIND_RUNTIME')) {
    const cols = db.select('CUPTI_ACTIVITY_KIND_RUNTIME', [
      'start',
      'end',
      'globalTid',
      'correlationId',
      'nameId',
      'name',
    ]);
    db.each(`SELECT ${cols} FROM CUPTI_ACTIVITY_KIND_RUNTIME`, r => {
      const g = num(r[2]);
      if (!Number.isFinite(g)) return;
      const name = str(r[4]) ?? (typeof r[5] === 'string' ? r[5] : '<CUDA API>');
      const corr = num(r[3]);
      const i = slice(thread(g), Src.Runtime, num(r[0]), num(r[1]), name, 'CUDA API', corr);
      if (i < 0 || !Number.isFinite(corr)) return;
      let m = launches.get(processOf(g));
      if (!m) launches.set(processOf(g), (m = new Map()));
      // nsys may record one call twice (API wrapper and versioned entry point, nested): keep the innermost.
      const prev = m.get(corr);
      if (prev === undefined || sStart.get(prev) <= sStart.get(i)) m.set(corr, i);
    });
  }
  next();
  if (db.has('OSRT_API')) {
    const cols = db.select('OSRT_API', ['start', 'end', 'globalTid', 'nameId']);
    db.each(`SELECT ${cols} FROM OSRT_API`, r => {
      const g = num(r[2]);
      if (Number.isFinite(g))
        slice(thread(g), Src.Osrt, num(r[0]), num(r[1]), str(r[3]) ?? '<OS runtime call>', 'OS runtime');
    });
  }
  next();

  // GPU activities on their streams.
  const gpuSlice = (r: unknown[], src: number, name: string, cat: string) =>
    slice(
      stream(Number.isFinite(num(r[5])) ? num(r[5]) : 0, num(r[2]), num(r[3])),
      src,
      num(r[0]),
      num(r[1]),
      name,
      cat,
      num(r[4]),
    );
  const gpuCols = ['start', 'end', 'deviceId', 'streamId', 'correlationId', 'globalPid'];
  if (db.has('CUPTI_ACTIVITY_KIND_KERNEL')) {
    const cols = db.select('CUPTI_ACTIVITY_KIND_KERNEL', [...gpuCols, 'demangledName', 'shortName']);
    db.each(`SELECT ${cols} FROM CUPTI_ACTIVITY_KIND_KERNEL`, r => {
      gpuSlice(r, Src.Kernel, str(r[6]) || str(r[7]) || '<kernel>', 'Kernel');
    });
  }
  next();
  if (db.has('CUPTI_ACTIVITY_KIND_MEMCPY')) {
    const cols = db.select('CUPTI_ACTIVITY_KIND_MEMCPY', [
      ...gpuCols,
      'bytes',
      'copyKind',
      'srcDeviceId',
      'dstDeviceId',
      'srcKind',
      'dstKind',
    ]);
    const memoryKind = nsysMemoryKinds(db);
    db.each(`SELECT ${cols} FROM CUPTI_ACTIVITY_KIND_MEMCPY`, r => {
      const ck = num(r[7]);
      const known = Number.isInteger(ck) && ck >= 0 && ck < COPY_NAMES.length;
      const i = gpuSlice(r, Src.Memcpy, known ? COPY_NAMES[ck]! : 'Memcpy ?', 'Memcpy');
      if (i < 0) return;
      const kind = known ? COPY_KINDS[ck]! : O;
      const dev = Number.isFinite(num(r[2])) ? num(r[2]) : -1;
      const src = num(r[8]),
        dst = num(r[9]);
      sBytes.set(i, num(r[6]));
      sKind.set(i, kind);
      sSrcDev.set(i, Number.isFinite(src) ? src : kind === H ? -1 : dev);
      sDstDev.set(i, Number.isFinite(dst) ? dst : kind === D ? -1 : dev);
      sSrcKind.set(i, memoryKind(num(r[10])));
      sDstKind.set(i, memoryKind(num(r[11])));
      sMigration.set(i, ck >= FIRST_UNIFIED_COPY ? 1 : 0);
    });
  }
  if (db.has('CUPTI_ACTIVITY_KIND_MEMSET')) {
    const cols = db.select('CUPTI_ACTIVITY_KIND_MEMSET', [...gpuCols, 'bytes']);
    db.each(`SELECT ${cols} FROM CUPTI_ACTIVITY_KIND_MEMSET`, r => {
      const i = gpuSlice(r, Src.Memset, 'Memset', 'Memset');
      if (i < 0) return;
      sBytes.set(i, num(r[6]));
      sKind.set(i, DataMovementKind.Memset);
      sDstDev.set(i, Number.isFinite(num(r[2])) ? num(r[2]) : -1);
    });
  }
  next();

  // CPU sampling: COMPOSITE_EVENTS (one row per sample) joined with its call chain (depth 0 = leaf).
  const smPlan: number[] = [],
    smTime: number[] = [],
    smNode: number[] = [],
    smDepth: number[] = [],
    smName: string[] = [];
  if (db.has('COMPOSITE_EVENTS') && db.has('SAMPLING_CALLCHAINS')) {
    const frameNode = new Map<string, number>();
    let cur = NaN,
      node = -1,
      depth = -1,
      leaf = '';
    const flush = () => {
      smNode.push(node);
      smDepth.push(depth);
      smName.push(leaf);
    };
    const cc = db.select('SAMPLING_CALLCHAINS', ['stackDepth', 'symbol', 'module']);
    db.each(
      `SELECT e.id, e.start, e.globalTid, ${cc.replace(/"(\w+)"/g, 'c."$1"')} FROM COMPOSITE_EVENTS e JOIN SAMPLING_CALLCHAINS c ON c.id = e.id ORDER BY e.id, c.stackDepth DESC`,
      r => {
        const id = num(r[0]);
        if (id !== cur) {
          if (!Number.isNaN(cur)) flush();
          cur = id;
          node = -1;
          depth = -1;
          smPlan.push(Number.isFinite(num(r[2])) ? thread(num(r[2])) : -1);
          smTime.push(num(r[1]));
        }
        const sym = str(r[4]) || '<unknown>';
        const mod = str(r[5]) ?? '';
        const key = `${node}\u0000${sym}\u0000${mod}`;
        let n = frameNode.get(key);
        if (n === undefined)
          frameNode.set(key, (n = b.tree.add(node, sym, NodeKind.Function, mod ? { module: mod } : {})));
        node = n;
        leaf = sym;
        depth++;
      },
    );
    if (!Number.isNaN(cur)) flush();
  }
  next();

  // --- names, processes and MPI ranks -----------------------------------------------------------------
  if (db.has('ThreadNames'))
    db.each('SELECT nameId, globalTid FROM ThreadNames', r => {
      const n = str(r[0]);
      if (n) threadNames.set(num(r[1]), n);
    });
  const procNames = new Map<number, string>();
  if (db.has('PROCESSES'))
    db.each(`SELECT ${db.select('PROCESSES', ['globalPid', 'name'])} FROM PROCESSES`, r => {
      if (typeof r[1] === 'string' && r[1]) procNames.set(num(r[0]), r[1]);
    });
  const ranks = new Map<number, number>();
  for (const [g, n] of threadNames) {
    const m = /\bMPI Rank (\d+)\b/i.exec(n);
    if (m) ranks.set(processOf(g), Number(m[1]));
  }
  const processes = [...new Set(plans.map(p => p.process))];
  if (processes.length === 1 && !ranks.has(processes[0]!) && db.has('TARGET_INFO_SYSTEM_ENV')) {
    // One process per report is the usual `nsys profile mpirun …` layout; its environment names the rank.
    db.each(`SELECT ${db.select('TARGET_INFO_SYSTEM_ENV', ['name', 'value'])} FROM TARGET_INFO_SYSTEM_ENV`, r => {
      const k = RANK_ENV.indexOf(String(r[0]));
      if (k >= 0 && /^\d+$/.test(String(r[1]))) ranks.set(processes[0]!, Number(r[1]));
    });
  }
  const processLabel = (gpid: number): string => {
    const name = (procNames.get(gpid) ?? 'process').replace(/^.*\//, '');
    const rank = ranks.get(gpid);
    return `${rank !== undefined ? `rank ${rank} · ` : ''}${name} [pid ${pidOf(gpid)}]`;
  };

  // --- tracks in display order: per process (by rank, then pid), threads (main first), then GPU streams --
  const order = plans
    .map((_, i) => i)
    .sort((x, y) => {
      const p = plans[x]!,
        q = plans[y]!;
      return (
        (ranks.get(p.process) ?? Infinity) - (ranks.get(q.process) ?? Infinity) ||
        pidOf(p.process) - pidOf(q.process) ||
        p.process - q.process ||
        Number(p.gpu) - Number(q.gpu) ||
        Number(p.tid !== pidOf(p.process)) - Number(q.tid !== pidOf(q.process)) ||
        p.tid - q.tid ||
        p.device - q.device ||
        p.stream - q.stream
      );
    });
  const tb = new TraceBuilder(strings);
  const origin = db.has('TARGET_INFO_SESSION_START_TIME')
    ? db.scalar('SELECT CAST(utcEpochNs AS TEXT) FROM TARGET_INFO_SESSION_START_TIME')
    : null;
  if (typeof origin === 'string' && /^\d+$/.test(origin)) tb.originNs = origin;
  const trackOf = new Int32Array(plans.length);
  for (const i of order) {
    const p = plans[i]!;
    const process = processLabel(p.process);
    const rank = ranks.get(p.process) ?? -1;
    const name = p.gpu
      ? `GPU ${p.device} · stream ${p.stream}`
      : `${threadNames.get(p.globalTid) ?? 'thread'} (${p.tid})`;
    const context = b.newContext({
      rank,
      thread: p.gpu ? -1 : p.tid,
      gpuDevice: p.device,
      gpuStream: p.stream,
      label: `${process} · ${name}`,
    });
    trackOf[i] = tb.addTrack({
      name,
      kind: p.gpu ? 'gpu-stream' : 'thread',
      process,
      pid: String(pidOf(p.process)),
      tid: p.gpu ? String(p.stream) : String(p.tid),
      rank,
      thread: p.gpu ? -1 : p.tid,
      gpuDevice: p.device,
      gpuStream: p.stream,
      context,
    });
  }

  // --- call tree, events, flows, data movement ------------------------------------------------------------
  const time = b.addMetric({
    name: 'time',
    label: 'Time',
    sourceKeys: ['start', 'end'],
    unit: 'ns',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  let bytesMetric = -1;
  const n = sPlan.length;
  const start = sStart.finish(),
    dur = sDur.finish();
  const node = new Int32Array(n).fill(-1);
  const event = new Int32Array(n).fill(-1);
  const children = new Map<number, Map<number, number>>();
  const child = (parent: number, name: number, kind: NodeKind): number => {
    let m = children.get(parent);
    if (!m) children.set(parent, (m = new Map()));
    const key = name * 8 + kind;
    let c = m.get(key);
    if (c === undefined) m.set(key, (c = b.tree.add(parent, strings.get(name), kind)));
    return c;
  };
  const byPlan = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const p = sPlan.get(i);
    let l = byPlan.get(p);
    if (!l) byPlan.set(p, (l = []));
    l.push(i);
  }
  let unmatched = 0;
  const nested = new Map<
    number,
    { idx: Int32Array; parent: Int32Array; depth: Int32Array; pos: Map<number, number> }
  >();
  // CPU threads first, so GPU work finds the node of the call that launched it.
  for (const gpuPass of [false, true]) {
    for (const pi of order) {
      const plan = plans[pi]!;
      if (plan.gpu !== gpuPass) continue;
      const t = trackOf[pi]!;
      const ctx = tb.tracks[t]!.context;
      const idx = Int32Array.from(byPlan.get(pi) ?? []);
      const { parent, depth } = nestSlices(idx, start, dur);
      const pos = new Map<number, number>();
      nested.set(t, { idx, parent, depth, pos });
      const excl = new Float64Array(idx.length);
      for (let k = 0; k < idx.length; k++) {
        const i = idx[k]!;
        pos.set(i, k);
        const p = parent[k]!;
        let base = p >= 0 ? node[p]! : -1;
        if (gpuPass) {
          const l = launches.get(plan.process)?.get(sCorr.get(i));
          if (l !== undefined) base = node[l]!;
          else {
            base = -1;
            unmatched++;
          }
        }
        node[i] = child(base, sName.get(i), sSrc.get(i) === Src.Nvtx ? NodeKind.Region : NodeKind.Function);
        excl[k] = dur[i]!;
        if (p >= 0) excl[pos.get(p)!]! -= Math.max(0, Math.min(start[i]! + dur[i]!, start[p]! + dur[p]!) - start[i]!);
      }
      for (let k = 0; k < idx.length; k++) {
        const i = idx[k]!;
        event[i] = tb.addSlice(
          t,
          start[i]!,
          dur[i]!,
          node[i]!,
          depth[k]!,
          strings.get(sCat.get(i)),
          strings.get(sName.get(i)),
        );
        b.addExclusive(time, node[i]!, ctx, Math.max(0, excl[k]!));
        if (!gpuPass) continue;
        const l = launches.get(plan.process)?.get(sCorr.get(i));
        if (l !== undefined) {
          tb.addFlow(
            FlowKind.Launch,
            `correlation ${sCorr.get(i)}`,
            { track: trackOf[sPlan.get(l)]!, time: start[l]!, event: event[l]! },
            { track: t, time: start[i]!, event: event[i]! },
          );
        }
        const src = sSrc.get(i);
        if (src !== Src.Memcpy && src !== Src.Memset) continue;
        const bytes = sBytes.get(i);
        tb.addDataMovement({
          kind: sKind.get(i) as DataMovementKind,
          bytes: Number.isFinite(bytes) ? bytes : 0,
          srcDevice: sSrcDev.get(i),
          dstDevice: sDstDev.get(i),
          start: start[i]!,
          duration: dur[i]!,
          track: t,
          event: event[i]!,
          node: node[i]!,
          sourceNode: -1,
          ...(src === Src.Memcpy
            ? {
                srcKind: sSrcKind.get(i) as MemoryKind,
                dstKind: sDstKind.get(i) as MemoryKind,
                migration: sMigration.get(i) === 1,
              }
            : {}),
        });
        if (bytes > 0) {
          if (bytesMetric < 0)
            bytesMetric = b.addMetric({
              name: 'bytes',
              label: 'Bytes moved',
              sourceKeys: ['bytes'],
              unit: 'bytes',
              kind: 'exclusive',
              aggregation: 'sum',
            });
          b.addExclusive(bytesMetric, node[i]!, ctx, bytes);
        }
      }
    }
  }
  if (unmatched)
    warnings.push(
      `${unmatched} GPU activit${unmatched === 1 ? 'y has' : 'ies have'} no CUDA API call with the same correlationId; shown at the top level`,
    );
  if (badTimes) warnings.push(`${badTimes} row${badTimes === 1 ? '' : 's'} without a valid start/end were skipped`);

  // Marks inside the innermost slice that encloses them: the last slice starting at or before the
  // mark, or the nearest of its ancestors still open then.
  const enclosing = (t: number, at: number): { node: number; depth: number } => {
    const s = nested.get(t);
    if (!s) return { node: -1, depth: 0 };
    let lo = 0,
      hi = s.idx.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (start[s.idx[mid]!]! <= at) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo - 1; k >= 0; k = s.pos.get(s.parent[k]!) ?? -1) {
      const i = s.idx[k]!;
      if (at < start[i]! + dur[i]!) return { node: node[i]!, depth: s.depth[k]! + 1 };
    }
    return { node: -1, depth: 0 };
  };
  for (let k = 0; k < iPlan.length; k++) {
    const t = trackOf[iPlan[k]!]!;
    const e = enclosing(t, iTime[k]!);
    tb.addEvent(TraceEventKind.Instant, t, iTime[k]!, 0, e.node, e.depth, iCat[k]!, iName[k]!);
  }
  if (smPlan.length) {
    const samples = b.addMetric({
      name: 'samples',
      label: 'CPU samples',
      sourceKeys: ['COMPOSITE_EVENTS'],
      unit: 'samples',
      kind: 'exclusive',
      aggregation: 'sum',
    });
    for (let k = 0; k < smPlan.length; k++) {
      if (smPlan[k]! < 0 || !Number.isFinite(smTime[k]!)) continue;
      const t = trackOf[smPlan[k]!]!;
      b.addExclusive(samples, smNode[k]!, tb.tracks[t]!.context, 1);
      tb.addEvent(TraceEventKind.Sample, t, smTime[k]!, 0, smNode[k]!, smDepth[k]!, 'CPU sample', smName[k]!);
    }
  }
  next();
  readPageFaults(db, tb);

  b.trace = tb.finish();
  return b.build(time);
}

/**
 * nsys numbers memory kinds its own way (ENUM_CUDA_MEM_KIND: 0 Pageable, 1 Pinned, 2 Device, 3 Array,
 * 4 Managed, 5 Device Static, 6 Managed Static, 7 Unknown). The export's enum table wins when present;
 * older exports (no table) use that numbering too.
 */
const NSYS_MEMORY_KINDS: MemoryKind[] = [
  MemoryKind.Pageable,
  MemoryKind.Pinned,
  MemoryKind.Device,
  MemoryKind.Array,
  MemoryKind.Managed,
  MemoryKind.DeviceStatic,
  MemoryKind.ManagedStatic,
  MemoryKind.Unknown,
];
function nsysMemoryKinds(db: SqliteFile): (id: number) => MemoryKind {
  const table = new Map<number, MemoryKind>();
  if (db.has('ENUM_CUDA_MEM_KIND'))
    db.each(`SELECT ${db.select('ENUM_CUDA_MEM_KIND', ['id', 'label', 'name'])} FROM ENUM_CUDA_MEM_KIND`, r => {
      const label =
        typeof r[1] === 'string'
          ? r[1]
          : String(r[2] ?? '')
              .replace(/^.*_KIND_/, '')
              .replace(/_/g, ' ');
      table.set(num(r[0]), memoryKindOf(label));
    });
  return id => (table.size ? table.get(id) : NSYS_MEMORY_KINDS[id]) ?? MemoryKind.Unknown;
}

/** Unified-memory page faults: GPU fault groups (start, end, device, numberOfPageFaults) and CPU faults (instants). */
function readPageFaults(db: SqliteFile, tb: TraceBuilder): void {
  if (db.has('CUDA_UM_GPU_PAGE_FAULT_EVENTS')) {
    const cols = db.select('CUDA_UM_GPU_PAGE_FAULT_EVENTS', ['start', 'end', 'deviceId', 'numberOfPageFaults']);
    db.each(`SELECT ${cols} FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS`, r => {
      const start = num(r[0]),
        end = num(r[1]),
        count = num(r[3]);
      if (!Number.isFinite(start)) return;
      const device = num(r[2]);
      tb.addPageFault(
        start,
        end >= start ? end - start : 0,
        Number.isInteger(device) ? device : -1,
        count > 0 ? count : 1,
      );
    });
  }
  if (db.has('CUDA_UM_CPU_PAGE_FAULT_EVENTS'))
    db.each(`SELECT ${db.select('CUDA_UM_CPU_PAGE_FAULT_EVENTS', ['start'])} FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS`, r => {
      if (Number.isFinite(num(r[0]))) tb.addPageFault(num(r[0]), 0, -1, 1);
    });
}

/** `TARGET_INFO_GPU` as Kineto's `deviceProperties` (id, name, totalGlobalMem, numSms, compute capability, bus). */
export function nsysDeviceProperties(db: SqliteFile): Record<string, string | number>[] {
  if (!db.has('TARGET_INFO_GPU')) return [];
  const out: Record<string, string | number>[] = [];
  const cols = ['cuDevice', 'id', 'name', 'totalMemory', 'smCount', 'computeMajor', 'computeMinor', 'busLocation'];
  db.each(`SELECT ${db.select('TARGET_INFO_GPU', cols)} FROM TARGET_INFO_GPU`, r => {
    const id = Number.isInteger(num(r[0])) ? num(r[0]) : num(r[1]);
    if (!Number.isInteger(id)) return;
    const p: Record<string, string | number> = { id };
    if (typeof r[2] === 'string') p['name'] = r[2];
    const put = (key: string, v: unknown) => {
      if (Number.isFinite(num(v))) p[key] = num(v);
    };
    put('totalGlobalMem', r[3]);
    put('numSms', r[4]);
    put('computeMajor', r[5]);
    put('computeMinor', r[6]);
    if (typeof r[7] === 'string' && r[7]) p['busLocation'] = r[7];
    out.push(p);
  });
  return out.sort((a, b) => Number(a['id']) - Number(b['id']));
}

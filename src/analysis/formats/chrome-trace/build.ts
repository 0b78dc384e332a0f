import { NodeKind } from '../../model/call-tree';
import { GrowableInt32 } from '../../model/growable';
import type { Profile } from '../../model/profile';
import type { ProfileBuilder } from '../../model/profile-builder';
import { DataMovementKind, FlowKind, memoryKindOf, TraceEventKind, type MemoryKind } from '../../model/trace';
import { nestSlices, TraceBuilder } from '../../model/trace-builder';
import { Cpu, Gpu, Ph, type ChromeTraceCollector, type RawTrack } from './collect';

/** `file.py(LINE): func` — a Python frame as Kineto writes it (in `Call stack` and python_function names). */
const PY_FRAME = /^(.+?)\((\d+)\): (.+)$/;

const TRACK_KIND_ORDER = { thread: 0, 'gpu-stream': 1, async: 2, counter: 3 } as const;

/**
 * The finishing pass: B/E matching, async lanes, nesting per track, call-tree nodes (GPU work under
 * the CPU call that launched it, Python frames from `Call stack`), flows, samples, counters, data
 * movement, and the profile (time, bytes and samples per node × track).
 */
export function buildChromeTrace(c: ChromeTraceCollector, b: ProfileBuilder, warnings: string[]): Profile {
  // The collected columns as typed arrays: one element type per name, so every access stays monomorphic.
  const col = {
    aCat: c.aCat.view(),
    aName: c.aName.view(),
    aPhase: c.aPhase.view(),
    aTs: c.aTs.view(),
    fCat: c.fCat.view(),
    fEnclosing: c.fEnclosing.view(),
    fKey: c.fKey.view(),
    fPhase: c.fPhase.view(),
    fTrack: c.fTrack.view(),
    fTs: c.fTs.view(),
    iCat: c.iCat.view(),
    iName: c.iName.view(),
    iTrack: c.iTrack.view(),
    iTs: c.iTs.view(),
    memAllocated: c.memAllocated.view(),
    memBytes: c.memBytes.view(),
    memDevice: c.memDevice.view(),
    memReserved: c.memReserved.view(),
    memTs: c.memTs.view(),
    sBytes: c.sBytes.view(),
    sCat: c.sCat.view(),
    sCorr: c.sCorr.view(),
    sCpu: c.sCpu.view(),
    sDevice: c.sDevice.view(),
    sDur: c.sDur.view(),
    sGpu: c.sGpu.view(),
    sName: c.sName.view(),
    sPhase: c.sPhase.view(),
    sStack: c.sStack.view(),
    sTrack: c.sTrack.view(),
    sTs: c.sTs.view(),
    smTrack: c.smTrack.view(),
    smTs: c.smTs.view(),
    smWeight: c.smWeight.view(),
  };
  const strings = b.tree.strings;
  const origin = Number.isFinite(c.minTs) ? Math.floor(c.minTs) : 0;
  const ns = (us: number) => Math.round((us - origin) * 1000);

  // --- B/E matching (per track, in time order; lenient) --------------------------------------------
  const nS0 = c.sTrack.length;
  const dur = new Float64Array(nS0);
  const beByTrack = new Map<number, number[]>();
  for (let i = 0; i < nS0; i++) {
    if (col.sPhase[i] === Ph.X) {
      dur[i] = col.sDur[i];
      continue;
    }
    dur[i] = NaN;
    const t = col.sTrack[i];
    let list = beByTrack.get(t);
    if (!list) beByTrack.set(t, (list = []));
    list.push(i);
  }
  let unmatchedEnds = 0,
    unclosed = 0,
    overlapping = 0;
  // An end closes the innermost open begin of its name (or the innermost open begin when it names
  // none, or no open begin has its name). Linear: one stack of open begins per name besides the
  // stack of all open begins, and a begin closed out of order is only marked, then skipped when it
  // surfaces (a scan down the stack for each mismatched end was quadratic: 40k nested ends, 6 s).
  const closed = new Uint8Array(nS0);
  for (const [t, list] of beByTrack) {
    list.sort((x, y) => col.sTs[x] - col.sTs[y] || x - y);
    const open: number[] = [];
    const openByName = new Map<number, number[]>();
    const innermost = (stack: number[] | undefined): number => {
      while (stack?.length && closed[stack[stack.length - 1]!]) stack.pop();
      return stack?.length ? stack[stack.length - 1]! : -1;
    };
    for (const i of list) {
      if (col.sPhase[i] === Ph.B) {
        open.push(i);
        const name = col.sName[i];
        let byName = openByName.get(name);
        if (!byName) openByName.set(name, (byName = []));
        byName.push(i);
        continue;
      }
      const top = innermost(open);
      if (top < 0) {
        unmatchedEnds++;
        continue;
      }
      const name = col.sName[i];
      let bi = top;
      if (name !== 0 && col.sName[top] !== name) {
        const sameName = innermost(openByName.get(name));
        if (sameName >= 0) {
          bi = sameName;
          overlapping++;
        }
      }
      closed[bi] = 1;
      dur[bi] = Math.max(0, col.sTs[i] - col.sTs[bi]);
    }
    const last = c.trackList[t]!.last;
    for (const bi of open) {
      if (closed[bi]) continue;
      dur[bi] = Math.max(0, last - col.sTs[bi]);
      unclosed++;
    }
  }
  if (unmatchedEnds)
    warnings.push(
      `${unmatchedEnds} end event${unmatchedEnds === 1 ? '' : 's'} (ph E) without a matching begin were ignored`,
    );
  if (unclosed)
    warnings.push(
      `${unclosed} begin event${unclosed === 1 ? '' : 's'} (ph B) without an end were closed at the last timestamp of their track`,
    );
  if (overlapping)
    warnings.push(`${overlapping} begin/end pair${overlapping === 1 ? '' : 's'} overlap instead of nesting`);

  // Slice candidates: matched slices as (track, start ns, duration ns, source row).
  const cStart = new GrowableArray(),
    cDur = new GrowableArray();
  const cTrack = new GrowableInt32(),
    cRow = new GrowableInt32(),
    cName = new GrowableInt32(),
    cCat = new GrowableInt32();
  for (let i = 0; i < nS0; i++) {
    if (!(dur[i]! >= 0)) continue;
    const s = ns(col.sTs[i]);
    cTrack.push(col.sTrack[i]);
    cStart.push(s);
    cDur.push(Math.max(0, ns(col.sTs[i] + dur[i]!) - s));
    cRow.push(i);
    cName.push(col.sName[i]);
    cCat.push(col.sCat[i]);
  }

  // --- async slices: matched per (pid, cat, id), packed into lanes per (pid, name) -------------------
  const asyncTracks: { pid: string; name: string; lane: number }[] = [];
  const asyncTrackBase = c.trackList.length;
  {
    const byKey = new Map<string, number[]>();
    for (let i = 0; i < c.aKey.length; i++) {
      let l = byKey.get(c.aKey[i]!);
      if (!l) byKey.set(c.aKey[i]!, (l = []));
      l.push(i);
    }
    interface AsyncSlice {
      pid: string;
      start: number;
      end: number;
      name: number;
      cat: number;
      root: AsyncSlice | null;
      track: number;
    }
    const slices: AsyncSlice[] = [];
    let unmatched = 0;
    for (const list of byKey.values()) {
      list.sort((x, y) => col.aTs[x] - col.aTs[y] || x - y);
      const open: AsyncSlice[] = [];
      for (const i of list) {
        const ph = col.aPhase[i];
        if (ph === 0) {
          open.push({
            pid: c.aPid[i]!,
            start: col.aTs[i],
            end: NaN,
            name: col.aName[i],
            cat: col.aCat[i],
            root: open[0] ?? null,
            track: -1,
          });
        } else if (ph === 1) {
          const s = open.pop();
          if (!s) {
            unmatched++;
            continue;
          }
          s.end = col.aTs[i];
          slices.push(s);
        }
      }
      for (const s of open) {
        s.end = s.start;
        slices.push(s);
        unmatched++;
      }
    }
    if (unmatched)
      warnings.push(`${unmatched} async begin/end event${unmatched === 1 ? '' : 's'} (ph b/e) had no partner`);
    const roots = slices.filter(s => !s.root).sort((x, y) => x.start - y.start);
    const lanes = new Map<string, { end: number[]; track: number[] }>();
    for (const r of roots) {
      const key = r.pid + '\u0000' + r.name;
      let l = lanes.get(key);
      if (!l) lanes.set(key, (l = { end: [], track: [] }));
      let k = l.end.findIndex(e => e <= r.start);
      if (k < 0) {
        k = l.end.length;
        l.end.push(r.end);
        l.track.push(asyncTrackBase + asyncTracks.length);
        asyncTracks.push({ pid: r.pid, name: strings.get(r.name), lane: k });
      }
      l.end[k] = r.end;
      r.track = l.track[k]!;
    }
    for (const s of slices) {
      const track = s.root ? s.root.track : s.track;
      const start = ns(s.start);
      cTrack.push(track);
      cStart.push(start);
      cDur.push(Math.max(0, ns(s.end) - start));
      cRow.push(-1);
      cName.push(s.name);
      cCat.push(s.cat);
    }
  }

  // --- tracks in display order, one context each ---------------------------------------------------
  interface TrackPlan {
    raw: RawTrack | null;
    kind: 'thread' | 'gpu-stream' | 'async' | 'counter';
    pid: string;
    tid: string;
    name: string;
    sortIndex: number;
  }
  const counterTracks = new Set<number>();
  for (const s of c.counters.values()) counterTracks.add(s.track);
  const plans: TrackPlan[] = c.trackList.map(t => ({
    raw: t,
    kind: t.gpu ? 'gpu-stream' : counterTracks.has(t.id) ? 'counter' : 'thread',
    pid: t.pid,
    tid: t.tid,
    name:
      t.name ??
      (t.gpu
        ? t.tid.startsWith('stream')
          ? t.tid
          : `stream ${t.stream >= 0 ? t.stream : t.tid}`
        : counterTracks.has(t.id)
          ? t.tid
          : /^-?\d+$/.test(t.tid)
            ? `thread ${t.tid}`
            : t.tid),
    sortIndex: t.sortIndex,
  }));
  for (const a of asyncTracks)
    plans.push({
      raw: null,
      kind: 'async',
      pid: a.pid,
      tid: '',
      name: a.lane ? `${a.name} (${a.lane + 1})` : a.name,
      sortIndex: 0,
    });
  const nCand = cTrack.length;
  const used = new Uint8Array(plans.length);
  for (let k = 0; k < nCand; k++) used[cTrack.get(k)] = 1;
  for (let i = 0; i < c.iTrack.length; i++) used[col.iTrack[i]] = 1;
  for (let i = 0; i < c.smTrack.length; i++) used[col.smTrack[i]] = 1;
  for (const t of counterTracks) used[t] = 1;
  for (let i = 0; i < c.fTrack.length; i++) used[col.fTrack[i]] = 1;
  const procGpu = new Set(plans.filter(p => p.kind === 'gpu-stream').map(p => p.pid));
  const procInfo = (pid: string) => c.processes.get(pid) ?? { name: null, labels: null, sortIndex: 0 };
  const processName = (pid: string) => {
    const p = procInfo(pid);
    const base = p.name ?? (pid === '' ? 'process' : `process ${pid}`);
    return p.labels ? `${base} [${p.labels}]` : base;
  };
  const cmpId = (x: string, y: string) => {
    const a = Number(x),
      b2 = Number(y);
    return x !== '' && y !== '' && Number.isFinite(a) && Number.isFinite(b2) ? a - b2 : x < y ? -1 : x > y ? 1 : 0;
  };
  const order = plans
    .map((_, i) => i)
    .filter(i => used[i])
    .sort((x, y) => {
      const p = plans[x]!,
        q = plans[y]!;
      return (
        procInfo(p.pid).sortIndex - procInfo(q.pid).sortIndex ||
        Number(procGpu.has(p.pid)) - Number(procGpu.has(q.pid)) ||
        cmpId(p.pid, q.pid) ||
        TRACK_KIND_ORDER[p.kind] - TRACK_KIND_ORDER[q.kind] ||
        p.sortIndex - q.sortIndex ||
        cmpId(p.tid, q.tid) ||
        x - y
      );
    });
  const tb = new TraceBuilder(strings);
  tb.originNs = (BigInt(origin) * 1000n).toString();
  const trackOf = new Int32Array(plans.length).fill(-1);
  for (const i of order) {
    const p = plans[i]!;
    const raw = p.raw;
    const thread = p.kind === 'thread' && /^-?\d+$/.test(p.tid) ? Number(p.tid) : -1;
    const gpuDevice =
      p.kind === 'gpu-stream'
        ? raw!.device >= 0
          ? raw!.device
          : Number.isInteger(Number(p.pid))
            ? Number(p.pid)
            : -1
        : -1;
    const gpuStream = p.kind === 'gpu-stream' ? raw!.stream : -1;
    const process = processName(p.pid);
    const context =
      p.kind === 'counter' ? -1 : b.newContext({ thread, gpuDevice, gpuStream, label: `${process} · ${p.name}` });
    trackOf[i] = tb.addTrack({
      name: p.name,
      kind: p.kind,
      process,
      pid: p.pid,
      tid: p.tid,
      thread,
      gpuDevice,
      gpuStream,
      context,
      sortIndex: p.sortIndex,
    });
  }

  // --- call-tree nodes -----------------------------------------------------------------------------
  const nodeFile: number[] = [];
  const nodeParent: number[] = [];
  const nodeName: string[] = [];
  const children = new PairTable();
  const parsed = new Map<number, { name: string; file: string | null; line: number }>();
  const child = (parent: number, rawName: number): number => {
    let n = children.get(parent, rawName);
    if (n < 0) {
      let p = parsed.get(rawName);
      if (!p) {
        const s = strings.get(rawName);
        const m = PY_FRAME.exec(s);
        p = m ? { name: m[3]!, file: m[1]!, line: Number(m[2]) } : { name: s || '<unnamed>', file: null, line: 0 };
        parsed.set(rawName, p);
      }
      n = b.tree.add(parent, p.name, NodeKind.Function, p.file ? { file: p.file, line: p.line } : {});
      nodeFile.push(p.file ? 1 : 0);
      nodeParent.push(parent);
      nodeName.push(p.name);
      children.set(parent, rawName, n);
    }
    return n;
  };
  // A `Call stack`'s frames, outermost first (Kineto writes the innermost first).
  const stackFrames: (string[] | undefined)[] = [];
  const framesOf = (stackId: number): string[] =>
    (stackFrames[stackId] ??= strings
      .get(stackId)
      .split(';')
      .map(f => f.trim())
      .filter(f => f !== '')
      .reverse());
  // The node a `Call stack` leads to from a base node, leaving out its `skip` outermost frames;
  // memoized: stacks repeat by the thousand.
  const pyChains: (Map<number | string, number> | undefined)[] = [];
  const pyChain = (base: number, stackId: number, skip = 0): number => {
    let byBase = pyChains[stackId];
    if (byBase === undefined) pyChains[stackId] = byBase = new Map();
    const key = skip === 0 ? base : `${base}/${skip}`;
    let n = byBase.get(key);
    if (n !== undefined) return n;
    const frames = framesOf(stackId);
    n = base;
    for (let k = skip; k < frames.length; k++) n = child(n, strings.intern(frames[k]!));
    byBase.set(key, n);
    return n;
  };
  // How many outermost frames two call stacks share.
  const sharedFrames = new Map<string, number>();
  const sharedOuterFrames = (a: number, b: number): number => {
    const key = `${a},${b}`;
    let k = sharedFrames.get(key);
    if (k === undefined) {
      const fa = framesOf(a),
        fb = framesOf(b);
      for (k = 0; k < fa.length && k < fb.length && fa[k] === fb[k]; k++);
      sharedFrames.set(key, k);
    }
    return k;
  };
  const sourceNodeOf = (node: number): number => {
    for (let n = node; n >= 0; n = nodeParent[n]!) if (nodeFile[n]) return n;
    return -1;
  };

  const time = b.addMetric({
    name: 'time',
    label: 'Time',
    sourceKeys: ['dur'],
    unit: 'ns',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  let bytesMetric = -1;
  let samplesMetric = -1;

  const startArr = cStart.finish(),
    durArr = cDur.finish();
  const candNode = new Int32Array(nCand).fill(-1);
  const candParent = new Int32Array(nCand).fill(-1);
  const candEvent = new Int32Array(nCand).fill(-1);
  const candPy = new Uint8Array(nCand);
  /** The `Call stack` whose frames a candidate's Python frames come from (its own or an enclosing operator's), 0 for none. */
  const candStack = new Int32Array(nCand);
  /** Position of each candidate in its track's nesting order. */
  const candPos = new Int32Array(nCand);
  const corrToCand = new CorrelationIndex();
  for (let k = 0; k < nCand; k++) {
    const row = cRow.get(k);
    if (row >= 0 && col.sGpu[row] === Gpu.None) corrToCand.add(col.sCorr[row], k);
  }
  corrToCand.seal();

  // Per track: candidates, instants and samples.
  const byTrack = (n: number, trackAt: (i: number) => number) => {
    const lists = new Map<number, number[]>();
    for (let i = 0; i < n; i++) {
      const t = trackOf[trackAt(i)]!;
      let l = lists.get(t);
      if (!l) lists.set(t, (l = []));
      l.push(i);
    }
    return lists;
  };
  // Candidates grouped by track (a counting sort: no list per track).
  const candStart = new Int32Array(tb.tracks.length + 1);
  for (let k = 0; k < nCand; k++) candStart[trackOf[cTrack.get(k)]! + 1]++;
  for (let t = 0; t < tb.tracks.length; t++) candStart[t + 1] += candStart[t]!;
  const candOrder = new Int32Array(nCand);
  {
    const fill = candStart.slice(0, tb.tracks.length);
    for (let k = 0; k < nCand; k++) candOrder[fill[trackOf[cTrack.get(k)]!]!++] = k;
  }
  const instByTrack = byTrack(c.iTrack.length, i => col.iTrack[i]);
  const sampleByTrack = byTrack(c.smTrack.length, i => col.smTrack[i]);

  // Sampled stacks: frame id → node, parents first.
  const frameNode = new Map<string, number>();
  const frameDepth = new Map<string, number>();
  const frames = c.stackFrames ?? {};
  let unresolved = 0;
  const resolveFrame = (id: string): number => {
    const chain: string[] = [];
    for (let f: string | null = id; f !== null && !frameNode.has(f);) {
      const fr: Record<string, unknown> | null | undefined = Object.prototype.hasOwnProperty.call(frames, f)
        ? (frames[f] as Record<string, unknown> | null)
        : undefined;
      if (!fr || typeof fr !== 'object' || chain.length > 10000) return -1;
      chain.push(f);
      const p: unknown = fr['parent'];
      f = p === undefined || p === null ? null : String(p);
      if (f !== null && chain.includes(f)) return -1;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const f = chain[k]!;
      const fr = frames[f] as Record<string, unknown>;
      const p = fr['parent'];
      const parent = p === undefined || p === null ? -1 : frameNode.get(String(p))!;
      if (parent === undefined) return -1;
      frameNode.set(
        f,
        child(parent, strings.intern(typeof fr['name'] === 'string' ? fr['name'] : String(fr['name'] ?? ''))),
      );
      frameDepth.set(f, p === undefined || p === null ? 0 : frameDepth.get(String(p))! + 1);
    }
    return frameNode.get(id) ?? -1;
  };

  // Flow endpoints grouped by key (first-met order), each group in (time, phase, file) order.
  const nF = c.fKey.length;
  const nKeys = c.flowCount;
  const keyStart = new Int32Array(nKeys + 1);
  for (let i = 0; i < nF; i++) keyStart[col.fKey[i] + 1]++;
  for (let k = 0; k < nKeys; k++) keyStart[k + 1] += keyStart[k]!;
  const flowOrder = new Int32Array(nF);
  {
    const fill = keyStart.slice(0, nKeys);
    for (let i = 0; i < nF; i++) flowOrder[fill[col.fKey[i]]!++] = i;
    const before = (x: number, y: number) => col.fTs[x] - col.fTs[y] || col.fPhase[x] - col.fPhase[y] || x - y;
    for (let k = 0; k < nKeys; k++) {
      const lo = keyStart[k]!,
        hi = keyStart[k + 1]!;
      if (hi - lo > 16) {
        flowOrder.set(Array.from(flowOrder.subarray(lo, hi)).sort(before), lo);
        continue;
      }
      // Most groups are tiny (s, f): insertion sort.
      for (let a = lo + 1; a < hi; a++) {
        const v = flowOrder[a]!;
        let b = a;
        for (; b > lo && before(flowOrder[b - 1]!, v) > 0; b--) flowOrder[b] = flowOrder[b - 1]!;
        flowOrder[b] = v;
      }
    }
  }
  // Kineto's ac2g flows (runtime call → GPU activity) link GPU work whose `args.correlation` is missing.
  const ac2gFrom = new Map<number, number[]>();
  {
    const ac2g = strings.find('ac2g');
    let uncorrelated = false;
    for (let i = 0; i < nS0 && !uncorrelated; i++)
      uncorrelated = col.sGpu[i] !== Gpu.None && !Number.isFinite(col.sCorr[i]);
    if (ac2g >= 0 && uncorrelated) {
      for (let k = 0; k < nKeys; k++) {
        let from = -1;
        for (let a = keyStart[k]!; a < keyStart[k + 1]!; a++) {
          const i = flowOrder[a]!;
          const ph = col.fPhase[i];
          if (ph !== 0 && from >= 0 && col.fCat[i] === ac2g) {
            const t = trackOf[col.fTrack[i]]!;
            let l = ac2gFrom.get(t);
            if (!l) ac2gFrom.set(t, (l = []));
            l.push(i, from);
          }
          from = ph === 2 ? -1 : i;
        }
      }
    }
  }

  /** The candidate a flow endpoint binds to: the innermost slice enclosing it, or (`enclosing` false) the next slice to start. */
  const sorted = new Map<number, { idx: Int32Array; starts: Float64Array }>();
  const bindCand = (t: number, at: number, enclosing: boolean): number => {
    const s = sorted.get(t);
    if (!s) return -1;
    let lo = 0,
      hi = s.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s.starts[mid]! <= at) lo = mid + 1;
      else hi = mid;
    }
    if (enclosing) {
      for (let ci = lo > 0 ? s.idx[lo - 1]! : -1; ci >= 0; ci = candParent[ci]!)
        if (at < startArr[ci]! + durArr[ci]! || at === startArr[ci]!) return ci;
      return -1;
    }
    let k = lo;
    while (k > 0 && s.starts[k - 1] === at) k--;
    return k < s.idx.length ? s.idx[k]! : -1;
  };
  const bindFlow = (i: number): number => bindCand(trackOf[col.fTrack[i]]!, ns(col.fTs[i]), col.fEnclosing[i] === 1);

  // CPU tracks first so that GPU work finds the node of the call that launched it.
  const trackIds = [...new Set(order.map(i => trackOf[i]!))];
  const gpuLast = trackIds
    .filter(t => tb.tracks[t]!.kind !== 'gpu-stream')
    .concat(trackIds.filter(t => tb.tracks[t]!.kind === 'gpu-stream'));
  const launchedBy = new Map<number, number>();
  for (const t of gpuLast) {
    const track = tb.tracks[t]!;
    const ctx = track.context;
    const idx = candOrder.subarray(candStart[t]!, candStart[t + 1]!);
    const { parent, depth } = nestSlices(idx, startArr, durArr);
    for (let k = 0; k < idx.length; k++) candParent[idx[k]!] = parent[k]!;
    const starts = new Float64Array(idx.length);
    for (let k = 0; k < idx.length; k++) starts[k] = startArr[idx[k]!]!;
    sorted.set(t, { idx, starts });
    // ac2g flows ending on this track: GPU slice → launching CPU slice (CPU tracks are done by now).
    const ends = ac2gFrom.get(t);
    if (ends) {
      for (let a = 0; a < ends.length; a += 2) {
        const gpuCand = bindFlow(ends[a]!);
        if (gpuCand >= 0 && !launchedBy.has(gpuCand)) {
          const l = bindFlow(ends[a + 1]!);
          if (l >= 0) launchedBy.set(gpuCand, l);
        }
      }
    }
    const excl = new Float64Array(idx.length);
    for (let k = 0; k < idx.length; k++) {
      const ci = idx[k]!;
      const p = parent[k]!;
      const row = cRow.get(ci);
      let base = p >= 0 ? candNode[p]! : -1;
      let py = p >= 0 ? candPy[p]! : 0;
      let placedBy = p >= 0 ? candStack[p]! : 0;
      if (row >= 0) {
        if (p < 0 && col.sGpu[row] !== Gpu.None) {
          const corr = col.sCorr[row];
          const l = Number.isFinite(corr) ? corrToCand.get(corr) : launchedBy.get(ci);
          if (l !== undefined && candNode[l]! >= 0) base = candNode[l]!;
        }
        const stack = col.sStack[row];
        if (stack && !py) {
          b.callStackLines = true;
          base = pyChain(base, stack);
          py = 1;
          placedBy = stack;
        } else if (stack && placedBy && stack !== placedBy) {
          // An operator inside another one (ProfilerStep#8 around the step's aten::to) was called
          // from its own Python line: its frames below those the two stacks share go under the
          // enclosing operator, so its cost reaches its own line, not the enclosing one's.
          base = pyChain(base, stack, sharedOuterFrames(placedBy, stack));
          placedBy = stack;
        }
        // Python function events nest the frames themselves: stacks inside them add nothing.
        if (col.sCpu[row] === Cpu.Python) {
          b.callStackLines = true;
          py = 1;
          placedBy = 0;
        }
      }
      candNode[ci] = child(base, cName.get(ci));
      candPy[ci] = py;
      candStack[ci] = placedBy;
      excl[k] = durArr[ci]!;
    }
    // Exclusive = own duration minus the parts covered by direct children (clipped to the parent).
    for (let k = 0; k < idx.length; k++) candPos[idx[k]!] = k;
    for (let k = 0; k < idx.length; k++) {
      const p = parent[k]!;
      if (p < 0) continue;
      const ci = idx[k]!;
      const end = Math.min(startArr[ci]! + durArr[ci]!, startArr[p]! + durArr[p]!);
      excl[candPos[p]!]! -= Math.max(0, end - startArr[ci]!);
    }
    const enclosing = (at: number): number => bindCand(t, at, true);

    // Instants and samples, then everything in (start, depth) order.
    const inst = (instByTrack.get(t) ?? []).map(i => {
      const at = ns(col.iTs[i]);
      const e = enclosing(at);
      return {
        at,
        depth: e >= 0 ? depth[candPos[e]!]! + 1 : 0,
        node: e >= 0 ? candNode[e]! : -1,
        i,
        kind: TraceEventKind.Instant as TraceEventKind,
      };
    });
    for (const i of sampleByTrack.get(t) ?? []) {
      const node = resolveFrame(c.smFrame[i]!);
      if (node < 0) {
        unresolved++;
        continue;
      }
      if (samplesMetric < 0)
        samplesMetric = b.addMetric({
          name: 'samples',
          label: 'Samples',
          sourceKeys: ['samples', 'stackFrames'],
          unit: 'samples',
          kind: 'exclusive',
          aggregation: 'sum',
        });
      b.addExclusive(samplesMetric, node, ctx, col.smWeight[i]);
      inst.push({
        at: ns(col.smTs[i]),
        depth: frameDepth.get(c.smFrame[i]!) ?? 0,
        node,
        i,
        kind: TraceEventKind.Sample,
      });
    }
    inst.sort((x, y) => x.at - y.at || x.depth - y.depth);
    let j = 0;
    const flushUntil = (at: number, d: number) => {
      for (; j < inst.length && (inst[j]!.at < at || (inst[j]!.at === at && inst[j]!.depth < d)); j++) {
        const e = inst[j]!;
        if (e.kind === TraceEventKind.Instant)
          tb.addEvent(e.kind, t, e.at, 0, e.node, e.depth, strings.get(col.iCat[e.i]), strings.get(col.iName[e.i]));
        else tb.addEvent(e.kind, t, e.at, 0, e.node, e.depth, '', nodeName[e.node]!);
      }
    };
    for (let k = 0; k < idx.length; k++) {
      const ci = idx[k]!;
      flushUntil(startArr[ci]!, depth[k]!);
      candEvent[ci] = tb.addSlice(
        t,
        startArr[ci]!,
        durArr[ci]!,
        candNode[ci]!,
        depth[k]!,
        strings.get(cCat.get(ci)),
        strings.get(cName.get(ci)),
      );
      if (ctx >= 0) b.addExclusive(time, candNode[ci]!, ctx, Math.max(0, excl[k]!));
      const row = cRow.get(ci);
      const gpu = row >= 0 ? col.sGpu[row] : Gpu.None;
      if (gpu === Gpu.Memcpy || gpu === Gpu.Memset) {
        const bytes = col.sBytes[row];
        const kind = gpu === Gpu.Memset ? DataMovementKind.Memset : copyKind(strings.get(cName.get(ci)));
        const device = col.sDevice[row] >= 0 ? col.sDevice[row] : track.gpuDevice;
        tb.addDataMovement({
          kind,
          bytes: Number.isFinite(bytes) ? bytes : 0,
          srcDevice: kind === DataMovementKind.HostToDevice ? -1 : device,
          dstDevice: kind === DataMovementKind.DeviceToHost ? -1 : device,
          start: startArr[ci]!,
          duration: durArr[ci]!,
          track: t,
          event: candEvent[ci]!,
          node: candNode[ci]!,
          sourceNode: sourceNodeOf(candNode[ci]!),
          ...copyMemoryKinds(strings.get(cName.get(ci))),
        });
        if (Number.isFinite(bytes) && bytes > 0) {
          if (bytesMetric < 0)
            bytesMetric = b.addMetric({
              name: 'bytes',
              label: 'Bytes moved',
              sourceKeys: ['args.bytes'],
              unit: 'bytes',
              kind: 'exclusive',
              aggregation: 'sum',
            });
          b.addExclusive(bytesMetric, candNode[ci]!, ctx, bytes);
        }
      }
    }
    flushUntil(Infinity, 0);
  }
  if (unresolved)
    warnings.push(
      `${unresolved} sample${unresolved === 1 ? '' : 's'} refer to stack frames missing from "stackFrames"`,
    );

  // --- flows: s → t → … → f per id, bound to the slices at their ends --------------------------------
  {
    const bind = (i: number): { track: number; time: number; event: number } => {
      const ci = bindFlow(i);
      return { track: trackOf[col.fTrack[i]]!, time: ns(col.fTs[i]), event: ci >= 0 ? candEvent[ci]! : -1 };
    };
    for (let key = 0; key < nKeys; key++) {
      let from: ReturnType<typeof bind> | null = null;
      for (let a = keyStart[key]!; a < keyStart[key + 1]!; a++) {
        const i = flowOrder[a]!;
        const ph = col.fPhase[i];
        const here = bind(i);
        if (ph !== 0 && from) {
          const launch =
            strings.get(col.fCat[i]) === 'ac2g' ||
            (tb.tracks[from.track]!.kind !== 'gpu-stream' && tb.tracks[here.track]!.kind === 'gpu-stream');
          tb.addFlow(launch ? FlowKind.Launch : FlowKind.Generic, key, from, here);
        }
        from = ph === 2 ? null : here;
      }
    }
  }

  // --- counters --------------------------------------------------------------------------------------
  for (const s of c.counters.values()) {
    const id = tb.addCounterSeries(trackOf[s.track]!, s.name);
    for (let i = 0; i < s.time.length; i++) tb.addCounterSample(id, ns(s.time.get(i)), s.value.get(i));
  }

  // --- allocator events (PyTorch `[memory]`) ----------------------------------------------------------
  for (let i = 0; i < c.memTs.length; i++)
    tb.addMemoryEvent(ns(col.memTs[i]), col.memDevice[i], col.memBytes[i], col.memAllocated[i], col.memReserved[i]);

  b.trace = tb.finish();
  return b.build(time);
}

/** Memory kinds from a Kineto copy name: `Memcpy HtoD (Pageable -> Device)` → Pageable, Device; nothing when absent. */
function copyMemoryKinds(name: string): { srcKind?: MemoryKind; dstKind?: MemoryKind } {
  const m = /\(\s*([A-Za-z][A-Za-z ]*?)\s*->\s*([A-Za-z][A-Za-z ]*?)\s*\)/.exec(name);
  return m ? { srcKind: memoryKindOf(m[1]!), dstKind: memoryKindOf(m[2]!) } : {};
}

/** Copy direction from Kineto/CUPTI names (`Memcpy HtoD (Pageable -> Device)`, `Memcpy DtoD`, `Memcpy PtoP`). */
function copyKind(name: string): DataMovementKind {
  if (/HtoD|Host\s*to\s*Device/i.test(name)) return DataMovementKind.HostToDevice;
  if (/DtoH|Device\s*to\s*Host/i.test(name)) return DataMovementKind.DeviceToHost;
  if (/PtoP|Peer/i.test(name)) return DataMovementKind.Peer;
  if (/DtoD|Device\s*to\s*Device/i.test(name)) return DataMovementKind.DeviceToDevice;
  return DataMovementKind.Other;
}

/**
 * Correlation id → CPU candidate (the last one wins). Kineto numbers correlations densely from a
 * small base, so they index a typed array; sparse or fractional ids fall back to a Map.
 */
class CorrelationIndex {
  private readonly ids = new GrowableArray();
  private readonly cands = new GrowableArray();
  private table: Int32Array | null = null;
  private base = 0;
  private map: Map<number, number> | null = null;

  add(corr: number, cand: number): void {
    if (Number.isFinite(corr)) {
      this.ids.push(corr);
      this.cands.push(cand);
    }
  }

  seal(): void {
    const n = this.ids.length;
    let lo = Infinity,
      hi = -Infinity,
      integral = true;
    for (let i = 0; i < n; i++) {
      const v = this.ids.get(i);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
      if (!Number.isInteger(v)) integral = false;
    }
    if (n > 0 && integral && hi - lo < 4 * n + 1024) {
      this.base = lo;
      this.table = new Int32Array(hi - lo + 1).fill(-1);
      for (let i = 0; i < n; i++) this.table[this.ids.get(i) - lo] = this.cands.get(i);
    } else {
      this.map = new Map();
      for (let i = 0; i < n; i++) this.map.set(this.ids.get(i), this.cands.get(i));
    }
  }

  get(corr: number): number | undefined {
    if (this.table) {
      const k = corr - this.base;
      const v = k >= 0 && k < this.table.length && Number.isInteger(k) ? this.table[k]! : -1;
      return v >= 0 ? v : undefined;
    }
    return this.map!.get(corr);
  }
}

/**
 * (int, int) → non-negative int, open addressing in typed arrays: the call tree's child lookup, where
 * a Map per parent (or a Map keyed by a double) would cost hundreds of thousands of small objects.
 */
class PairTable {
  /** Slots of [a, b, value] side by side (one cache line per probe, not three arrays' worth); value -1 = empty. */
  private slots = PairTable.empty(1 << 12);
  private capacity = 1 << 12;
  private size = 0;

  private static empty(capacity: number): Int32Array {
    const slots = new Int32Array(capacity * 4);
    for (let i = 2; i < slots.length; i += 4) slots[i] = -1;
    return slots;
  }

  /** Index in {@link slots} of (a, b)'s slot, or of the empty slot where it would go. */
  private slot(a: number, b: number): number {
    const mask = this.capacity - 1;
    const slots = this.slots;
    // Mixed so that the low bits (the slot) depend on every bit of both keys: ids that differ only in
    // their high bits (sequential parents, names) otherwise share slots and probe in long runs.
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h = (h ^ (h >>> 12)) & mask;
    for (;;) {
      const k = h << 2;
      if (slots[k + 2]! < 0 || (slots[k] === a && slots[k + 1] === b)) return k;
      h = (h + 1) & mask;
    }
  }

  /** The value of (a, b), or -1. */
  get(a: number, b: number): number {
    return this.slots[this.slot(a, b) + 2]!;
  }

  /** Sets (a, b) → v (v ≥ 0). */
  set(a: number, b: number, v: number): void {
    if (2 * (this.size + 1) > this.capacity) this.grow();
    const k = this.slot(a, b);
    if (this.slots[k + 2]! < 0) this.size++;
    this.slots[k] = a;
    this.slots[k + 1] = b;
    this.slots[k + 2] = v;
  }

  private grow(): void {
    const old = this.slots;
    this.capacity *= 2;
    this.slots = PairTable.empty(this.capacity);
    for (let i = 0; i < old.length; i += 4) {
      if (old[i + 2]! < 0) continue;
      const k = this.slot(old[i]!, old[i + 1]!);
      this.slots[k] = old[i]!;
      this.slots[k + 1] = old[i + 1]!;
      this.slots[k + 2] = old[i + 2]!;
    }
  }
}

/** A growable plain-number column (values up to 2^53). */
class GrowableArray {
  private data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const d = new Float64Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = v;
  }
  get(i: number): number {
    return this.data[i]!;
  }
  /** The values so far (a view: no second copy of a large column). */
  finish(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

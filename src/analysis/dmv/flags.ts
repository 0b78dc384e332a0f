import { DataMovementKind, MemoryKind } from '../model/trace';
import { dataMovementSites, type DataMovementSite } from '../stats/data-movement-sites';
import { formatBytes, formatCount, formatSeconds } from '../stats/format';
import { IntervalIndex } from '../timeline/flows-and-copies';
import { DmvCategory } from './categories';
import { CopyClass, dmvDeviceName, type DmvIndex } from './dmv-index';

/**
 * Data-movement anti-patterns found automatically, each on the line that issues the copies (thesis
 * ch. 7 finds them by eye in the clock and the timeline; the digest's §6.3 asks for them as checks):
 * pageable copies, H↔D copies alternating around short kernels (the GPT-2 study), storms of small
 * copies, copies that no compute overlaps, and unified-memory page-fault storms.
 */
export type FlagKind =
  'pageable-copy' | 'alternating-transfers' | 'small-copy-storm' | 'copy-without-overlap' | 'uvm-fault-storm';

export const FLAG_KINDS: readonly FlagKind[] = [
  'pageable-copy',
  'alternating-transfers',
  'small-copy-storm',
  'copy-without-overlap',
  'uvm-fault-storm',
];

export interface DmvFlag {
  kind: FlagKind;
  /** The issuing line, as recorded by the tool; null when no frame of the path has one. */
  file: string | null;
  line: number | null;
  /** The function at that line, or the launching function when there is no line. */
  name: string;
  /** Call-tree node of the site (for "open source" and the CodeLens). */
  node: number;
  /** Copies flagged (page faults for `uvm-fault-storm`). */
  count: number;
  /** Bytes of the flagged copies (0 for faults). */
  bytes: number;
  /** First and last flagged instant, ns from the origin. */
  start: number;
  end: number;
  /** The GPU involved, when one is. */
  device: number | null;
  /** One sentence for the Data Movement view and the CodeLens tooltip: what, how much, what to do. */
  message: string;
}

export interface FlagOptions {
  alternation?: {
    /**
     * Two copies belong to one ping-pong when the next starts at most this long after the previous
     * ends (default 250 ms): the GPT-2 study's exchanges came back to back, while a training loop that
     * copies a batch in and a result out once per step of a second or more is ordinary offloading.
     */
    maxGapNs?: number;
    /** Direction changes (H→D then D→H or back) in a chain before it is flagged (default 10). */
    minAlternations?: number;
    /**
     * The kernels between two copies are "short" when the GPU computes at most this multiple of the two
     * copies' own time between them (default 1): the data spends longer crossing the bus than being used.
     */
    maxComputeRatio?: number;
  };
  smallCopies?: {
    /** A copy is small below this size (default 64 kB: below it PCIe copies are latency-bound, ~10 µs each). */
    maxBytes?: number;
    /** Small copies from one line within `windowNs` that make a storm (default 100). */
    minCount?: number;
    /** Default 1 s. */
    windowNs?: number;
  };
  overlap?: {
    /** Copies shorter than this are not judged (default 10 µs: launch latency dominates them). */
    minCopyNs?: number;
    /** A copy is exposed when kernels on its GPU cover less than this share of it (default 0.1). */
    minOverlapShare?: number;
    /** A line is flagged when its exposed copies take at least this long in all (default 1 ms). */
    minExposedNs?: number;
  };
  faults?: {
    /**
     * Faults on one device within `windowNs` that make a storm (default 1,000: at a few µs of service
     * per fault group, a thousand a second already costs milliseconds of stalled kernels).
     */
    minFaults?: number;
    /** Default 1 s. */
    windowNs?: number;
  };
}

const DEFAULTS = {
  alternation: { maxGapNs: 250e6, minAlternations: 10, maxComputeRatio: 1 },
  smallCopies: { maxBytes: 64e3, minCount: 100, windowNs: 1e9 },
  overlap: { minCopyNs: 10e3, minOverlapShare: 0.1, minExposedNs: 1e6 },
  faults: { minFaults: 1000, windowNs: 1e9 },
};

/** Every flag of a trace, by kind (in FLAG_KINDS order), then most copies first. */
export function dataMovementFlags(index: DmvIndex, options: FlagOptions = {}): DmvFlag[] {
  const o = {
    alternation: { ...DEFAULTS.alternation, ...options.alternation },
    smallCopies: { ...DEFAULTS.smallCopies, ...options.smallCopies },
    overlap: { ...DEFAULTS.overlap, ...options.overlap },
    faults: { ...DEFAULTS.faults, ...options.faults },
  };
  const sites = new CopySites(index);
  const out = [
    ...pageableCopies(index, sites),
    ...alternatingTransfers(index, sites, o.alternation),
    ...smallCopyStorms(index, sites, o.smallCopies),
    ...copiesWithoutOverlap(index, sites, o.overlap),
    ...faultStorms(index, o.faults),
  ];
  return out.sort(
    (a, b) => FLAG_KINDS.indexOf(a.kind) - FLAG_KINDS.indexOf(b.kind) || b.count - a.count || a.start - b.start,
  );
}

/** Row → issuing site, from the Data Movement view's own grouping (a copy's call-tree node belongs to one site). */
class CopySites {
  readonly sites: DataMovementSite[];
  private readonly siteOfNode = new Map<number, number>();

  constructor(private readonly index: DmvIndex) {
    this.sites = dataMovementSites(index.trace.dataMovement, index.profile.tree, { maxPaths: Infinity }).sites;
    this.sites.forEach((s, k) => {
      for (const p of s.paths) this.siteOfNode.set(p.node, k);
    });
  }

  siteOf(row: number): number {
    return this.siteOfNode.get(this.index.trace.dataMovement.node[row]!) ?? -1;
  }

  /** One flag per site of the rows (rows without a site are grouped as one, unattributed). */
  flags(
    kind: FlagKind,
    rows: readonly number[],
    message: (count: number, bytes: number, rows: number[]) => string,
  ): DmvFlag[] {
    const dm = this.index.trace.dataMovement;
    const bySite = new Map<number, number[]>();
    for (const r of rows) {
      const s = this.siteOf(r);
      let l = bySite.get(s);
      if (!l) bySite.set(s, (l = []));
      l.push(r);
    }
    const out: DmvFlag[] = [];
    for (const [s, list] of bySite) {
      const site = this.sites[s];
      let bytes = 0,
        start = Infinity,
        end = -Infinity;
      const devices = new Set<number>();
      for (const r of list) {
        bytes += dm.bytes[r]! > 0 ? dm.bytes[r]! : 0;
        start = Math.min(start, dm.start[r]!);
        end = Math.max(end, dm.start[r]! + dm.duration[r]!);
        devices.add(this.index.copyDevice[r]!);
      }
      out.push({
        kind,
        file: site?.file ?? null,
        line: site?.line ?? null,
        name: site?.name ?? '(unattributed copies)',
        node: site?.node ?? -1,
        count: list.length,
        bytes,
        start,
        end,
        device: devices.size === 1 && [...devices][0]! >= 0 ? [...devices][0]! : null,
        message: message(list.length, bytes, list),
      });
    }
    return out;
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * Copies from or to pageable host memory: the driver stages them through a pinned bounce buffer, so
 * they reach a fraction of the link's bandwidth and cannot overlap with compute.
 */
function pageableCopies(index: DmvIndex, sites: CopySites): DmvFlag[] {
  const dm = index.trace.dataMovement;
  if (!dm.srcKind || !dm.dstKind) return [];
  const rows: number[] = [];
  for (let i = 0; i < dm.kind.length; i++)
    if (
      index.copyClass[i] === CopyClass.Copy &&
      (dm.srcKind[i] === MemoryKind.Pageable || dm.dstKind[i] === MemoryKind.Pageable)
    )
      rows.push(i);
  return sites.flags(
    'pageable-copy',
    rows,
    (n, bytes) =>
      `${plural(n, 'copy', 'copies')} (${formatBytes(bytes)}) to or from pageable host memory: pin the host buffer (cudaMallocHost, tensor.pin_memory()) to copy at full bandwidth and asynchronously`,
  );
}

/** Chains of H→D / D→H copies on one GPU that alternate with little compute between them. */
function alternatingTransfers(index: DmvIndex, sites: CopySites, o: typeof DEFAULTS.alternation): DmvFlag[] {
  const dm = index.trace.dataMovement;
  const byDevice = new Map<number, number[]>();
  for (let i = 0; i < dm.kind.length; i++) {
    const k = dm.kind[i];
    if (index.copyClass[i] !== CopyClass.Copy) continue;
    if (k !== DataMovementKind.HostToDevice && k !== DataMovementKind.DeviceToHost) continue;
    const d = index.copyDevice[i]!;
    let l = byDevice.get(d);
    if (!l) byDevice.set(d, (l = []));
    l.push(i);
  }
  const out: DmvFlag[] = [];
  for (const [device, rows] of byDevice) {
    rows.sort((a, b) => dm.start[a]! - dm.start[b]! || a - b);
    const lane = index.deviceLane.get(device);
    const computeBetween = (t0: number, t1: number) =>
      lane === undefined || t1 <= t0 ? 0 : index.deviceKernels.coveredOnLane(lane, t0, t1);
    let chain: number[] = [];
    let alternations = 0;
    const close = () => {
      if (alternations >= o.minAlternations) {
        const a = alternations;
        const s = dm.start[chain[0]!]!,
          e = chain.reduce((m, r) => Math.max(m, dm.start[r]! + dm.duration[r]!), -Infinity);
        out.push(
          ...sites.flags(
            'alternating-transfers',
            chain,
            (n, bytes) =>
              `${plural(n, 'copy', 'copies')} (${formatBytes(bytes)}) alternate between H→D and D→H ${plural(a, 'time')} around short kernels on ${dmvDeviceName(device)} from ${formatSeconds(s * 1e-9)} to ${formatSeconds(e * 1e-9)}: keep the data on the GPU between kernels (cache it, or move the work that needs it there)`,
          ),
        );
      }
      chain = [];
      alternations = 0;
    };
    for (const r of rows) {
      const p = chain[chain.length - 1];
      if (p !== undefined) {
        const pEnd = dm.start[p]! + dm.duration[p]!;
        const gap = dm.start[r]! - pEnd;
        const copies = dm.duration[p]! + dm.duration[r]!;
        if (gap > o.maxGapNs || computeBetween(pEnd, dm.start[r]!) > o.maxComputeRatio * copies) close();
      }
      const q = chain[chain.length - 1];
      if (q !== undefined && dm.kind[q] !== dm.kind[r]) alternations++;
      chain.push(r);
    }
    close();
  }
  return out;
}

/** Many small copies from one line in a short time: each pays the full launch and link latency. */
function smallCopyStorms(index: DmvIndex, sites: CopySites, o: typeof DEFAULTS.smallCopies): DmvFlag[] {
  const dm = index.trace.dataMovement;
  const bySite = new Map<number, number[]>();
  for (let i = 0; i < dm.kind.length; i++) {
    if (index.copyClass[i] !== CopyClass.Copy || index.copyWithoutBytes[i] || !(dm.bytes[i]! < o.maxBytes)) continue;
    const s = sites.siteOf(i);
    let l = bySite.get(s);
    if (!l) bySite.set(s, (l = []));
    l.push(i);
  }
  const flagged: number[] = [];
  for (const rows of bySite.values()) {
    rows.sort((a, b) => dm.start[a]! - dm.start[b]! || a - b);
    const marked = new Uint8Array(rows.length);
    for (let lo = 0, hi = 0; hi < rows.length; hi++) {
      while (dm.start[rows[hi]!]! - dm.start[rows[lo]!]! > o.windowNs) lo++;
      if (hi - lo + 1 >= o.minCount) marked.fill(1, lo, hi + 1);
    }
    rows.forEach((r, k) => {
      if (marked[k]) flagged.push(r);
    });
  }
  return sites.flags(
    'small-copy-storm',
    flagged,
    (n, bytes) =>
      `${plural(n, 'copy', 'copies')} under ${formatBytes(o.maxBytes)} (${formatBytes(bytes)} in all), at least ${formatCount(o.minCount)} within ${formatSeconds(o.windowNs * 1e-9)}: batch them into fewer, larger copies`,
  );
}

/** Copies during which their GPU computes nothing: transfer time the program waits for. */
function copiesWithoutOverlap(index: DmvIndex, sites: CopySites, o: typeof DEFAULTS.overlap): DmvFlag[] {
  const dm = index.trace.dataMovement;
  const exposedBySite = new Map<number, { rows: number[]; time: number }>();
  for (let i = 0; i < dm.kind.length; i++) {
    const d = dm.duration[i]!;
    if (index.copyClass[i] !== CopyClass.Copy || d < o.minCopyNs) continue;
    const lane = index.deviceLane.get(index.copyDevice[i]!);
    const overlap = lane === undefined ? 0 : index.deviceKernels.coveredOnLane(lane, dm.start[i]!, dm.start[i]! + d);
    if (overlap >= o.minOverlapShare * d) continue;
    const s = sites.siteOf(i);
    let e = exposedBySite.get(s);
    if (!e) exposedBySite.set(s, (e = { rows: [], time: 0 }));
    e.rows.push(i);
    e.time += d - overlap;
  }
  const rows: number[] = [];
  for (const e of exposedBySite.values()) if (e.time >= o.minExposedNs) rows.push(...e.rows);
  return sites.flags('copy-without-overlap', rows, (n, bytes, list) => {
    const time = list.reduce((t, r) => t + dm.duration[r]!, 0);
    return `${plural(n, 'copy', 'copies')} (${formatBytes(bytes)}, ${formatSeconds(time * 1e-9)}) ran while their GPU computed nothing: issue them asynchronously (cudaMemcpyAsync from pinned memory, non_blocking=True) on a stream other than the kernels'`;
  });
}

/** Bursts of unified-memory page faults, charged to the kernel running on the faulting GPU (and its line). */
function faultStorms(index: DmvIndex, o: typeof DEFAULTS.faults): DmvFlag[] {
  const pf = index.trace.pageFaults;
  if (!pf) return [];
  const tree = index.profile.tree;
  const ev = index.trace.events;
  // Kernels per device, for "which kernel was running when the GPU faulted".
  const kernelIndex = new Map<number, { rows: number[]; index: IntervalIndex }>();
  const kernelsOf = (device: number) => {
    let k = kernelIndex.get(device);
    if (!k) {
      const rows: number[] = [];
      const { tracks, trackEventStart } = index.trace;
      tracks.forEach((t, ti) => {
        if (t.kind !== 'gpu-stream' || t.gpuDevice !== device) return;
        for (let r = trackEventStart[ti]!; r < trackEventStart[ti + 1]!; r++)
          if (index.category[r] === DmvCategory.GpuCompute) rows.push(r);
      });
      const s = Float64Array.from(rows, r => ev.start[r]!);
      const e = Float64Array.from(rows, r => ev.start[r]! + ev.duration[r]!);
      kernelIndex.set(device, (k = { rows, index: new IntervalIndex(s, e) }));
    }
    return k;
  };
  const siteOfNode = (node: number): number => {
    for (let n = node; n >= 0; n = tree.parent(n)) if (tree.file(n) !== null && tree.line(n) !== null) return n;
    return node;
  };
  // Sliding window per device over fault counts.
  const byDevice = new Map<number, number[]>();
  for (let i = 0; i < pf.start.length; i++) {
    let l = byDevice.get(pf.device[i]!);
    if (!l) byDevice.set(pf.device[i]!, (l = []));
    l.push(i);
  }
  const groups = new Map<string, DmvFlag>();
  for (const [device, rows] of byDevice) {
    const marked = new Uint8Array(rows.length);
    let sum = 0;
    for (let lo = 0, hi = 0; hi < rows.length; hi++) {
      sum += pf.count[rows[hi]!]!;
      while (pf.start[rows[hi]!]! - pf.start[rows[lo]!]! > o.windowNs) sum -= pf.count[rows[lo++]!]!;
      if (sum >= o.minFaults) marked.fill(1, lo, hi + 1);
    }
    rows.forEach((i, k) => {
      if (!marked[k]) return;
      let node = -1;
      if (device >= 0) {
        const ks = kernelsOf(device);
        const hit = ks.index.query(pf.start[i]!, pf.start[i]! + pf.duration[i]!)[0];
        if (hit !== undefined) node = siteOfNode(ev.node[ks.rows[hit]!]!);
      }
      const key = `${device}:${node}`;
      let f = groups.get(key);
      if (!f) {
        const sourced = node >= 0 && tree.file(node) !== null;
        groups.set(
          key,
          (f = {
            kind: 'uvm-fault-storm',
            file: sourced ? tree.file(node) : null,
            line: sourced ? tree.line(node) : null,
            name:
              node >= 0 ? tree.name(node) : device >= 0 ? `${dmvDeviceName(device)} page faults` : 'CPU page faults',
            node,
            count: 0,
            bytes: 0,
            start: pf.start[i]!,
            end: pf.start[i]!,
            device: device >= 0 ? device : null,
            message: '',
          }),
        );
      }
      f.count += pf.count[i]!;
      f.start = Math.min(f.start, pf.start[i]!);
      f.end = Math.max(f.end, pf.start[i]! + pf.duration[i]!);
    });
  }
  for (const f of groups.values())
    f.message = `${plural(f.count, 'unified-memory page fault')} ${f.device !== null ? `on ${dmvDeviceName(f.device)}` : 'on the CPU'}, at least ${formatCount(o.minFaults)} within ${formatSeconds(o.windowNs * 1e-9)}: prefetch the data (cudaMemPrefetchAsync) or advise the driver (cudaMemAdvise) instead of migrating it on demand`;
  return [...groups.values()];
}

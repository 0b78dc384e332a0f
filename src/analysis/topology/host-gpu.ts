import { emptyValues, TopologyBuilder, type Topology, type TopologyValues } from './topology';

/**
 * The third topology: a node's host and its GPUs (DMV's hardware view, thesis §7.4). Built from
 * Kineto's `deviceProperties` (or Nsight's TARGET_INFO_GPU, which the reader turns into the same
 * shape) and/or `nvidia-smi topo -m`. With the latter, GPUs hang under the NUMA node of their
 * affinity and GPU pairs are linked by their path type (`NV2`, `SYS`…); every GPU is linked to the
 * host by a link of kind `host` (nvidia-smi reports GPU–GPU and GPU–NIC paths, not the host's own).
 */

/** `nvidia-smi topo -m` as formats/nvidia-smi-topo.ts reads it: the paths between GPUs and NICs. */
export interface NvidiaSmiTopology {
  path: string;
  /** CUDA device ids of the GPU rows (`GPU3` → 3), in file order. */
  gpus: number[];
  /** NIC names (`mlx5_0`, or `NIC0` in newer versions), in file order. */
  nics: string[];
  /** Path type between devices, square over gpus then nics: `X`, `NV12`, `PIX`, `PXB`, `PHB`, `NODE`, `SYS`. */
  links: string[][];
  /** Per GPU (same order as gpus): its CPU affinity text (`0-19,40-59`) and NUMA node (-1 when N/A). */
  cpuAffinity: string[];
  numaAffinity: number[];
}

/** What the hardware view shows about a GPU besides its place in the topology. */
export interface GpuDeviceInfo {
  /** CUDA device id. */
  device: number;
  /** Its node in the topology. */
  node: number;
  name: string | null;
  /** Bytes of device memory. */
  totalGlobalMem: number | null;
  numSms: number | null;
  /** `7.0`. */
  computeCapability: string | null;
}

export interface HostGpuTopology {
  topology: Topology;
  /** The host's node (the root). */
  host: number;
  /** One per GPU, by device id. */
  gpus: GpuDeviceInfo[];
  /** Per topology link: the two device ids it joins (-1 for the host). */
  linkDevices: [number, number][];
}

/** Kind of the link between a GPU and the host (see the module comment). */
export const HOST_LINK = 'host';

export interface HostGpuInput {
  /** Kineto `deviceProperties` (any JSON: entries without an integer `id` are skipped). */
  deviceProperties?: unknown;
  topology?: NvidiaSmiTopology | null;
  /** Further device ids known from the trace (streams, copies). */
  devices?: readonly number[];
  /** Where it was read from, e.g. the trace's path. */
  source?: string;
}

export function hostGpuTopology(input: HostGpuInput): HostGpuTopology {
  const props = new Map<number, Record<string, unknown>>();
  if (Array.isArray(input.deviceProperties))
    for (const p of input.deviceProperties) {
      const id = p && typeof p === 'object' ? (p as Record<string, unknown>)['id'] : undefined;
      if (typeof id === 'number' && Number.isInteger(id) && id >= 0) props.set(id, p as Record<string, unknown>);
    }
  const topo = input.topology ?? null;
  const ids = [...new Set([...props.keys(), ...(topo?.gpus ?? []), ...(input.devices ?? [])])]
    .filter(d => d >= 0)
    .sort((a, b) => a - b);
  const b = new TopologyBuilder('host-gpu', input.source ?? topo?.path ?? 'deviceProperties');
  const host = b.node('host', 'host');
  const numaOf = new Map<number, number>();
  if (topo) topo.gpus.forEach((g, i) => numaOf.set(g, topo.numaAffinity[i]!));
  const numaNode = new Map<number, number>();
  for (const numa of [...new Set(numaOf.values())].filter(n => n >= 0).sort((x, y) => x - y))
    numaNode.set(numa, b.node('numa', `NUMA ${numa}`, host, numa));
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const gpus: GpuDeviceInfo[] = ids.map(d => {
    const p = props.get(d) ?? {};
    const node = b.node('gpu', `GPU ${d}`, numaNode.get(numaOf.get(d) ?? -1) ?? host, d);
    const major = num(p['computeMajor']),
      minor = num(p['computeMinor']);
    return {
      device: d,
      node,
      name: typeof p['name'] === 'string' ? p['name'] : null,
      totalGlobalMem: num(p['totalGlobalMem']),
      numSms: num(p['numSms']),
      computeCapability: major !== null ? `${major}.${minor ?? 0}` : null,
    };
  });
  const linkDevices: [number, number][] = [];
  for (const g of gpus) {
    b.link(host, g.node, HOST_LINK);
    linkDevices.push([-1, g.device]);
  }
  if (topo)
    for (let i = 0; i < topo.gpus.length; i++)
      for (let j = i + 1; j < topo.gpus.length; j++) {
        const a = gpus.find(g => g.device === topo.gpus[i]),
          c = gpus.find(g => g.device === topo.gpus[j]);
        const kind = topo.links[i]![j]!;
        if (!a || !c || kind === 'X') continue;
        b.link(a.node, c.node, kind);
        linkDevices.push([a.device, c.device]);
      }
  return { topology: b.build(), host, gpus, linkDevices };
}

/** What happened on the hardware in a window, for {@link hostGpuValues}. */
export interface HardwareUsage {
  /** Share of the window the host's CPU tracks were busy, in [0, 1]. */
  host: number;
  /** Share of the window a GPU was busy (copies or kernels), in [0, 1]; NaN when unknown. */
  gpu(device: number): number;
  /** Bytes copied between two devices (either direction; -1 for the host) in the window. */
  bytes(a: number, b: number): number;
}

/**
 * Utilisation (% per node, white → red in the hardware view; NUMA nodes have no value: NaN) and
 * traffic (bytes per link, and per node the bytes to and from it) of a host–GPU topology.
 */
export function hostGpuValues(
  t: HostGpuTopology,
  usage: HardwareUsage,
): { utilisation: TopologyValues; traffic: TopologyValues } {
  const utilisation = emptyValues(t.topology, 'utilisation', '%');
  const traffic = emptyValues(t.topology, 'bytes copied', 'bytes');
  utilisation.node.fill(NaN);
  utilisation.link.fill(NaN);
  utilisation.node[t.host] = 100 * usage.host;
  for (const g of t.gpus) utilisation.node[g.node] = 100 * usage.gpu(g.device);
  const nodeOf = new Map<number, number>([[-1, t.host], ...t.gpus.map(g => [g.device, g.node] as [number, number])]);
  t.linkDevices.forEach(([a, b], l) => {
    const bytes = usage.bytes(a, b);
    traffic.link[l] = bytes;
    traffic.node[nodeOf.get(a)!]! += bytes;
    traffic.node[nodeOf.get(b)!]! += bytes;
  });
  return { utilisation, traffic };
}

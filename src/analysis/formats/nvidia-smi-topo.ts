import { readBytes } from './io/file-input';
import type { NvidiaSmiTopology } from '../topology/host-gpu';
import { fromFileSystemError } from './io/fs-errors';
import { isAbortError, ProfileReadError, throwIfAborted, withoutBom, type ReadOptions } from './reader';

/**
 * `nvidia-smi topo -m`: the matrix of paths between a node's GPUs (and NICs), e.g.
 *
 * ```text
 *         GPU0    GPU1    mlx5_0  CPU Affinity    NUMA Affinity   GPU NUMA ID
 * GPU0     X      NV2     SYS     0-19,40-59      0               N/A
 * GPU1    NV2      X      SYS     20-39,60-79     1               N/A
 * mlx5_0  SYS     SYS      X
 *
 * Legend:
 *   X    = Self
 *   SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
 *   …
 *   NV#  = Connection traversing a bonded set of # NVLinks
 * ```
 *
 * Columns are tab-separated (runs of two or more spaces are accepted too, for pasted copies), with
 * the affinity columns after the device columns. DMV reads it for the link types of its
 * communication matrix and the host–GPU topology (thesis §7.3: "the interconnect type").
 */

/** Path types nvidia-smi prints (SOC is the older name of SYS). */
const LINK = /^(X|SYS|SOC|NODE|PHB|PXB|PIX|NV\d+)$/;

/** Reads a `nvidia-smi topo -m` output file; a file that is not one is a ProfileReadError naming the reason. */
export async function readNvidiaSmiTopology(path: string, options: ReadOptions = {}): Promise<NvidiaSmiTopology> {
  let bytes: Buffer;
  try {
    bytes = await readBytes(path, { signal: options.signal, maxBytes: 16 * 1024 * 1024 });
  } catch (e) {
    if (isAbortError(e) || e instanceof ProfileReadError) throw e;
    throw fromFileSystemError(e, path);
  }
  throwIfAborted(options.signal);
  return parseNvidiaSmiTopology(withoutBom(bytes.toString('utf8')), path);
}

/**
 * The topology for link types, or — when the file cannot be read as one — null and the reason as a
 * warning: the communication matrix is then shown without link types rather than not at all.
 */
export async function linkTypesOrWarning(
  path: string,
  options: ReadOptions = {},
): Promise<{ topology: NvidiaSmiTopology | null; warning: string | null }> {
  try {
    return { topology: await readNvidiaSmiTopology(path, options), warning: null };
  } catch (e) {
    if (!(e instanceof ProfileReadError)) throw e;
    return { topology: null, warning: e.message };
  }
}

/** Parses the text of `nvidia-smi topo -m` (ANSI colour codes, as printed to a terminal, are ignored). */
export function parseNvidiaSmiTopology(text: string, path: string): NvidiaSmiTopology {
  // eslint-disable-next-line no-control-regex
  const lines = text.replace(/\u001b\[[0-9;]*m/g, '').split(/\r?\n/);
  const split = (line: string) =>
    (line.includes('\t') ? line.split('\t') : line.split(/ {2,}/)).map(s => s.trim()).filter(Boolean);
  // The header lists the devices from GPU0 on; a row starts with a device and then a path type.
  const headerAt = lines.findIndex(l => {
    const t = split(l);
    return t[0] === 'GPU0' && !LINK.test(t[1] ?? 'X');
  });
  if (headerAt < 0) throw new ProfileReadError(path, 'not `nvidia-smi topo -m` output: no header line listing GPU0');
  const header = split(lines[headerAt]!);
  const deviceCols = header.findIndex(h => /affinity|numa/i.test(h));
  const devices = deviceCols < 0 ? header : header.slice(0, deviceCols);
  const extra = deviceCols < 0 ? [] : header.slice(deviceCols);
  if (!devices.length || devices[0] !== 'GPU0')
    throw new ProfileReadError(path, `line ${headerAt + 1}: the device columns must start with GPU0`);
  const rows = new Map<string, string[]>();
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    if (/^\s*(Legend|NIC Legend)\s*:/i.test(line)) break;
    const cells = split(line);
    const name = cells[0]!;
    if (!devices.includes(name))
      throw new ProfileReadError(path, `line ${i + 1}: "${name}" is not one of the columns (${devices.join(', ')})`);
    const links = cells.slice(1, 1 + devices.length);
    if (links.length < devices.length)
      throw new ProfileReadError(path, `line ${i + 1}: ${links.length} path types for ${devices.length} devices`);
    const bad = links.find(l => !LINK.test(l));
    if (bad !== undefined)
      throw new ProfileReadError(path, `line ${i + 1}: "${bad}" is not a path type (X, NV#, PIX, PXB, PHB, NODE, SYS)`);
    rows.set(name, [...links, ...cells.slice(1 + devices.length)]);
  }
  const missing = devices.filter(d => !rows.has(d));
  if (missing.length) throw new ProfileReadError(path, `no row for ${missing.join(', ')}`);
  const gpuNames = devices.filter(d => /^GPU\d+$/.test(d));
  const nics = devices.filter(d => !/^GPU\d+$/.test(d));
  const order = [...gpuNames, ...nics];
  const col = new Map(devices.map((d, i) => [d, i]));
  const links = order.map(a => order.map(b => rows.get(a)![col.get(b)!]!));
  const cpuAt = extra.findIndex(h => /cpu affinity/i.test(h)),
    numaAt = extra.findIndex(h => /^numa affinity/i.test(h));
  const affinity = (g: string, at: number) => (at >= 0 ? (rows.get(g)![devices.length + at] ?? '') : '');
  return {
    path,
    gpus: gpuNames.map(g => Number(g.slice(3))),
    nics,
    links,
    cpuAffinity: gpuNames.map(g => affinity(g, cpuAt)),
    numaAffinity: gpuNames.map(g => {
      const v = affinity(g, numaAt);
      return /^\d+$/.test(v) ? Number(v) : -1;
    }),
  };
}

/** The path type between two GPUs (`NV2`, `SYS`…), or null when either is not in the matrix. */
export function gpuLinkType(topo: NvidiaSmiTopology, a: number, b: number): string | null {
  const i = topo.gpus.indexOf(a),
    j = topo.gpus.indexOf(b);
  return i < 0 || j < 0 ? null : topo.links[i]![j]!;
}

/** What a path type means, from nvidia-smi's legend. */
export function linkTypeDescription(kind: string): string {
  if (/^NV\d+$/.test(kind)) return `a bonded set of ${kind.slice(2)} NVLinks`;
  switch (kind) {
    case 'X':
      return 'the device itself';
    case 'PIX':
      return 'PCIe through at most one bridge';
    case 'PXB':
      return 'PCIe through several bridges, not the host bridge';
    case 'PHB':
      return 'PCIe through a host bridge (the CPU)';
    case 'NODE':
      return 'PCIe and the interconnect between host bridges of one NUMA node';
    case 'SYS':
    case 'SOC':
      return 'PCIe and the SMP interconnect between NUMA nodes (QPI/UPI)';
    default:
      return kind;
  }
}

/**
 * `nvidia-smi topo -m` text for DGX-like machines, generated from their structure (for tests and
 * screenshots; no real output is copied):
 *
 * - `dgx-1`: 8 V100 in NVIDIA's hybrid cube-mesh. Two quads (GPU0–3 on socket 0, GPU4–7 on socket 1),
 *   all pairs inside a quad NVLinked, GPU i joined to GPU i+4; each GPU spends its 6 NVLinks as two
 *   single links and two bonded pairs (`NV1`/`NV2`). Two GPUs and one NIC share a PCIe switch (`PIX`),
 *   other devices of a socket meet at the host bridge (`PHB`, or `NODE` in the newer format), devices on
 *   different sockets cross the SMP interconnect (`SYS`).
 * - `dgx-station`: 4 V100 on one socket, every pair joined by two NVLinks (`NV2`), no NICs.
 */

export type DgxSystem = 'dgx-1' | 'dgx-station';

export interface DgxTopologyOptions {
  /** The newer format: `NODE` for paths through host bridges of one socket, NICs as `NIC0…` with a legend. Default false. */
  newer?: boolean;
}

interface Device {
  name: string;
  socket: number;
  /** PCIe switch; -1 when the device sits on the root complex. */
  pcieSwitch: number;
}

/** Number of bonded NVLinks between two GPUs (0 when none). */
function nvlinks(system: DgxSystem, a: number, b: number): number {
  if (system === 'dgx-station') return a === b ? 0 : 2;
  if (a === b) return 0;
  const qa = Math.floor(a / 4),
    qb = Math.floor(b / 4);
  if (qa !== qb) return Math.abs(a - b) === 4 ? 2 : 0;
  // Inside a quad (0 1 2 3): the diagonals 0–3 and 1–2 are bonded pairs, the sides single links.
  const i = a % 4,
    j = b % 4;
  return i + j === 3 ? 2 : 1;
}

/** The generated text, tab-separated as nvidia-smi prints it, with its legend. */
export function dgxTopologyText(system: DgxSystem, options: DgxTopologyOptions = {}): string {
  const newer = options.newer ?? false;
  const gpus = system === 'dgx-1' ? 8 : 4;
  const sockets = system === 'dgx-1' ? 2 : 1;
  const perSocket = gpus / sockets;
  const devices: Device[] = [];
  for (let g = 0; g < gpus; g++)
    devices.push({ name: `GPU${g}`, socket: Math.floor(g / perSocket), pcieSwitch: Math.floor(g / 2) });
  const nics = system === 'dgx-1' ? gpus / 2 : 0;
  for (let k = 0; k < nics; k++)
    devices.push({ name: newer ? `NIC${k}` : `mlx5_${k}`, socket: Math.floor((2 * k) / perSocket), pcieSwitch: k });
  const path = (a: number, b: number): string => {
    if (a === b) return ' X ';
    if (a < gpus && b < gpus) {
      const nv = nvlinks(system, a, b);
      if (nv) return `NV${nv}`;
    }
    const da = devices[a]!,
      db = devices[b]!;
    if (da.socket !== db.socket) return 'SYS';
    if (da.pcieSwitch === db.pcieSwitch) return 'PIX';
    return newer ? 'NODE' : 'PHB';
  };
  const coresPerSocket = 20;
  const threads = coresPerSocket * sockets;
  const affinity = (socket: number) =>
    `${socket * coresPerSocket}-${(socket + 1) * coresPerSocket - 1},${threads + socket * coresPerSocket}-${threads + (socket + 1) * coresPerSocket - 1}`;
  const header = ['', ...devices.map(d => d.name), 'CPU Affinity', 'NUMA Affinity', 'GPU NUMA ID'];
  const lines = [header.join('\t')];
  devices.forEach((d, a) => {
    const cells = [d.name, ...devices.map((_, b) => path(a, b))];
    if (a < gpus) cells.push(affinity(d.socket), String(d.socket), 'N/A');
    lines.push(cells.join('\t'));
  });
  lines.push(
    '',
    'Legend:',
    '',
    '  X    = Self',
    '  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)',
    '  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node',
    '  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)',
    '  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)',
    '  PIX  = Connection traversing at most a single PCIe bridge',
    '  NV#  = Connection traversing a bonded set of # NVLinks',
  );
  if (newer && nics) {
    lines.push('', 'NIC Legend:', '');
    for (let k = 0; k < nics; k++) lines.push(`  NIC${k}: mlx5_${k}`);
  }
  return lines.join('\n') + '\n';
}

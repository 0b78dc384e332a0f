/**
 * `lscpu -p` (util-linux): comment lines, the last naming the columns (`# CPU,Core,Socket,Node,,L1d,L1i,L2,L3`),
 * then one line per CPU with a logical id per column. Older versions print the caches as one
 * column `L1d:L1i:L2:L3` with colon-separated ids. `Node` is empty on machines without NUMA
 * support: they are one memory domain, NUMA node 0.
 */
import { forEachLine } from '../io/file-input';
import { ProfileReadError, type ReadOptions } from '../reader';
import type { MachineDescription, MachineResource } from '../../topology/machine';

const CACHE_DEPTH: Record<string, MachineResource['depth']> = { l1d: 'l1', l1: 'l1', l2: 'l2', l3: 'l3' };

/** The column names of an `lscpu -p` header comment, or null. */
export function lscpuColumns(line: string): string[] | null {
  const m = /^#\s*(CPU\b.*)$/i.exec(line.trim());
  if (!m || !m[1]!.includes(',')) return null;
  return m[1]!.split(',').flatMap(name => name.trim().split(':'));
}

export async function readLscpu(
  path: string,
  options: ReadOptions = {},
): Promise<MachineDescription & { warnings: string[] }> {
  let columns: string[] | null = null;
  const rows: number[][] = [];
  await forEachLine(
    path,
    (text, lineNo) => {
      if (!text.trim()) return;
      if (text.startsWith('#')) {
        columns = lscpuColumns(text) ?? columns;
        return;
      }
      if (!columns) throw new ProfileReadError(path, `line ${lineNo}: a CPU line before the "# CPU,…" header`);
      const cells = text.split(',').flatMap(c => c.split(':'));
      const row = cells.map(c => (c.trim() === '' ? -1 : Number(c)));
      if (!Number.isInteger(row[0]) || row[0]! < 0)
        throw new ProfileReadError(path, `line ${lineNo}: "${cells[0]}" is not a CPU id`);
      rows.push(row);
    },
    { signal: options.signal },
  );
  const names = (columns as string[] | null)?.map(n => n.toLowerCase());
  if (!names) throw new ProfileReadError(path, 'no "# CPU,Core,Socket,Node,…" header (is this lscpu -p output?)');
  if (!rows.length) throw new ProfileReadError(path, 'no CPU lines');
  const col = (name: string) => names.indexOf(name);
  const warnings: string[] = [];
  const cpus = rows.map(r => r[0]!);
  const socketCol = col('socket');
  const packageOf = (r: number[]) => (socketCol >= 0 ? (r[socketCol] ?? -1) : -1);
  const group = (column: number, depth: MachineResource['depth']): MachineResource[] => {
    const byId = new Map<number, MachineResource & { cpus: number[] }>();
    for (const r of rows) {
      const id = r[column] ?? -1;
      if (id < 0) continue;
      let res = byId.get(id);
      if (!res) byId.set(id, (res = { depth, osIndex: id, cpus: [], package: packageOf(r) }));
      res.cpus.push(r[0]!);
    }
    return [...byId.values()];
  };
  const resources: MachineResource[] = [];
  const nodeCol = col('node');
  const numa = nodeCol >= 0 ? group(nodeCol, 'numa') : [];
  if (numa.length) resources.push(...numa);
  else {
    warnings.push('no NUMA node ids (empty Node column): the machine is taken as one memory domain, NUMA 0');
    resources.push({ depth: 'numa', osIndex: 0, cpus, package: -1 });
  }
  names.forEach((name, k) => {
    const depth = CACHE_DEPTH[name];
    if (depth) resources.push(...group(k, depth));
  });
  return { name: '', source: path, cpus, resources, warnings };
}

/**
 * A machine topology file of any supported kind, told apart by content: MemAxes `hardware.xml`,
 * hwloc XML or `lscpu -p` text.
 */
import { readHeadBytes } from '../file-sample';
import { ProfileReadError, withoutBom, type ReadOptions } from '../reader';
import { buildMachineTopology, type MachineTopology } from '../../topology/machine';
import { lscpuColumns, readLscpu } from './lscpu';
import { readHwlocXml } from './hwloc-xml';
import { readMemaxesHardwareXml } from './memaxes-hardware-xml';

export type MachineFileKind = 'memaxes-hardware' | 'hwloc' | 'lscpu';

/** The kind of a topology file from its first bytes, or null. */
export function sniffMachineFile(head: string): MachineFileKind | null {
  const text = withoutBom(head).trimStart();
  if (text.startsWith('<')) {
    // The root element: the first tag that is not a declaration, comment or DOCTYPE.
    const root = /<([A-Za-z_][\w.-]*)/.exec(text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<![^>]*>/g, ''));
    if (root?.[1] === 'Hardware') return 'memaxes-hardware';
    if (root?.[1] === 'topology') return 'hwloc';
    return null;
  }
  return text.split('\n', 32).some(l => l.startsWith('#') && lscpuColumns(l)) ? 'lscpu' : null;
}

/** Reads a topology file and builds the machine tree; warnings of both steps are merged. */
export async function readMachineTopology(path: string, options: ReadOptions = {}): Promise<MachineTopology> {
  const head = readHeadBytes(path, 8192).toString('utf8');
  const kind = sniffMachineFile(head);
  if (!kind)
    throw new ProfileReadError(
      path,
      'not a machine topology (HPC Lens reads MemAxes hardware.xml, hwloc XML from lstopo --of xml, and lscpu -p)',
    );
  const read = { lscpu: readLscpu, hwloc: readHwlocXml, 'memaxes-hardware': readMemaxesHardwareXml }[kind];
  const description = await read(path, options);
  const machine = buildMachineTopology(description);
  machine.warnings.unshift(...description.warnings);
  return machine;
}

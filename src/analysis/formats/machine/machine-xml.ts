/**
 * The two XML machine descriptions, read through the project's streaming XML tokenizer (no DTD,
 * no entity expansion):
 *
 * - MemAxes `hardware.xml`: `<Hardware name>` › `<NUMA id size>` › `<Cache id="3|2|1" size>` › `<CPU id>`,
 *   where a cache's `id` is its level and a CPU's `id` the OS CPU id (MemAxes `hardware.cpp`).
 * - hwloc XML (`lstopo --of xml`, hwloc 1.x and 2.x): nested `<object type=…>` elements. hwloc 2
 *   names caches `L3Cache`… and hangs NUMA nodes off their package as memory children without
 *   PUs below them, so a resource's CPUs come from its `cpuset` when no PU is nested in it; hwloc 1
 *   writes `type="Cache" depth="N"` and puts NUMA nodes above the sockets.
 */
import { readChunks } from '../io/file-input';
import { isAbortError, ProfileReadError, type ReadOptions } from '../reader';
import { XmlTokenizer, type XmlAttributes, type XmlHandler } from '../xml/xml-tokenizer';
import type { MachineDescription, MachineResource } from '../../topology/machine';

type ResourceDepth = MachineResource['depth'];

interface OpenResource {
  depth: ResourceDepth;
  osIndex: number;
  bytes: number;
  cpus: number[];
  /** hwloc `cpuset`, for resources with no PU nested inside (hwloc 2 NUMA nodes). */
  cpuset: string;
  /** The package element enclosing it, -1 if none. */
  package: number;
}

/** Collects resources and PUs; the element rules differ per dialect. */
abstract class MachineHandler implements XmlHandler {
  readonly resources: OpenResource[] = [];
  readonly cpus: number[] = [];
  /** CPU id → the package element enclosing its PU. */
  readonly packageOfCpu = new Map<number, number>();
  name = '';
  /** Per open element: the resource it opened (-1 none) and the package it opened (-1 none). */
  protected readonly stack: { resource: number; package: number }[] = [];
  protected packages = 0;
  rootSeen = '';
  warnings: string[] = [];

  constructor(protected readonly fail: (reason: string) => never) {}

  abstract openTag(name: string, attributes: XmlAttributes): void;

  closeTag(): void {
    this.stack.pop();
  }

  protected currentPackage(): number {
    for (let k = this.stack.length - 1; k >= 0; k--) if (this.stack[k]!.package >= 0) return this.stack[k]!.package;
    return -1;
  }

  protected openResource(depth: ResourceDepth, osIndex: number, bytes: number, cpuset = ''): number {
    this.resources.push({ depth, osIndex, bytes, cpus: [], cpuset, package: this.currentPackage() });
    return this.resources.length - 1;
  }

  protected addCpu(cpu: number): void {
    this.cpus.push(cpu);
    const pkg = this.currentPackage();
    if (pkg >= 0) this.packageOfCpu.set(cpu, pkg);
    for (const e of this.stack) if (e.resource >= 0) this.resources[e.resource]!.cpus.push(cpu);
  }

  describe(source: string): MachineDescription {
    const known = new Set(this.cpus);
    const resources: MachineResource[] = this.resources.map(r => {
      const cpus = r.cpus.length ? r.cpus : cpusetMembers(r.cpuset).filter(c => known.has(c));
      const pkg = r.package >= 0 ? r.package : cpus.length ? (this.packageOfCpu.get(cpus[0]!) ?? -1) : -1;
      return { depth: r.depth, osIndex: r.osIndex, cpus, bytes: r.bytes, package: pkg };
    });
    return { name: this.name, source, cpus: this.cpus.slice(), resources };
  }
}

function intAttribute(attributes: XmlAttributes, name: string): number {
  const v = attributes.get(name);
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) ? n : -1;
}

/** MemAxes `hardware.xml`. */
class MemaxesHardwareHandler extends MachineHandler {
  openTag(name: string, attributes: XmlAttributes): void {
    if (!this.rootSeen) {
      this.rootSeen = name;
      if (name !== 'Hardware') this.fail(`the root element is <${name}>, not MemAxes' <Hardware>`);
      this.name = attributes.get('name') ?? '';
    }
    let resource = -1;
    if (name === 'NUMA')
      resource = this.openResource('numa', intAttribute(attributes, 'id'), intAttribute(attributes, 'size'));
    else if (name === 'Cache') {
      const level = intAttribute(attributes, 'id');
      if (level >= 1 && level <= 3)
        resource = this.openResource(`l${level}` as ResourceDepth, -1, intAttribute(attributes, 'size'));
      else this.warnings.push(`a <Cache id="${attributes.get('id') ?? ''}"> is not an L1, L2 or L3 cache; left out`);
    } else if (name === 'CPU') {
      const cpu = intAttribute(attributes, 'id');
      if (cpu < 0) this.fail(`a <CPU> without a numeric id`);
      this.stack.push({ resource: -1, package: -1 });
      this.addCpu(cpu);
      return;
    }
    this.stack.push({ resource, package: -1 });
  }
}

const HWLOC2_CACHE: Record<string, ResourceDepth> = { L1Cache: 'l1', L2Cache: 'l2', L3Cache: 'l3' };

/** hwloc XML, versions 1 and 2. */
class HwlocHandler extends MachineHandler {
  openTag(name: string, attributes: XmlAttributes): void {
    if (!this.rootSeen) {
      this.rootSeen = name;
      if (name !== 'topology') this.fail(`the root element is <${name}>, not hwloc's <topology>`);
    }
    if (name === 'info' && attributes.get('name') === 'HostName' && !this.name)
      this.name = attributes.get('value') ?? '';
    if (name !== 'object') {
      this.stack.push({ resource: -1, package: -1 });
      return;
    }
    const type = attributes.get('type') ?? '';
    const osIndex = intAttribute(attributes, 'os_index');
    const cpuset = attributes.get('cpuset') ?? '';
    let resource = -1;
    let pkg = -1;
    if (type === 'NUMANode' || type === 'Node')
      resource = this.openResource('numa', osIndex, intAttribute(attributes, 'local_memory'), cpuset);
    else if (type in HWLOC2_CACHE)
      resource = this.openResource(HWLOC2_CACHE[type]!, osIndex, intAttribute(attributes, 'cache_size'), cpuset);
    else if (type === 'Cache') {
      // hwloc 1: the level is `depth`; cache_type 2 is an instruction cache, which loads never hit.
      const level = intAttribute(attributes, 'depth');
      if (level >= 1 && level <= 3 && attributes.get('cache_type') !== '2')
        resource = this.openResource(
          `l${level}` as ResourceDepth,
          osIndex,
          intAttribute(attributes, 'cache_size'),
          cpuset,
        );
    } else if (type === 'Package' || type === 'Socket') pkg = osIndex >= 0 ? osIndex : this.packages;
    if (pkg >= 0) this.packages++;
    this.stack.push({ resource, package: pkg });
    if (type === 'PU') {
      if (osIndex < 0) this.fail('a PU object without an os_index');
      this.addCpu(osIndex);
    }
  }
}

/** CPU ids in an hwloc cpuset string: comma-separated 32-bit hex words, most significant first. */
export function cpusetMembers(cpuset: string): number[] {
  if (!cpuset) return [];
  const words = cpuset.split(',').reverse();
  const out: number[] = [];
  words.forEach((word, k) => {
    const v = parseInt(word.replace(/^0x/i, ''), 16);
    if (!Number.isFinite(v)) return;
    for (let bit = 0; bit < 32; bit++) if (Math.floor(v / 2 ** bit) % 2 === 1) out.push(32 * k + bit);
  });
  return out.sort((a, b) => a - b);
}

/** The XML machine descriptions: MemAxes `hardware.xml` and hwloc XML. */
export type MachineXmlDialect = 'memaxes-hardware' | 'hwloc';

/** Reads a MemAxes `hardware.xml` or an hwloc XML file (`lstopo --of xml`) into a machine description. */
export async function readMachineXml(
  path: string,
  dialect: MachineXmlDialect,
  options: ReadOptions = {},
): Promise<MachineDescription & { warnings: string[] }> {
  let tokenizer: XmlTokenizer | null = null;
  const fail = (reason: string): never => {
    throw new ProfileReadError(path, `line ${tokenizer!.line}: ${reason}`);
  };
  const handler = dialect === 'hwloc' ? new HwlocHandler(fail) : new MemaxesHardwareHandler(fail);
  tokenizer = new XmlTokenizer(handler);
  try {
    for await (const chunk of readChunks(path, { signal: options.signal })) tokenizer.write(chunk);
    tokenizer.end();
  } catch (e) {
    if (isAbortError(e) || e instanceof ProfileReadError) throw e;
    throw new ProfileReadError(path, `not well-formed XML (${(e as Error).message})`, { cause: e });
  }
  if (!handler.cpus.length) throw new ProfileReadError(path, 'the machine description lists no CPU');
  return { ...handler.describe(path), warnings: handler.warnings };
}

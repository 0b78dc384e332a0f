/**
 * Reading a machine description from XML through the project's streaming XML tokenizer (no DTD,
 * no entity expansion): the element handler base shared by MemAxes `hardware.xml`
 * (memaxes-hardware-xml.ts) and hwloc XML (hwloc-xml.ts), and the read loop.
 */
import { readChunks } from '../io/file-input';
import { isAbortError, ProfileReadError, type ReadOptions } from '../reader';
import { XmlTokenizer, type XmlAttributes, type XmlHandler } from '../xml/xml-tokenizer';
import type { MachineDescription, MachineResource } from '../../topology/machine';

export type ResourceDepth = MachineResource['depth'];

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
export abstract class MachineHandler implements XmlHandler {
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

export function intAttribute(attributes: XmlAttributes, name: string): number {
  const v = attributes.get(name);
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) ? n : -1;
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

/**
 * Streams an XML file through a machine handler (made with the `fail` it must use for errors,
 * which name the line) and returns the description.
 */
export async function readMachineXml(
  path: string,
  makeHandler: (fail: (reason: string) => never) => MachineHandler,
  options: ReadOptions = {},
): Promise<MachineDescription & { warnings: string[] }> {
  let tokenizer: XmlTokenizer | null = null;
  const handler = makeHandler(reason => {
    throw new ProfileReadError(path, `line ${tokenizer!.line}: ${reason}`);
  });
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

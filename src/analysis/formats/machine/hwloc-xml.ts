/**
 * hwloc XML (`lstopo --of xml`, hwloc 1.x and 2.x): nested `<object type=…>` elements. hwloc 2
 * names caches `L3Cache`… and hangs NUMA nodes off their package as memory children without PUs
 * below them, so a resource's CPUs come from its `cpuset` when no PU is nested in it; hwloc 1
 * writes `type="Cache" depth="N"` and puts NUMA nodes above the sockets.
 */
import type { ReadOptions } from '../reader';
import type { XmlAttributes } from '../xml/xml-tokenizer';
import type { MachineDescription } from '../../topology/machine';
import { intAttribute, MachineHandler, readMachineXml, type ResourceDepth } from './machine-xml';

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

/** Reads hwloc XML (`lstopo --of xml`). */
export function readHwlocXml(
  path: string,
  options: ReadOptions = {},
): Promise<MachineDescription & { warnings: string[] }> {
  return readMachineXml(path, fail => new HwlocHandler(fail), options);
}

/**
 * MemAxes `hardware.xml`: `<Hardware name>` › `<NUMA id size>` › `<Cache id="3|2|1" size>` › `<CPU id>`,
 * where a cache's `id` is its level and a CPU's `id` the OS CPU id (MemAxes `hardware.cpp`).
 */
import type { ReadOptions } from '../reader';
import type { XmlAttributes } from '../xml/xml-tokenizer';
import type { MachineDescription } from '../../topology/machine';
import { intAttribute, MachineHandler, readMachineXml, type ResourceDepth } from './machine-xml';

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

/** Reads a MemAxes `hardware.xml`. */
export function readMemaxesHardwareXml(
  path: string,
  options: ReadOptions = {},
): Promise<MachineDescription & { warnings: string[] }> {
  return readMachineXml(path, fail => new MemaxesHardwareHandler(fail), options);
}

/**
 * Writes memory samples and a machine as the files MemAxes reads — a run folder with
 * `data/samples.out` (MemAxes CSV, hexadecimal `time` and `dataSource`) and `hardware.xml` — so
 * tests can open the seed scenarios (src/analysis/memory/testing/synthetic-memory.ts) the way a
 * user does: by path, through the analysis service.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEVEL_L1, LEVEL_L2, LEVEL_L3, LEVEL_RAM } from '../../src/analysis/memory/model/data-source';
import { findAttribute, type MemorySamples } from '../../src/analysis/memory/model/memory-samples';
import type { MachineTopology } from '../../src/analysis/topology/machine';
import { childrenOf } from '../../src/analysis/topology/topology';

/** The PEBS data-source code MemAxes files hold for a level (0xB for a remote RAM load). */
function pebsCode(level: number, remote: boolean): number {
  if (level === LEVEL_L1) return 0x1;
  if (level === LEVEL_L2) return 0x3;
  if (level === LEVEL_L3) return 0x4;
  if (level === LEVEL_RAM) return remote ? 0xb : 0xa;
  return 0x0;
}

/** The samples as a MemAxes CSV (its 14 columns; attributes named like one of them fill it). */
export function memaxesCsv(samples: MemorySamples): string {
  const column = (name: string) => findAttribute(samples, name)?.values;
  const time = column('time');
  const zidx = column('zidx');
  const xidx = column('xidx');
  const rows = ['variable,source,line,time,iter,latency,dataSource,cpu,node,index,map3D,xidx,yidx,zidx'];
  for (let i = 0; i < samples.count; i++) {
    const t = time ? time[i]! : i;
    rows.push(
      [
        samples.variable.names[samples.variable.ids[i]!],
        samples.source.names[samples.source.ids[i]!],
        samples.line[i],
        Math.round(t).toString(16),
        1,
        samples.latency[i],
        pebsCode(samples.level[i]!, samples.remote[i] === 1).toString(16),
        samples.cpu[i],
        samples.node[i],
        i,
        zidx || xidx ? 1 : 0,
        xidx ? xidx[i] : 0,
        0,
        zidx ? zidx[i] : 0,
      ].join(','),
    );
  }
  return rows.join('\n') + '\n';
}

/** The machine as MemAxes' hardware.xml (NUMA › Cache 3 › Cache 2 › Cache 1 › CPU). */
export function hardwareXml(machine: MachineTopology): string {
  const t = machine.topology;
  const children = childrenOf(t);
  const out: string[] = [];
  const walk = (node: number, indent: string) => {
    const n = t.nodes[node]!;
    const open =
      n.kind === 'numa'
        ? `<NUMA id="${n.osIndex}" size="33475052">`
        : n.kind === 'l3' || n.kind === 'l2' || n.kind === 'l1'
          ? `<Cache id="${n.kind[1]}" size="${{ l3: 20971520, l2: 262144, l1: 32768 }[n.kind]}">`
          : n.kind === 'pu'
            ? `<CPU id="${n.osIndex}">`
            : null;
    const close = { numa: '</NUMA>', l3: '</Cache>', l2: '</Cache>', l1: '</Cache>', pu: '</CPU>' }[n.kind as 'numa'];
    if (open) out.push(indent + open);
    for (const c of children[node]!) walk(c, open ? indent + '  ' : indent);
    if (open) out.push(indent + close);
  };
  out.push(`<Hardware id="0" name="${t.nodes[0]!.label}">`);
  for (const root of t.nodes.keys()) if (t.nodes[root]!.parent < 0) walk(root, '  ');
  out.push('</Hardware>');
  return out.join('\n') + '\n';
}

/** Writes `<dir>/<name>/data/samples.out` and `<dir>/<name>/hardware.xml`; returns the run folder. */
export function writeMemaxesRun(
  dir: string,
  name: string,
  scenario: { samples: MemorySamples; machine: MachineTopology },
): string {
  const run = join(dir, name);
  mkdirSync(join(run, 'data'), { recursive: true });
  writeFileSync(join(run, 'data', 'samples.out'), memaxesCsv(scenario.samples));
  writeFileSync(join(run, 'hardware.xml'), hardwareXml(scenario.machine));
  return run;
}

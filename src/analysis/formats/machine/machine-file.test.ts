import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectReadError } from '../../../../test/support/read-errors';
import { tempFileWriter } from '../../../../test/support/temp-files';
import { REPO_ROOT, sharedPath, skipUnlessShared } from '../../../../test/support/shared-data';
import { machineCounts } from '../../topology/machine';
import { ancestorsOf } from '../../topology/topology';
import { readMachineTopology, sniffMachineFile } from './machine-file';
import { cpusetMembers } from './machine-xml';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/memory');
const { write } = tempFileWriter('machine');

const pathOf = (m: Awaited<ReturnType<typeof readMachineTopology>>, cpu: number) =>
  ancestorsOf(m.topology, m.puOfCpu.get(cpu)!).map(i => m.topology.nodes[i]!.label);

describe('machine topology files', () => {
  it('tell MemAxes hardware.xml, hwloc XML and lscpu -p apart by content', () => {
    assert.equal(sniffMachineFile('<Hardware id="0" name="msn">'), 'memaxes-hardware');
    assert.equal(
      sniffMachineFile('<?xml version="1.0"?>\n<!DOCTYPE topology SYSTEM "hwloc2.dtd">\n<topology version="2.0">'),
      'hwloc',
    );
    assert.equal(sniffMachineFile('# comment\n# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n0,0,0,0,,0,0,0,0\n'), 'lscpu');
    assert.equal(sniffMachineFile('<html>'), null);
    assert.equal(sniffMachineFile('cpu,latency\n'), null);
  });

  it('reads hwloc 2 XML written by lstopo (2 packages, NUMA nodes as memory children)', async () => {
    const m = await readMachineTopology(join(FIXTURES, 'hwloc2-2-packages.xml'));
    assert.deepEqual(machineCounts(m), { pu: 16, l1: 8, l2: 8, l3: 2, numa: 2 });
    assert.deepEqual(pathOf(m, 9), ['PU 9', 'L1 4', 'L2 4', 'L3 1', 'NUMA 1', 'Machine']);
    assert.deepEqual(
      m.topology.links.map(l => l.kind),
      ['cross-socket'],
    );
    assert.deepEqual(m.warnings, []);
  });

  it('reads hwloc 1 XML (type="Cache" with depth, NUMA nodes above sockets) into the same tree', async () => {
    const v1 = await readMachineTopology(join(FIXTURES, 'hwloc1-2-packages.xml'));
    const v2 = await readMachineTopology(join(FIXTURES, 'hwloc2-2-packages.xml'));
    assert.deepEqual(
      v1.topology.nodes.map(n => [n.kind, n.label, n.parent]),
      v2.topology.nodes.map(n => [n.kind, n.label, n.parent]),
    );
    assert.equal(v1.topology.links[0]!.kind, 'cross-socket');
  });

  it("reads this machine's own lstopo XML (L1i caches and PCI devices ignored)", async () => {
    const m = await readMachineTopology(join(FIXTURES, 'hwloc2-this-machine.xml'));
    assert.deepEqual(machineCounts(m), { pu: 2, l1: 2, l2: 2, l3: 1, numa: 1 });
    assert.equal(m.topology.nodes[0]!.label, 'vm');
    assert.deepEqual(pathOf(m, 1), ['PU 1', 'L1 1', 'L2 1', 'L3 0', 'NUMA 0', 'vm']);
  });

  it("reads this machine's lscpu -p", async () => {
    const m = await readMachineTopology(join(FIXTURES, 'lscpu-p.txt'));
    assert.deepEqual(machineCounts(m), { pu: 2, l1: 2, l2: 2, l3: 1, numa: 1 });
    assert.deepEqual(pathOf(m, 0), ['PU 0', 'L1 0', 'L2 0', 'L3 0', 'NUMA 0', 'Machine']);
  });

  it('reads the older lscpu -p cache column (L1d:L1i:L2:L3) and an empty Node column', async () => {
    const p = write(
      'lscpu-old.txt',
      '# CPU,Core,Socket,Node,L1d:L1i:L2:L3\n0,0,0,,0:0:0:0\n1,1,0,,1:1:1:0\n2,2,1,,2:2:2:1\n3,3,1,,3:3:3:1\n',
    );
    const m = await readMachineTopology(p);
    assert.deepEqual(machineCounts(m), { pu: 4, l1: 4, l2: 4, l3: 2, numa: 1 });
    assert.match(m.warnings.join('\n'), /one memory domain, NUMA 0/);
    assert.deepEqual(pathOf(m, 3), ['PU 3', 'L1 3', 'L2 3', 'L3 1', 'NUMA 0', 'Machine']);
  });

  it('reads lscpu -p of a 2-socket machine with NUMA ids and links the nodes across sockets', async () => {
    const p = write(
      'lscpu-2s.txt',
      '# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n0,0,0,0,,0,0,0,0\n1,1,1,1,,1,1,1,1\n2,0,0,0,,0,0,0,0\n3,1,1,1,,1,1,1,1\n',
    );
    const m = await readMachineTopology(p);
    assert.deepEqual(machineCounts(m), { pu: 4, l1: 2, l2: 2, l3: 2, numa: 2 });
    assert.deepEqual(pathOf(m, 3), ['PU 3', 'L1 1', 'L2 1', 'L3 1', 'NUMA 1', 'Machine']);
    assert.equal(m.topology.links[0]!.kind, 'cross-socket');
  });

  it('parses hwloc cpusets (32-bit words, most significant first)', () => {
    assert.deepEqual(cpusetMembers('0x00000003'), [0, 1]);
    assert.deepEqual(cpusetMembers('0x00000001,0x80000000'), [31, 32]);
    assert.deepEqual(cpusetMembers(''), []);
  });

  it('reject malformed XML with the line of the error', async () => {
    const p = write('broken.xml', '<Hardware name="x">\n  <NUMA id="0">\n    <CPU id="0">\n  </NUMA>\n</Hardware>\n');
    await expectReadError(readMachineTopology(p), p, /not well-formed XML .*line 4/);
  });

  it('reject a CPU without an id, naming the line', async () => {
    const p = write('noid.xml', '<Hardware name="x">\n  <NUMA id="0">\n    <CPU></CPU>\n  </NUMA>\n</Hardware>\n');
    await expectReadError(readMachineTopology(p), p, /line 3: a <CPU> without a numeric id/);
  });

  it('do not expand entities declared in a DTD', async () => {
    const p = write(
      'entity.xml',
      '<?xml version="1.0"?>\n<!DOCTYPE Hardware [<!ENTITY big "aaaaaaaaaa">]>\n<Hardware name="&big;"><NUMA id="0"><CPU id="0"/></NUMA></Hardware>\n',
    );
    await expectReadError(readMachineTopology(p), p, /not well-formed XML/);
  });

  it('reject files that are no topology', async () => {
    const p = write('other.txt', 'hello\n');
    await expectReadError(readMachineTopology(p), p, /not a machine topology/);
    const q = write('nocpu.xml', '<Hardware name="x"><NUMA id="0"/></Hardware>');
    await expectReadError(readMachineTopology(q), q, /lists no CPU/);
  });

  it(
    "reads MemAxes' LULESH hardware.xml: 2 NUMA nodes, 2 L3, 16 L2, 16 L1, 32 PUs",
    { skip: skipUnlessShared('data/pebs-memaxes/lulesh') },
    async () => {
      const m = await readMachineTopology(sharedPath('data/pebs-memaxes/lulesh/hardware.xml'));
      assert.deepEqual(machineCounts(m), { pu: 32, l1: 16, l2: 16, l3: 2, numa: 2 });
      assert.equal(m.topology.nodes[0]!.label, 'msn');
      // Hyperthread siblings share their core's L1: CPU 16 sits beside CPU 0, odd CPUs on socket 1.
      assert.deepEqual(pathOf(m, 16), ['PU 16', 'L1 0', 'L2 0', 'L3 0', 'NUMA 0', 'msn']);
      assert.deepEqual(pathOf(m, 31), ['PU 31', 'L1 15', 'L2 15', 'L3 1', 'NUMA 1', 'msn']);
      assert.deepEqual(
        m.topology.links.map(l => l.kind),
        ['cross-socket'],
      );
    },
  );
});

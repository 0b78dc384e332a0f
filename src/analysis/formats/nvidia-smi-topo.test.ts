import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  gpuLinkType,
  linkTypeDescription,
  linkTypesOrWarning,
  parseNvidiaSmiTopology,
  readNvidiaSmiTopology,
} from './nvidia-smi-topo';
import { ProfileReadError } from './reader';

// A DGX-like node as `nvidia-smi topo -m` prints it (tabs; a double tab before the last column, as recent versions do).
const DGX = [
  '\t\u001b[4mGPU0\tGPU1\tGPU2\tGPU3\tmlx5_0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\u001b[0m',
  'GPU0\t X \tNV1\tNV1\tNV2\tNODE\t0-19,40-59\t0\t\tN/A',
  'GPU1\tNV1\t X \tNV2\tNV1\tNODE\t0-19,40-59\t0\t\tN/A',
  'GPU2\tNV1\tNV2\t X \tNV2\tSYS\t20-39,60-79\t1\t\tN/A',
  'GPU3\tNV2\tNV1\tNV2\t X \tSYS\t20-39,60-79\t1\t\tN/A',
  'mlx5_0\tNODE\tNODE\tSYS\tSYS\t X ',
  '',
  'Legend:',
  '',
  '  X    = Self',
  '  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)',
  '  NV#  = Connection traversing a bonded set of # NVLinks',
].join('\n');

describe('nvidia-smi topo -m', () => {
  it('reads GPU and NIC paths, CPU and NUMA affinity', () => {
    const t = parseNvidiaSmiTopology(DGX, 'topo.txt');
    assert.deepEqual(t.gpus, [0, 1, 2, 3]);
    assert.deepEqual(t.nics, ['mlx5_0']);
    assert.equal(gpuLinkType(t, 0, 3), 'NV2');
    assert.equal(gpuLinkType(t, 2, 1), 'NV2');
    assert.equal(gpuLinkType(t, 1, 1), 'X');
    assert.equal(gpuLinkType(t, 0, 9), null);
    assert.equal(t.links[4]![2], 'SYS');
    assert.deepEqual(t.cpuAffinity, ['0-19,40-59', '0-19,40-59', '20-39,60-79', '20-39,60-79']);
    assert.deepEqual(t.numaAffinity, [0, 0, 1, 1]);
    assert.equal(linkTypeDescription('NV2'), 'a bonded set of 2 NVLinks');
  });

  it('accepts space-aligned copies and a single GPU', () => {
    const t = parseNvidiaSmiTopology(
      '        GPU0    CPU Affinity    NUMA Affinity\nGPU0     X      0-63            N/A\n',
      'one.txt',
    );
    assert.deepEqual(t.gpus, [0]);
    assert.deepEqual(t.numaAffinity, [-1]);
  });

  it('rejects what it cannot read, naming the file and the line', async () => {
    const bad = (text: string, reason: RegExp) =>
      assert.throws(
        () => parseNvidiaSmiTopology(text, 'bad.txt'),
        (e: unknown) => e instanceof ProfileReadError && e.path === 'bad.txt' && reason.test(e.reason),
      );
    bad('hello world', /no header line listing GPU0/);
    bad('\tGPU0\tGPU1\nGPU0\t X \tNV1\nGPU1\tNV1\t X \nGPU7\tNV1\t X ', /line 4: "GPU7" is not one of the columns/);
    bad('\tGPU0\tGPU1\nGPU0\t X \tFAST\nGPU1\tNV1\t X ', /line 2: "FAST" is not a path type/);
    bad('\tGPU0\tGPU1\nGPU0\t X \tNV1', /no row for GPU1/);
    const path = join(mkdtempSync(join(tmpdir(), 'topo-')), 'topo.txt');
    writeFileSync(path, DGX);
    assert.deepEqual((await readNvidiaSmiTopology(path)).gpus, [0, 1, 2, 3]);
    assert.deepEqual((await linkTypesOrWarning(path)).warning, null);
    const broken = join(mkdtempSync(join(tmpdir(), 'topo-')), 'broken.txt');
    writeFileSync(broken, 'GPU topology unavailable\n');
    const r = await linkTypesOrWarning(broken);
    assert.equal(r.topology, null);
    assert.equal(r.warning, `${broken}: not \`nvidia-smi topo -m\` output: no header line listing GPU0`);
    const missing = await linkTypesOrWarning(join(tmpdir(), 'no-such-topo.txt'));
    assert.match(missing.warning!, /no-such-topo\.txt/);
  });
});

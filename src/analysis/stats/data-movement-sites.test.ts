import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallTreeBuilder, NodeKind, type CallTree } from '../model/call-tree';
import { DataMovementKind, type DataMovementColumns } from '../model/trace';
import { dataMovementAnnotation, dataMovementLinesByFile, dataMovementSites } from './data-movement-sites';

interface Copy {
  kind: DataMovementKind;
  bytes: number;
  durationNs: number;
  node: number;
  sourceNode: number;
  src?: number;
  dst?: number;
}

function table(copies: Copy[]): DataMovementColumns {
  const n = copies.length;
  const col = <T extends Int32Array | Float64Array | Uint8Array>(
    make: new (n: number) => T,
    get: (c: Copy, i: number) => number,
  ): T => {
    const a = new make(n);
    copies.forEach((c, i) => {
      a[i] = get(c, i);
    });
    return a;
  };
  return {
    kind: col(Uint8Array, c => c.kind),
    bytes: col(Float64Array, c => c.bytes),
    srcDevice: col(Int32Array, c => c.src ?? (c.kind === DataMovementKind.HostToDevice ? -1 : 0)),
    dstDevice: col(Int32Array, c => c.dst ?? (c.kind === DataMovementKind.DeviceToHost ? -1 : 0)),
    start: col(Float64Array, (_, i) => i * 1000),
    duration: col(Float64Array, c => c.durationNs),
    track: col(Int32Array, () => 0),
    event: col(Int32Array, () => -1),
    node: col(Int32Array, c => c.node),
    sourceNode: col(Int32Array, c => c.sourceNode),
  };
}

/**
 * run (offload.c:10) → stage_in (offload.c:20) → cudaMemcpyAsync → Memcpy HtoD   (nodes 0 1 2 3)
 *                    → stage_in (offload.c:20) via another caller line              (nodes 4 5 6 7)
 *                    → halos (offload.c:30) → cudaMemcpyAsync → Memcpy DtoH        (nodes 8 9 10)
 * no locations: step → cudaMemcpyAsync → Memcpy DtoD (11 12 13), again under step2 → step (14 15 16 17)
 */
function tree(): CallTree {
  const b = new CallTreeBuilder();
  const F = NodeKind.Function;
  const run = b.add(-1, 'offload_run', F, { file: '/src/offload.c', line: 10 });
  const stage = b.add(run, 'stage_in', F, { file: '/src/offload.c', line: 20 });
  const api = b.add(stage, 'cudaMemcpyAsync', F);
  b.add(api, 'Memcpy HtoD', F);
  const run2 = b.add(-1, 'offload_run', F, { file: '/src/offload.c', line: 11 });
  const stage2 = b.add(run2, 'stage_in', F, { file: '/src/offload.c', line: 20 });
  const api2 = b.add(stage2, 'cudaMemcpyAsync', F);
  b.add(api2, 'Memcpy HtoD', F);
  const halos = b.add(run, 'halos', F, { file: '/src/offload.c', line: 30 });
  const api3 = b.add(halos, 'cudaMemcpyAsync', F);
  b.add(api3, 'Memcpy DtoH', F);
  const step = b.add(-1, 'step', F);
  const api4 = b.add(step, 'cudaMemcpyAsync', F);
  b.add(api4, 'Memcpy DtoD', F);
  const outer = b.add(-1, 'step2', F);
  const step2 = b.add(outer, 'step', F);
  const api5 = b.add(step2, 'cudaMemcpyAsync', F);
  b.add(api5, 'Memcpy DtoD', F);
  return b.finish();
}

const { HostToDevice: H2D, DeviceToHost: D2H, DeviceToDevice: D2D, Memset } = DataMovementKind;

describe('dataMovementSites', () => {
  it('groups copies by source line and direction, with bandwidth, sizes, devices and issuing paths', () => {
    const t = tree();
    const dm = table([
      { kind: H2D, bytes: 4e6, durationNs: 400_000, node: 3, sourceNode: 1 },
      { kind: H2D, bytes: 4e6, durationNs: 400_000, node: 3, sourceNode: 1 },
      { kind: H2D, bytes: 1e6, durationNs: 200_000, node: 7, sourceNode: 5, dst: 1 },
      { kind: Memset, bytes: 2e6, durationNs: 10_000, node: 2, sourceNode: 1 },
      { kind: D2H, bytes: 8000, durationNs: 4000, node: 10, sourceNode: 8 },
      { kind: D2H, bytes: 8000, durationNs: 4000, node: 10, sourceNode: 8 },
    ]);
    const { sites, unattributed } = dataMovementSites(dm, t);
    assert.deepEqual(unattributed, { count: 0, bytes: 0 });
    assert.deepEqual(
      sites.map(s => [s.file, s.line, s.name]),
      [
        ['/src/offload.c', 20, 'stage_in'],
        ['/src/offload.c', 30, 'halos'],
      ],
    );
    const stage = sites[0]!;
    // Nodes 1 and 5 are two calling contexts of the same line: one site.
    assert.deepEqual(stage.total, {
      count: 4,
      bytes: 11e6,
      durationNs: 1_010_000,
      bandwidth: (11e6 / 1_010_000) * 1e9,
      minBytes: 1e6,
      maxBytes: 4e6,
      devices: [-1, 0, 1],
    });
    assert.deepEqual(
      stage.directions.map(d => [d.label, d.count, d.bytes, d.durationNs, d.minBytes, d.maxBytes, d.devices]),
      [
        ['H→D', 3, 9e6, 1_000_000, 1e6, 4e6, [-1, 0, 1]],
        ['memset', 1, 2e6, 10_000, 2e6, 2e6, [0]],
      ],
    );
    assert.equal(stage.directions[0]!.bandwidth, 9e9);
    assert.deepEqual(
      stage.paths.map(p => [p.node, p.count, p.bytes]),
      [
        [3, 2, 8e6],
        [2, 1, 2e6],
        [7, 1, 1e6],
      ],
    );
    assert.deepEqual(
      sites[1]!.directions.map(d => [d.label, d.count, d.bytes, d.bandwidth]),
      [['D→H', 2, 16000, 2e9]],
    );
    assert.deepEqual(
      dataMovementSites(dm, t, { maxPaths: 1 }).sites[0]!.paths.map(p => p.node),
      [3],
    );
  });

  it('falls back to the launching function, by name, skipping runtime calls, when no frame has a location', () => {
    const t = tree();
    const dm = table([
      { kind: D2D, bytes: 100, durationNs: 0, node: 13, sourceNode: -1 },
      { kind: D2D, bytes: 300, durationNs: 0, node: 17, sourceNode: -1 },
      { kind: D2D, bytes: 50, durationNs: 10, node: -1, sourceNode: -1 },
    ]);
    const { sites, unattributed } = dataMovementSites(dm, t);
    assert.equal(sites.length, 1);
    const s = sites[0]!;
    assert.deepEqual([s.file, s.line, s.name, s.total.count, s.total.bytes], [null, null, 'step', 2, 400]);
    assert.equal(s.total.bandwidth, null, 'no recorded time: no bandwidth');
    assert.deepEqual(
      s.paths.map(p => p.node),
      [17, 13],
    );
    assert.deepEqual(unattributed, { count: 1, bytes: 50 });
    assert.deepEqual(dataMovementLinesByFile(sites), new Map(), 'a function site marks no line');
  });

  it('returns nothing for an empty table', () => {
    assert.deepEqual(dataMovementSites(table([]), tree()), { sites: [], unattributed: { count: 0, bytes: 0 } });
  });

  it('lists marked lines per file in line order and writes the after-line text', () => {
    const t = tree();
    const { sites } = dataMovementSites(
      table([
        { kind: D2H, bytes: 8000, durationNs: 4000, node: 10, sourceNode: 8 },
        { kind: H2D, bytes: 96e6, durationNs: 3.1e6, node: 3, sourceNode: 1 },
        { kind: Memset, bytes: 1e6, durationNs: 0, node: 2, sourceNode: 1 },
      ]),
      t,
    );
    const lines = dataMovementLinesByFile(sites).get('/src/offload.c')!;
    assert.deepEqual(
      lines.map(s => s.line),
      [20, 30],
    );
    assert.equal(dataMovementAnnotation(lines[0]!), '⇅ H→D 96 MB · 1× · 3.1 ms · 31 GB/s  │  memset 1 MB · 1× · 0 s');
    assert.equal(dataMovementAnnotation(lines[1]!), '⇅ D→H 8 kB · 1× · 4 µs · 2 GB/s');
  });

  it('charges a million copies correctly', () => {
    const t = tree();
    const n = 1_000_000;
    const copies: Copy[] = [];
    for (let i = 0; i < n; i++) {
      copies.push(
        i % 4 === 0
          ? { kind: D2H, bytes: 8, durationNs: 1, node: 10, sourceNode: 8 }
          : { kind: H2D, bytes: 16, durationNs: 2, node: i % 2 ? 3 : 7, sourceNode: i % 2 ? 1 : 5 },
      );
    }
    const { sites } = dataMovementSites(table(copies), t);
    assert.deepEqual(
      sites.map(s => [s.line, s.total.count, s.total.bytes, s.total.durationNs]),
      [
        [20, 750_000, 12e6, 1.5e6],
        [30, 250_000, 2e6, 250_000],
      ],
    );
    assert.deepEqual(
      sites[0]!.paths.map(p => [p.node, p.count]),
      [
        [3, 500_000],
        [7, 250_000],
      ],
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNvidiaSmiTopology } from '../formats/nvidia-smi-topo';
import { ProfileReadError } from '../formats/reader';
import { DmvIndex, HOST, UNKNOWN_DEVICE } from './dmv-index';
import { communicationMatrix, matrixCellCopies, matrixCellSites } from './matrix';
import { KinetoTraceWriter } from './testing/kineto-writer';
import { readGenerated } from './testing/read-trace';

/** Two GPUs: H→D to each, D→H from 1, a peer copy 0→1 (Kineto `Memcpy PtoP` from device 0), a memset. */
function twoGpus(): KinetoTraceWriter {
  const w = new KinetoTraceWriter();
  w.device(0);
  w.device(1);
  w.python('train.py(10): load', 0, 100);
  w.launch('cudaMemcpyAsync', 1, 1, { kind: 'memcpy', direction: 'HtoD', ts: 2, dur: 10, bytes: 1000, device: 0 });
  w.launch('cudaMemcpyAsync', 3, 1, { kind: 'memcpy', direction: 'HtoD', ts: 20, dur: 10, bytes: 3000, device: 1 });
  w.python('train.py(20): save', 100, 100);
  w.launch('cudaMemcpyAsync', 101, 1, { kind: 'memcpy', direction: 'DtoH', ts: 110, dur: 20, bytes: 500, device: 1 });
  w.launch('cudaMemsetAsync', 102, 1, { kind: 'memset', ts: 140, dur: 5, bytes: 64, device: 0 });
  return w;
}

describe('communication matrix', () => {
  it('places copies by source and destination, with count, bytes, bandwidth and issuing lines', async () => {
    const ix = new DmvIndex(await readGenerated(twoGpus()));
    const m = communicationMatrix(ix);
    assert.deepEqual(m.names, ['host', 'GPU 0', 'GPU 1']);
    const cell = (s: number, d: number) => m.cells[m.devices.indexOf(s) * m.devices.length + m.devices.indexOf(d)]!;
    assert.deepEqual([cell(HOST, 0).count, cell(HOST, 0).bytes], [1, 1000]);
    assert.deepEqual([cell(HOST, 1).count, cell(HOST, 1).bytes], [1, 3000]);
    assert.deepEqual([cell(1, HOST).count, cell(1, HOST).bytes], [1, 500]);
    assert.equal(cell(0, 0).bytes, 0, 'memsets are not transfers');
    assert.equal(cell(HOST, 1).bandwidth, 3000 / 10e-6);
    assert.equal(m.maxBytes, 3000);
    assert.equal(cell(HOST, 0).linkType, null);
    const sites = matrixCellSites(ix, 1, HOST);
    assert.deepEqual(
      sites.map(s => `${s.file}:${s.line}`),
      ['train.py:20'],
    );
    assert.equal(matrixCellCopies(ix, HOST, 1).length, 1);
  });

  it('counts a window’s copies pro rata of their time inside it', async () => {
    const ix = new DmvIndex(await readGenerated(twoGpus()));
    // Window [25, 120) µs from the origin: half of the 3000 B copy [20, 30), half of the 500 B one [110, 130).
    const m = communicationMatrix(ix, { window: { start: 25_000, end: 120_000 } });
    const cell = (s: number, d: number) => m.cells[m.devices.indexOf(s) * m.devices.length + m.devices.indexOf(d)]!;
    assert.equal(cell(HOST, 1).bytes, 1500);
    assert.equal(cell(1, HOST).bytes, 250);
    assert.equal(cell(HOST, 0).count, 0);
  });

  it('takes GPU–GPU link types from nvidia-smi topo -m; an unreadable file leaves them out with a warning', async () => {
    const ix = new DmvIndex(await readGenerated(twoGpus()));
    const topo = parseNvidiaSmiTopology('\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \n', 'topo.txt');
    const m = communicationMatrix(ix, { topology: topo });
    assert.equal(m.cells[1 * 3 + 2]!.linkType, 'NV4');
    assert.equal(m.cells[0 * 3 + 1]!.linkType, null, 'the host link is not in nvidia-smi’s matrix');
    assert.deepEqual(m.warnings, []);
    let reason = '';
    try {
      parseNvidiaSmiTopology('not a topology', 'broken.txt');
    } catch (e) {
      reason = (e as ProfileReadError).message;
    }
    const plain = communicationMatrix(ix, { topology: null, topologyError: reason });
    assert.ok(plain.cells.every(c => c.linkType === null));
    assert.deepEqual(plain.warnings, [`link types are not shown: ${reason}`]);
    assert.match(reason, /^broken\.txt: /);
  });

  it('counts copies without bytes or devices as unknown', async () => {
    const w = new KinetoTraceWriter();
    w.op('step', 0, 100);
    // Direction unknown (no HtoD/DtoH in the name), no bytes, on a stream of an unnamed device.
    w.raw({
      ph: 'X',
      cat: 'gpu_memcpy',
      name: 'Memcpy',
      pid: 'gpu?',
      tid: 'stream 3',
      ts: 10,
      dur: 5,
      args: { stream: 3 },
    });
    // Host to a device the trace does not name, with bytes.
    w.raw({
      ph: 'X',
      cat: 'gpu_memcpy',
      name: 'Memcpy HtoD (Pinned -> Device)',
      pid: 'gpu?',
      tid: 'stream 3',
      ts: 20,
      dur: 5,
      args: { bytes: 100 },
    });
    // Known devices, no size.
    w.gpu({ kind: 'memcpy', direction: 'HtoD', ts: 30, dur: 5, device: 0 });
    // A memset on an unnamed device is no transfer: it adds no unknown cell of its own.
    w.raw({
      ph: 'X',
      cat: 'gpu_memset',
      name: 'Memset',
      pid: 'gpu?',
      tid: 'stream 3',
      ts: 40,
      dur: 5,
      args: { bytes: 8 },
    });
    const ix = new DmvIndex(await readGenerated(w));
    const m = communicationMatrix(ix);
    assert.deepEqual(m.names, ['host', 'GPU 0', 'unknown']);
    const cell = (s: number, d: number) => m.cells[m.devices.indexOf(s) * m.devices.length + m.devices.indexOf(d)]!;
    assert.deepEqual([cell(UNKNOWN_DEVICE, UNKNOWN_DEVICE).count, cell(UNKNOWN_DEVICE, UNKNOWN_DEVICE).bytes], [1, 0]);
    assert.deepEqual([cell(HOST, UNKNOWN_DEVICE).count, cell(HOST, UNKNOWN_DEVICE).bytes], [1, 100]);
    assert.deepEqual([cell(HOST, 0).count, cell(HOST, 0).withoutBytes], [1, 1]);
    assert.deepEqual(m.unknown, { withoutDevices: 2, withoutBytes: 2, bytes: 100 });
  });

  it('adds no unknown row for memsets on an unnamed device (they are not transfers)', async () => {
    const w = new KinetoTraceWriter();
    w.gpu({ kind: 'memcpy', direction: 'HtoD', ts: 0, dur: 5, bytes: 10, device: 0 });
    w.raw({
      ph: 'X',
      cat: 'gpu_memset',
      name: 'Memset',
      pid: 'gpu?',
      tid: 'stream 3',
      ts: 10,
      dur: 5,
      args: { bytes: 8 },
    });
    const m = communicationMatrix(new DmvIndex(await readGenerated(w)));
    assert.deepEqual(m.names, ['host', 'GPU 0']);
    assert.deepEqual(m.unknown, { withoutDevices: 0, withoutBytes: 0, bytes: 0 });
  });
});

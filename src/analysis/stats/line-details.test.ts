import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileFromOutline } from '../model/test-profiles';
import { DataMovementKind, type DataMovementColumns } from '../model/trace';
import {
  dataMovementFrom,
  heatAnnotation,
  heatLevel,
  nodeSetByContext,
  nodeSetValues,
  outermostNodes,
  spreadOf,
} from './line-details';

// Node ids in outline order: 0 main, 1 a.c:5, 2 solve, 3 a.c:5 (a recursive frame on the same line), 4 a.c:9.
const outline = `
main a.c:1 = 1 1
  a.c:5 a.c:5 = 2 6
    solve a.c:20 = 1 1
      a.c:5 a.c:5 = 3 1
  a.c:9 a.c:9 = 4 4`;

describe('line details', () => {
  it('counts a line nested in itself once in its inclusive value and every node in its exclusive value', () => {
    const p = profileFromOutline(outline, 2);
    assert.deepEqual(outermostNodes(p.tree, [1, 3]), [1]);
    assert.deepEqual(nodeSetValues(p, 0, [1, 3]), { inclusive: 2 + 6 + 1 + 1 + 3 + 1, exclusive: 2 + 6 + 3 + 1 });
    assert.deepEqual([...nodeSetByContext(p, 0, [1, 3], 'inclusive')], [6, 8]);
    assert.deepEqual([...nodeSetByContext(p, 0, [1, 3], 'exclusive')], [5, 7]);
  });

  it('summarizes the spread over contexts with the rank holding the max', () => {
    assert.deepEqual(spreadOf(Float64Array.of(1, 4, 1)), {
      min: 1,
      mean: 2,
      max: 4,
      median: 1,
      imbalance: 2,
      maxContext: 1,
    });
    assert.deepEqual(spreadOf(new Float64Array(0)), {
      min: 0,
      mean: 0,
      max: 0,
      median: 0,
      imbalance: 0,
      maxContext: 0,
    });
  });

  it('groups the copies issued from a set of nodes by direction, most bytes first', () => {
    const dm: DataMovementColumns = {
      kind: Uint8Array.of(
        DataMovementKind.HostToDevice,
        DataMovementKind.DeviceToHost,
        DataMovementKind.HostToDevice,
        DataMovementKind.Memset,
      ),
      bytes: Float64Array.of(1000, 5000, 3000, 10),
      srcDevice: Int32Array.of(-1, 0, -1, 0),
      dstDevice: Int32Array.of(0, -1, 0, 0),
      start: Float64Array.of(0, 10, 20, 30),
      duration: Float64Array.of(100, 200, 300, 5),
      track: Int32Array.of(0, 0, 0, 0),
      event: Int32Array.of(-1, -1, -1, -1),
      node: Int32Array.of(3, 4, 3, 2),
      sourceNode: Int32Array.of(3, 4, 3, 2),
    };
    const tree = profileFromOutline(outline, 2).tree;
    assert.deepEqual(dataMovementFrom(dm, tree, new Set([3, 4])), [
      { kind: 'device-to-host', count: 1, bytes: 5000, durationNs: 200 },
      { kind: 'host-to-device', count: 2, bytes: 4000, durationNs: 400 },
    ]);
    // Through calls: the outer a.c:5 (node 1) issues what solve (2) and the inner a.c:5 (3) issue.
    assert.deepEqual(dataMovementFrom(dm, tree, new Set([1])), [
      { kind: 'host-to-device', count: 2, bytes: 4000, durationNs: 400 },
      { kind: 'memset', count: 1, bytes: 10, durationNs: 5 },
    ]);
    assert.deepEqual(dataMovementFrom(dm, tree, new Set([5])), []);
  });

  it('writes the after-line text and the heat level', () => {
    assert.equal(heatAnnotation(0.124, 3.1, 's', 2.345), '12% · 3.1 s · imbalance 2.3×');
    assert.equal(heatAnnotation(0.031, 0.25, 's', null), '3.1% · 250 ms');
    assert.deepEqual(
      [0, 0.1, 0.2, 0.21, 0.99, 1].map(v => heatLevel(v, 1, 5)),
      [0, 0, 0, 1, 4, 4],
    );
    assert.equal(heatLevel(1, 0, 5), 0);
  });
});

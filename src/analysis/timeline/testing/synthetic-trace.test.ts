import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readProfile } from '../../formats';
import { TimelineIndex } from '../timeline-index';
import { windowStatistics } from '../window-stats';
import { writeSyntheticChromeTrace } from './synthetic-trace';

describe('synthetic Chrome trace', () => {
  it('reads back through the Chrome/Kineto reader with the same lanes, events, copies and busy times', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-synthetic-'));
    try {
      const path = join(dir, 'synthetic.trace.json');
      const made = writeSyntheticChromeTrace(path, {
        ranks: 3,
        threadsPerRank: 2,
        streamsPerRank: 2,
        targetEvents: 6000,
      });
      const read = await readProfile(path);
      const a = made.trace!,
        b = read.trace!;
      assert.equal(b.events.track.length, a.events.track.length);
      assert.equal(b.tracks.filter(t => t.kind === 'gpu-stream').length, 6);
      assert.equal(b.tracks.filter(t => t.kind === 'thread').length, 6);
      assert.equal(b.dataMovement.kind.length, a.dataMovement.kind.length);
      assert.equal(
        b.dataMovement.bytes.reduce((x, y) => x + y, 0),
        a.dataMovement.bytes.reduce((x, y) => x + y, 0),
      );
      const busy = (ix: TimelineIndex) =>
        windowStatistics(ix, { start: -1, end: 1e12 })
          .lanes.map(l => l.busy)
          .sort((x, y) => x - y);
      // Times pass through decimal µs in the JSON; the reader's rounding leaves a few ns per lane.
      const got = busy(new TimelineIndex(read)),
        want = busy(new TimelineIndex(made));
      assert.equal(got.length, want.length);
      got.forEach((g, i) => assert.ok(Math.abs(g - want[i]!) <= 1e-6 * want[i]! + 1, `lane ${i}: ${g} vs ${want[i]}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

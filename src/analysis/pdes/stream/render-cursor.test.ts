import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RenderCursor } from './render-cursor';

describe('render cursor (Pause / Resume)', () => {
  it('draws every tick while running; paused, it lets ticks pass and resume jumps to the newest', () => {
    const c = new RenderCursor();
    assert.deepEqual(
      [0, 1, 2].map(t => c.offer(t)),
      [true, true, true],
    );
    c.pause();
    assert.equal(c.paused, true);
    assert.deepEqual(
      [3, 4, 5].map(t => c.offer(t)),
      [false, false, false],
    );
    assert.equal(c.behind, 3);
    assert.equal(c.rendered, 2);
    assert.equal(c.resume(), 5);
    assert.equal(c.behind, 0);
    assert.equal(c.offer(6), true);
    // Pausing and resuming with nothing new in between jumps nowhere.
    c.pause();
    assert.equal(c.resume(), -1);
    assert.equal(c.rendered, 6);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY_PDES_PANEL_STATE, pdesViewState } from './pdes-protocol';

describe('pdesViewState: the views request the panel, screenshots and benches send', () => {
  it('carries the panel state, the width, and the pick and handlers only when given', () => {
    const plain = pdesViewState(EMPTY_PDES_PANEL_STATE, { width: 900 });
    assert.deepEqual(plain, {
      selection: {},
      keepUnselected: false,
      width: 900,
      networkSegment: null,
      networkDrill: EMPTY_PDES_PANEL_STATE.networkDrill,
    });
    const pick = { view: 'detail' as const, index: 0 as const, points: [[1, 2] as const] };
    const full = pdesViewState(
      { ...EMPTY_PDES_PANEL_STATE, matrixSegment: 3, keepUnselected: true },
      { width: 640, pick, handlers: { a: 'b' } },
    );
    assert.equal(full.matrixSegment, 3);
    assert.equal(full.keepUnselected, true);
    assert.deepEqual(full.pick, pick);
    assert.deepEqual(full.handlers, { a: 'b' });
  });
});

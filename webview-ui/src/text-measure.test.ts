import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTextMeasurer, estimateText, truncateText } from './text-measure';
import type { MeasureText } from './text-measure';

/** One pixel per character, to make widths obvious. */
const mono: MeasureText = text => text.length;

describe('truncateText', () => {
  test('text that fits is unchanged', () => {
    assert.equal(truncateText('libhalo.so', 10, 'title', mono), 'libhalo.so');
  });
  test('longer text is cut with an ellipsis to fit', () => {
    const t = truncateText('libminimpi.so', 8, 'title', mono);
    assert.equal(t, 'libmini…');
    assert.ok(mono(t, 'title') <= 8);
  });
  test('no trailing space before the ellipsis', () => {
    assert.equal(truncateText('heat stencil', 6, 'title', mono), 'heat…');
  });
  test('only the ellipsis, or nothing, when very narrow', () => {
    assert.equal(truncateText('libc.so.6', 1, 'title', mono), '…');
    assert.equal(truncateText('libc.so.6', 0, 'title', mono), '');
  });
  test('the estimate grows with length and font', () => {
    assert.ok(estimateText('abcd', 'title') > estimateText('abc', 'title'));
    assert.ok(estimateText('abc', 'title') > estimateText('abc', 'detail'));
    assert.equal(createTextMeasurer('sans-serif'), estimateText, 'no canvas outside the browser');
  });
});

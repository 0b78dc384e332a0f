import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PythonJsonFilter } from './python-json-filter';

/** Filters `text` cut into chunks at the given points and returns the output as text. */
function filter(text: string, cuts: number[] = []): { out: string; replaced: number } {
  const bytes = Buffer.from(text, 'utf8');
  const f = new PythonJsonFilter();
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    parts.push(f.transform(bytes.subarray(from, cut)));
    from = cut;
  }
  parts.push(f.flush());
  return { out: Buffer.concat(parts).toString('utf8'), replaced: f.replaced };
}

describe('PythonJsonFilter', () => {
  const input =
    '[{"name": "NaN \\" Infinity", "metrics": {"a": NaN, "b": -Infinity, "c": Infinity, "d": -1.5e-3, "é": "I"}}]';
  const expected =
    '[{"name": "NaN \\" Infinity", "metrics": {"a": null, "b": null, "c": null, "d": -1.5e-3, "é": "I"}}]';

  it('turns the bare words into null and leaves strings and numbers alone', () => {
    assert.deepEqual(filter(input), { out: expected, replaced: 3 });
    assert.deepEqual(JSON.parse(expected).at(0).metrics.d, -0.0015);
  });

  it('gives the same output however the bytes are cut', () => {
    const n = Buffer.byteLength(input);
    for (let a = 0; a <= n; a++) {
      for (const b of [a, Math.min(n, a + 1), Math.min(n, a + 7)]) {
        assert.equal(filter(input, [a, b]).out, expected, `cut at ${a}, ${b}`);
      }
    }
  });

  it('passes other words through for the tokenizer to reject', () => {
    assert.equal(filter('[Nope, Inf, -x, N').out, '[Nope, Inf, -x, N');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NodeKind } from './call-tree';
import { capMetadataDepth } from './metadata-depth';
import type { MetadataValue } from './profile';
import { ProfileBuilder } from './profile-builder';

/** An array nested `depth` levels, holding `leaf` innermost. */
function nested(depth: number, leaf: MetadataValue = 1): MetadataValue {
  let v: MetadataValue = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('metadata depth', () => {
  it('keeps metadata up to the limit unchanged', () => {
    const m: Record<string, MetadataValue> = { a: nested(3), b: { c: { d: 'x' } }, e: 'plain', f: null };
    const copy = structuredClone(m);
    assert.deepEqual(capMetadataDepth(m, 3), []);
    assert.deepEqual(m, copy);
  });

  it('replaces what is nested deeper by a summary, and names the keys that were cut', () => {
    const m: Record<string, MetadataValue> = { a: nested(5, 'leaf'), b: { c: { d: { e: [1, 2] } } }, ok: [1] };
    assert.deepEqual(capMetadataDepth(m, 3).sort(), ['a', 'b']);
    assert.deepEqual(m['a'], [[['[an array nested 2 more levels with 1 value; cut at depth 3]']]]);
    assert.deepEqual(m['b'], { c: { d: { e: '[an array nested 1 more level with 2 values; cut at depth 3]' } } });
    assert.deepEqual(m['ok'], [1]);
  });

  it('copes with 100,000 levels without recursion, and the builder warns', () => {
    const b = new ProfileBuilder('test', '/x');
    b.tree.add(-1, 'main', NodeKind.Function);
    b.metadata['deep'] = nested(100_000);
    const p = b.build(0);
    const json = JSON.stringify(p.metadata);
    assert.ok(json.includes('nested 99,936 more levels with 1 value; cut at depth 64'));
    assert.deepEqual(p.warnings, [
      'metadata "deep" nests deeper than 64 levels; the deeper part is shown as a summary',
    ]);
  });
});

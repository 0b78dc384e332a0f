import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectReadError } from '../../../test/support/read-errors';
import { NodeKind } from '../model/call-tree';
import { ProfileBuilder } from '../model/profile-builder';
import { checkFiniteValues } from './finite-values';
import { readProfile } from './index';

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-finite-'));

describe('finite values', () => {
  it('rejects folded stacks whose counts add up beyond the largest double', async () => {
    const path = join(tmp, 'huge.folded');
    writeFileSync(path, 'main;a 1e308\nmain;b 1e308\nmain;c 5\n');
    await expectReadError(
      readProfile(path),
      path,
      /: the exclusive values of metric "samples" add up beyond 1\.8e308, the largest number HPC Lens can hold \(e\.g\. at "a"\): the file is corrupt$/,
    );
  });

  it('keeps large but summable values', async () => {
    const path = join(tmp, 'large.folded');
    writeFileSync(path, 'main;a 1e300\nmain;b 1e300\n');
    const p = await readProfile(path);
    assert.equal(p.total(0), 2e300);
  });

  it('leaves room for exclusive values derived from recorded inclusive ones', () => {
    const b = new ProfileBuilder('test', '/x');
    const root = b.tree.add(-1, 'main', NodeKind.Function);
    const child = b.tree.add(root, 'f', NodeKind.Function);
    const m = b.addMetric({
      name: 'time',
      label: 'time',
      sourceKeys: [],
      unit: 's',
      kind: 'inclusive',
      aggregation: 'sum',
    });
    b.addInclusive(m, root, 0, 7e307);
    // Σ|inclusive| = 1e308 is finite, but derived exclusive values are only bounded by twice that.
    b.addInclusive(m, child, 0, -3e307);
    const p = b.build(m);
    assert.throws(() => checkFiniteValues(p), /\/x: the inclusive values of metric "time" add up beyond 1\.8e308/);
  });
});

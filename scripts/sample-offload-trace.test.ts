import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readProfile } from '../src/analysis/formats';
import { dataMovementSites } from '../src/analysis/stats/data-movement-sites';
import { PROFILE_DIR, readSources, SOURCE_DIR } from './generate-samples';
import { generateOffloadTrace, OFFLOAD_RUN, OFFLOAD_TRACE_FILE } from './sample-offload-trace';

const TRACE = join(PROFILE_DIR, OFFLOAD_TRACE_FILE);

/** The calls of the mock copy API in offload.c, by a plain scan of the text (not the generator's): 1-based line → the call's code. */
function copyCalls(): Map<number, string> {
  const out = new Map<number, string>();
  readFileSync(join(SOURCE_DIR, 'offload.c'), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (/^\s+dev_mem(cpy|set)_async\(/.test(text)) out.set(i + 1, text.trim());
    });
  return out;
}

describe('sample-offload-trace', () => {
  it('produces exactly the committed trace (it cannot go stale)', () => {
    assert.equal(
      generateOffloadTrace(readSources()),
      readFileSync(TRACE, 'utf8'),
      `${OFFLOAD_TRACE_FILE} is stale: run npm run samples`,
    );
  });

  it('reads through the Chrome reader with every copy charged to the offload.c line that issues it', async () => {
    const p = await readProfile(TRACE);
    assert.equal(p.format, 'chrome-trace');
    assert.deepEqual(p.warnings, []);
    const dm = p.trace!.dataMovement;
    const { sites, unattributed } = dataMovementSites(dm, p.tree);
    assert.equal(unattributed.count, 0);
    const calls = copyCalls();
    assert.equal(calls.size, 7, 'offload.c issues seven copies and memsets');
    assert.deepEqual(
      sites.map(s => s.line).sort((a, b) => a! - b!),
      [...calls.keys()],
    );
    const steps = OFFLOAD_RUN.steps;
    for (const s of sites) {
      assert.equal(s.file, '/home/hpc/heat-stencil/src/offload.c');
      const code = calls.get(s.line!)!;
      assert.equal(s.directions.length, 1, code);
      const d = s.directions[0]!;
      const expected = code.startsWith('dev_memset_async')
        ? ['memset', 1]
        : code.includes('COPY_HOST_TO_DEVICE')
          ? ['H→D', code.includes(', row,') ? steps : 1]
          : ['D→H', code.includes(', row,') ? steps : 1];
      assert.deepEqual([d.label, d.count], expected, `${s.line}: ${code}`);
      // A row is 1026 doubles; the block is rank 0's 409 rows plus two ghost rows.
      assert.equal(d.minBytes, code.includes(', row,') ? 1026 * 8 : 411 * 1026 * 8, code);
      assert.ok(d.bandwidth! > 1e9 && d.bandwidth! < 1e12, `${code}: ${d.bandwidth} B/s`);
      assert.deepEqual(d.devices, code.includes('memset') ? [0] : [-1, 0]);
      assert.equal(p.tree.name(s.paths[0]!.node).startsWith(d.label === 'memset' ? 'Memset' : 'Memcpy'), true);
    }
    // The whole-block copies and the memset (same bytes, ties in file order) lead; the halo rows follow.
    assert.deepEqual(
      sites.map(s => s.name),
      [
        'offload_stage_in',
        'offload_stage_in',
        'offload_stage_out',
        'offload_halos_to_host',
        'offload_halos_to_host',
        'offload_halos_to_device',
        'offload_halos_to_device',
      ],
    );
  });
});

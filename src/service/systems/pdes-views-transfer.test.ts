import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { generateRossRun } from '../../analysis/pdes/testing/ross-generator';
import { LocalAnalysisService } from '../local-analysis-service';
import { transferables } from '../shared-memory';

/**
 * The PDES panel's answers leave the worker by transfer (their buffers are detached there): no
 * buffer of an answer may be one the system keeps, or the next answer — a new selection over the
 * cached analysis — fails with "Cannot transfer object of unsupported type" (found in the editor).
 */
describe('PDES views leave the worker by transfer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-transfer-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a second request over the same analysis after the first answer was transferred', async () => {
    generateRossRun(dir, { seed: 4, pes: 2, kpsPerPe: 4, ticks: 20, eventsPerKp: 4 });
    const s = new LocalAnalysisService();
    const o = await s.open({ path: dir });
    const ask = (selection: { clusters?: number[] }) =>
      s.systemRequest<'pdes', 'views'>({
        dataset: o.dataset,
        system: 'pdes',
        request: { kind: 'views', options: {}, state: { selection } },
      });
    const { port1, port2 } = new MessageChannel();
    try {
      const first = await ask({});
      const ids = Array.from(first.entities.ids);
      port1.postMessage(first, transferables(first));
      const second = await ask({ clusters: [0] });
      assert.deepEqual(Array.from(second.entities.ids), ids, 'the behaviour’s entity ids are intact');
      assert.equal(second.selected.length, second.clustering.sizes[0]);
      port1.postMessage(second, transferables(second));
    } finally {
      port1.close();
      port2.close();
    }
  });
});

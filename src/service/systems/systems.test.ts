import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DmvIndex } from '../../analysis/dmv/dmv-index';
import { dataMovementReport } from '../../analysis/dmv/report';
import { readProfile } from '../../analysis/formats';
import { LocalAnalysisService } from '../local-analysis-service';
import { registerOutlineSystem } from './testing/outline-system';

/** An opened dataset of the test system (registered at run time, so not in the service's types). */
interface LooseOpened {
  dataset: number;
  system?: string;
  opened?: unknown;
  profile?: unknown;
}
const ROOT = resolve(__dirname, '..', '..', '..');
const KINETO = join(ROOT, 'samples/heat-stencil/profiles/heat-offload-kineto.json');
const SAMPLE = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');

/** The outline system's requests, typed loosely: it is registered at run time, not in SystemTypes. */
const outline = 'outline' as never;
const ask = (s: LocalAnalysisService, dataset: number, request: unknown) =>
  s.systemRequest({ dataset, system: outline, request: request as never }) as Promise<unknown>;

describe('systems of the analysis service', () => {
  let dir: string;
  let file: string;
  before(() => {
    registerOutlineSystem();
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-systems-'));
    file = join(dir, 'run.outline');
    writeFileSync(file, 'main a.c:1 = 1\n  solve a.c:5 = 4\n  io b.c:9 = 2\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a system that analyses profiles answers about a trace dataset as its CLI does (data movement)', async () => {
    const s = new LocalAnalysisService();
    const opened = await s.open({ path: KINETO });
    assert.equal(opened.system, undefined, 'a trace opens as a profile');
    const report = await s.systemRequest({
      dataset: opened.dataset,
      system: 'dataMovement',
      request: { kind: 'report' },
    });
    const direct = dataMovementReport(new DmvIndex(await readProfile(KINETO)));
    assert.deepEqual(report, direct);
    assert.ok(report.matrix.length > 0, 'the sample trace moves data');
    const again = await s.systemRequest({
      dataset: opened.dataset,
      system: 'dataMovement',
      request: { kind: 'report' },
    });
    assert.deepEqual(again, report, 'the index kept with the dataset gives the same answer');
    await assert.rejects(
      s.systemRequest({ dataset: opened.dataset, system: 'dataMovement', request: { kind: 'report', rules: [{}] } }),
      /category rules/,
    );
  });

  it('a profile without a timeline is refused by the data-movement system with the reason', async () => {
    const s = new LocalAnalysisService();
    const opened = await s.open({ path: SAMPLE });
    await assert.rejects(
      s.systemRequest({ dataset: opened.dataset, system: 'dataMovement', request: { kind: 'report' } }),
      /has no timeline of events/,
    );
  });

  it('a file a system claims by content opens as that system’s dataset, with an editor profile the overlays read', async () => {
    const s = new LocalAnalysisService();
    const opened = (await s.open({ path: file })) as unknown as LooseOpened;
    assert.equal(opened.system, 'outline');
    assert.deepEqual(opened.opened, { lines: 3 });
    const d = await s.derive({
      dataset: opened.dataset,
      metric: 0,
    });
    assert.equal(d.total, 7, 'the editor profile derives like any profile');
    assert.deepEqual(await ask(s, opened.dataset, { kind: 'lines' }), [
      'main a.c:1 = 1',
      '  solve a.c:5 = 4',
      '  io b.c:9 = 2',
    ]);
    await assert.rejects(
      s.systemRequest({ dataset: opened.dataset, system: 'dataMovement', request: { kind: 'report' } }),
      /has no timeline of events/,
      'another system analyses its editor profile like any profile',
    );
  });

  it('events reach the dataset’s listeners until they stop listening or the dataset closes', async () => {
    const s = new LocalAnalysisService();
    const opened = (await s.openSystem({
      system: outline,
      args: { text: 'main = 1\n' } as never,
    })) as unknown as LooseOpened;
    assert.deepEqual(opened.opened, { lines: 1 });
    assert.ok(opened.profile, 'a system opened from arguments may have an editor profile too');
    const seen: unknown[] = [];
    const stop = s.onSystemEvent(opened.dataset, e => seen.push(e as unknown));
    assert.equal(await ask(s, opened.dataset, { kind: 'tick', count: 2 }), 2);
    assert.deepEqual([...seen], [{ tick: 0 }, { tick: 1 }]);
    stop();
    await ask(s, opened.dataset, { kind: 'tick', count: 1 });
    assert.equal(seen.length, 2, 'no events after stop');
    s.onSystemEvent(opened.dataset, e => seen.push(e as unknown));
    await s.close({ dataset: opened.dataset });
    await assert.rejects(ask(s, opened.dataset, { kind: 'lines' }), /not loaded/);
    assert.equal(seen.length, 2);
  });

  it('a system asked about a dataset it cannot analyse says so', async () => {
    const s = new LocalAnalysisService();
    const opened = await s.open({ path: SAMPLE });
    await assert.rejects(ask(s, opened.dataset, { kind: 'lines' }), /not one the outline system can analyse/);
    await assert.rejects(ask(s, 999, { kind: 'lines' }), /dataset 999 is not loaded/);
  });
});

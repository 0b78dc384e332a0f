import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { mutationsOf } from '../../../../test/support/mutations';
import { communicationMatrix } from '../../pdes/model/communication';
import { METRIC } from '../../pdes/model/metrics';
import { generateRossRun } from '../../pdes/testing/ross-generator';
import { ProfileReadError } from '../reader';
import { readPdesRun } from './pdes-run-reader';
import { RossRecordWriter } from './record-writer';

const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ross-mutations-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Reads a damaged stats file on its own: it is read (totals finite) or rejected naming the file, within 5 s. */
async function readOrReject(path: string, what: string): Promise<'read' | 'rejected'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within 5 s`)), 5000);
  });
  try {
    const run = await Promise.race([readPdesRun(path), timeout]);
    for (const set of Object.values(run.samples))
      for (const level of ['pe', 'kp', 'lp'] as const)
        if (set.table(level).records)
          assert.ok(Number.isFinite(set.table(level).total(METRIC.eventsProcessed)), `${what}: totals are finite`);
    if (run.eventTrace)
      for (const level of ['pe', 'kp', 'lp'] as const) communicationMatrix(run.eventTrace, run.entities, level);
    return 'read';
  } catch (e) {
    if (e instanceof ProfileReadError) {
      assert.ok(e.message.startsWith(path), `${what}: the message names the file: ${e.message}`);
      return 'rejected';
    }
    throw new Error(`${what}: ${(e as Error).stack ?? e}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}

function modelFile(): Buffer {
  const w = new RossRecordWriter();
  const kp = new Array<number>(9).fill(1);
  for (let t = 1; t <= 3; t++) {
    w.engine(1, { pe: 0, kp: 0, lp: -1 }, t * 90, t, kp);
    w.model(4, 0, 0, t * 100, t, new Uint8Array(296).fill(t)); // router, radix 7
    w.model(2, 0, 0, t * 100, t, new Uint8Array(152).fill(t)); // terminal, one rail
  }
  return Buffer.from(w.bytes());
}

describe('ROSS stats files, damaged', () => {
  generateRossRun(join(dir, 'run'), {
    seed: 3,
    pes: 2,
    kpsPerPe: 2,
    lps: 8,
    ticks: 4,
    eventsPerKp: 3,
    lpData: true,
    surge: null,
  });
  const inputs: [string, Buffer][] = [
    ['x-gvt.bin', readFileSync(join(dir, 'run/stats/synthetic-gvt.bin'))],
    ['x-evtrace.bin', readFileSync(join(dir, 'run/stats/synthetic-evtrace.bin'))],
    ['x-analysis-lps.bin', modelFile()],
  ];
  for (const [name, valid] of inputs)
    it(`${name}: every truncation and flipped byte is read or rejected with the file named`, async () => {
      const counts = { read: 0, rejected: 0 };
      let k = 0;
      for (const [what, bytes] of mutationsOf(valid, { truncations: 60, flips: 80 })) {
        if (what.startsWith('gzip')) continue;
        const path = join(dir, `${k++}-${name}`);
        writeFileSync(path, bytes);
        counts[await readOrReject(path, `${name} ${what}`)]++;
        rmSync(path);
      }
      assert.ok(counts.read > 0, `${name}: some damage is survivable (truncations): ${JSON.stringify(counts)}`);
    });
});

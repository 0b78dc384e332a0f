import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateRossRun, type RossRunTruth } from '../testing/ross-generator';
import type { FromMonitor } from './monitor-protocol';
import { MonitorSession } from './monitor-session';
import type { MatrixView } from './stream-views';
import { until } from '../../../../test/support/until';

const dirs: string[] = [];
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hpc-lens-session-'));
  dirs.push(d);
  return d;
};

/** A session whose messages are collected, each checked to survive structured cloning (worker → host). */
function session(): {
  s: MonitorSession;
  messages: FromMonitor[];
  of: <T extends FromMonitor['type']>(t: T) => Extract<FromMonitor, { type: T }>[];
} {
  const messages: FromMonitor[] = [];
  const s = new MonitorSession(m => messages.push(structuredClone(m)));
  const of = <T extends FromMonitor['type']>(t: T) =>
    messages.filter(m => m.type === t) as Extract<FromMonitor, { type: T }>[];
  return { s, messages, of };
}

const ROUND = 4 * (128 + 4 * 68);

describe('monitor session (the worker side of the live panel)', () => {
  let truth: RossRunTruth;
  let stats: Buffer;
  before(() => {
    truth = generateRossRun(tempDir(), { seed: 5, pes: 4, kpsPerPe: 4, ticks: 40, eventsPerKp: 6, surge: null });
    stats = readFileSync(truth.files.gvt);
  });

  it('tails a growing file and its trace, posts every tick, answers the views, ends when idle', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'stats'));
    for (const f of ['ross.csv', 'command.txt'])
      writeFileSync(join(dir, f), readFileSync(join(truth.files.rossCsv, '..', f)));
    mkdirSync(join(dir, 'ross_all_lp_stats'));
    for (let pe = 0; pe < 4; pe++)
      writeFileSync(
        join(dir, 'ross_all_lp_stats', `pe_${pe}.txt`),
        readFileSync(join(truth.files.rossCsv, '..', 'ross_all_lp_stats', `pe_${pe}.txt`)),
      );
    const path = join(dir, 'stats', 'synthetic-gvt.bin');
    const tracePath = join(dir, 'stats', 'synthetic-evtrace.bin');
    writeFileSync(path, stats.subarray(0, 5 * ROUND + 7));
    writeFileSync(tracePath, readFileSync(truth.files.evtrace!));
    const { s, of } = session();
    await s.handle({ type: 'start', source: { kind: 'file', path, pollMs: 10, idleMs: 400 } });
    assert.deepEqual(of('started')[0], { type: 'started', source: path, mode: 'gvt', tracePath, expectedPes: 4 });
    await until(() => of('tick').length === 4, 'the first ticks');
    for (let at = 5 * ROUND + 7; at < stats.length; at += 3 * ROUND) {
      appendFileSync(path, stats.subarray(at, Math.min(stats.length, at + 3 * ROUND)));
      await new Promise(r => setTimeout(r, 15));
    }
    await s.finished();
    const ticks = of('tick').map(m => m.update);
    assert.deepEqual(
      ticks.map(u => u.tick),
      Array.from({ length: 40 }, (_, i) => i),
    );
    assert.equal(ticks.at(-1)!.totals.eventsProcessed, truth.totals.events);
    assert.deepEqual(of('ended').at(-1), {
      type: 'ended',
      ticks: 40,
      reason: 'synthetic-gvt.bin did not grow for 400 ms',
    });
    // Queries: a reopened panel rebuilds its history; the views get their data.
    await s.handle({ type: 'query', id: 1, query: { kind: 'history' } });
    const history = of('answer')[0]!.result as { ticks: unknown[] };
    assert.equal(history.ticks.length, 40);
    await s.handle({ type: 'query', id: 2, query: { kind: 'live-matrix', matrix: { granularity: 'kp' } } });
    const live = of('answer')[1]!.result as MatrixView;
    assert.deepEqual([live.size, live.level], [16, 'kp']);
    assert.ok(live.events > 0);
    await s.handle({ type: 'query', id: 3, query: { kind: 'show', changePoint: 99 } });
    assert.equal(of('answer')[2]!.result, null);
    await s.handle({ type: 'query', id: 4, query: { kind: 'summary', view: 'no_such_metric' } });
    assert.match(of('answer')[3]!.error!, /no metric "no_such_metric"/);
  });

  it('starts over with a notice when the file shrinks; stops at a bad record naming file and offset', async () => {
    const dir = tempDir();
    const path = join(dir, 'run-gvt.bin');
    writeFileSync(path, stats.subarray(0, 10 * ROUND));
    const { s, of } = session();
    await s.handle({ type: 'start', source: { kind: 'file', path, pollMs: 10 }, settings: { expectedPes: 4 } });
    await until(() => of('tick').length === 9, 'nine ticks');
    writeFileSync(path, stats.subarray(0, 3 * ROUND));
    await until(() => of('notice').some(n => /shrank/.test(n.message)), 'the shrink notice');
    await until(() => of('tick').length === 11, 'the ticks of the new run');
    assert.deepEqual(
      of('tick').map(m => m.update.tick),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1],
    );
    assert.match(of('notice').find(n => /shrank/.test(n.message))!.message, /the monitor starts over/);
    // Garbage where the next record should start.
    appendFileSync(path, Buffer.from('not a ROSS record at all'));
    await s.finished();
    const error = of('error')[0]!;
    assert.equal(error.path, path);
    assert.equal(error.offset, 3 * ROUND);
    assert.match(error.message, new RegExp(`^${path}: unknown record: .* at byte offset ${3 * ROUND}$`));
    assert.equal(of('ended').at(-1)!.reason, 'bad input');
    const history = s.query({ kind: 'history' }) as { failure: string | null };
    assert.equal(history.failure, error.message);
  });

  it('pause stops rendering only; resume jumps to now with the history', async () => {
    const dir = tempDir();
    const path = join(dir, 'run-gvt.bin');
    writeFileSync(path, stats.subarray(0, 4 * ROUND));
    const { s, of } = session();
    await s.handle({ type: 'start', source: { kind: 'file', path, pollMs: 10 }, settings: { expectedPes: 4 } });
    await until(() => of('tick').length === 3, 'three ticks');
    await s.handle({ type: 'pause' });
    appendFileSync(path, stats.subarray(4 * ROUND, 20 * ROUND));
    await until(() => s.monitor!.ticks === 19, 'the monitor to keep analysing');
    assert.equal(of('tick').length, 3, 'nothing drawn while paused');
    assert.equal(s.cursor.behind, 16);
    await s.handle({ type: 'resume' });
    const resumed = of('resumed')[0]!;
    assert.equal(resumed.update!.tick, 18);
    assert.equal(resumed.history.length, 19);
    appendFileSync(path, stats.subarray(20 * ROUND, 21 * ROUND));
    await until(() => of('tick').length === 4, 'drawing again');
    assert.equal(of('tick').at(-1)!.update.tick, 19);
    await s.handle({ type: 'stop' });
    assert.equal(of('ended').at(-1)!.reason, 'stopped');
  });

  it('listens on a localhost socket: garbage drops the connection (logged), the next one continues', async () => {
    const { s, of } = session();
    await s.handle({ type: 'start', source: { kind: 'socket', port: 0, mode: 'gvt' }, settings: { expectedPes: 4 } });
    const { port } = of('started')[0]!;
    assert.ok(port! > 0);
    const send = (bytes: Uint8Array, end = false) =>
      new Promise<Socket>(resolve => {
        const c = connect(port!, '127.0.0.1', () => {
          if (end) c.end(bytes);
          else c.write(bytes);
          resolve(c);
        });
      });
    const first = await send(Buffer.concat([stats.subarray(0, 6 * ROUND), Buffer.from('garbage!garbage!')]));
    await until(() => of('notice').some(n => /connection 1 dropped/.test(n.message)), 'the drop');
    assert.match(of('notice').find(n => /dropped/.test(n.message))!.message, /unknown record: .* at byte offset/);
    first.destroy();
    assert.equal(of('tick').length, 5);
    await send(stats.subarray(6 * ROUND, 12 * ROUND), true);
    await until(() => of('tick').length === 11, 'ticks from the second connection');
    await s.handle({ type: 'stop' });
    assert.equal(of('ended').at(-1)!.reason, 'stopped');
  });

  it('replays a recorded file at any speed', async () => {
    const { s, of } = session();
    await s.handle({ type: 'start', source: { kind: 'replay', path: truth.files.gvt, speed: Infinity } });
    await s.finished();
    assert.equal(of('tick').length, 40);
    assert.equal(of('tick').at(-1)!.update.totals.rollbacks, truth.totals.rollbacks);
    assert.equal(of('ended').at(-1)!.reason, 'replayed');
    // A host that listens only now (the service's open returned after the replay ended) learns the end from the history.
    const history = s.query({ kind: 'history' }) as { ended: { ticks: number; reason: string } | null };
    assert.deepEqual(history.ended, { ticks: 40, reason: 'replayed' });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyseLanesInChunks, analyseTraceInParts } from './analyse-in-parts';
import {
  allLaneRanges,
  analyseLanes,
  finishTraceAnalysis,
  planTraceAnalysis,
  type TraceAnalysis,
} from './analyze-trace';
import { analyzeTraceReport } from './report';
import * as S from './testing/scenarios';
import { traceSourceOf } from './trace-source';

/** The report with numbers to 9 digits (summaries merged in another order may differ in the last bits). */
const view = (a: TraceAnalysis) =>
  JSON.stringify(analyzeTraceReport(a), (_, v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v));

describe('the lane phase in chunks and halves', () => {
  const { profile } = S.plantedImbalance();

  it('chunks of any size give the single-call result exactly', async () => {
    const plan = planTraceAnalysis(traceSourceOf(profile));
    const whole = finishTraceAnalysis(plan, analyseLanes(plan, allLaneRanges(plan)));
    for (const chunkEvents of [1, 5_000, 1e9]) {
      const chunked = finishTraceAnalysis(plan, await analyseLanesInChunks(plan, allLaneRanges(plan), { chunkEvents }));
      assert.equal(view(chunked), view(whole), `chunkEvents ${chunkEvents}`);
      assert.deepEqual(chunked.iterations, whole.iterations);
      assert.deepEqual(
        chunked.clusters.map(c => c.members),
        whole.clusters.map(c => c.members),
      );
    }
  });

  it('the right halves on a peer (its own plan, answers cloned as between threads) give the same result', async () => {
    const plan = planTraceAnalysis(traceSourceOf(profile));
    const whole = finishTraceAnalysis(plan, analyseLanes(plan, allLaneRanges(plan)));
    const asked: number[] = [];
    const seen: number[] = [];
    const merged = await analyseTraceInParts(
      plan,
      { chunkEvents: 2_000, onProgress: f => seen.push(f) },
      async (ranges, onLanes) => {
        asked.push(...ranges.map(r => r.e - r.h));
        const other = planTraceAnalysis(traceSourceOf(profile));
        return structuredClone(await analyseLanesInChunks(other, ranges, { chunkEvents: 2_000, onLanes }));
      },
    );
    assert.deepEqual(asked, [plan.source.lanes.length / 2], 'the peer analyses the right half of the one role');
    assert.equal(view(merged), view(whole));
    assert.deepEqual(merged.iterations, whole.iterations);
    assert.ok(
      seen.length > 2 && seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]!)),
      'progress rises',
    );
    assert.equal(seen[seen.length - 1], 1, 'both halves reported, all lanes done');
  });

  it('stops between chunks once the signal aborts (the event loop runs in between)', async () => {
    const plan = planTraceAnalysis(traceSourceOf(profile));
    const abort = new AbortController();
    let lanes = 0;
    const run = analyseTraceInParts(plan, {
      signal: abort.signal,
      chunkEvents: 1,
      onProgress: () => {
        if (++lanes === 3) setImmediate(() => abort.abort());
      },
    });
    await assert.rejects(run, (e: unknown) => (e as Error).name === 'AbortError');
    assert.ok(lanes < plan.source.lanes.length, `stopped after ${lanes} lanes`);
  });

  it('a failing peer fails the analysis with its reason', async () => {
    const plan = planTraceAnalysis(traceSourceOf(profile));
    await assert.rejects(
      analyseTraceInParts(plan, {}, () => Promise.reject(new Error('the other worker stopped'))),
      /the other worker stopped/,
    );
  });
});

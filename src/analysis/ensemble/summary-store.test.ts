import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cachedSummaryName } from './run-summary';
import { openRuns, pruneSummaryCache } from './summary-store';
import { writeSyntheticEnsemble } from './testing/synthetic-ensemble';

const DAY = 86_400_000;

describe('pruning the summary cache', () => {
  let dir = '',
    cache = '',
    paths: string[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-prune-'));
    cache = join(dir, 'cache');
    paths = writeSyntheticEnsemble(join(dir, 'runs'), { runs: 6, nodes: 120, maxContexts: 2, seed: 3 });
    // Opening parses the profiles and caches one summary each.
    const opened = await openRuns([join(dir, 'runs')], { cacheDir: cache });
    assert.equal(opened.parsed, 6);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cached = (path: string) => join(cache, cachedSummaryName(path));
  const age = (file: string, days: number, now: number) =>
    utimesSync(file, (now - days * DAY) / 1000, (now - days * DAY) / 1000);

  it('removes summaries whose profile is gone or changed, unreadable and unused ones, then the least recently used over the cap', async () => {
    const now = Date.now();
    const [gone, changed, old, lru, recent, newest] = paths;
    rmSync(gone!);
    appendFileSync(changed!, ' ');
    age(cached(old!), 40, now);
    age(cached(lru!), 5, now);
    age(cached(recent!), 2, now);
    age(cached(newest!), 1, now);
    writeFileSync(join(cache, 'f'.repeat(40) + '.hlsum'), 'not a summary');
    const abandoned = join(cache, `${cachedSummaryName(newest!)}.123.abc.tmp`);
    writeFileSync(abandoned, 'half');
    age(abandoned, 1, now);
    writeFileSync(join(cache, 'notes.txt'), 'the user’s');
    const size = (p: string) => statSync(cached(p)).size;
    // Room for the two most recently used summaries only.
    const maxBytes = size(recent!) + size(newest!) + 1;
    const report = await pruneSummaryCache(cache, { maxAgeDays: 30, maxBytes, now });
    const reasons = Object.fromEntries(report.removed.map(r => [r.file, r.reason]));
    assert.deepEqual(reasons, {
      [cached(gone!)]: 'source gone',
      [cached(changed!)]: 'stale',
      [cached(old!)]: 'unused',
      [cached(lru!)]: 'over the size cap',
      [join(cache, 'f'.repeat(40) + '.hlsum')]: 'unreadable',
      [abandoned]: 'unreadable',
    });
    assert.equal(report.kept, 2);
    assert.equal(report.keptBytes, maxBytes - 1);
    assert.deepEqual(
      readdirSync(cache).sort(),
      [cachedSummaryName(newest!), cachedSummaryName(recent!), 'notes.txt'].sort(),
    );
  });

  it('keeps everything current with no age limit and no cap; opening touches the cached summaries it reads', async () => {
    const now = Date.now();
    const before = readdirSync(cache).filter(f => f.endsWith('.hlsum'));
    for (const f of before) age(join(cache, f), 400, now);
    const kept = await pruneSummaryCache(cache, { maxAgeDays: 0, maxBytes: 0, now });
    assert.deepEqual(kept.removed, []);
    assert.equal(kept.kept, before.length);
    const opened = await openRuns(
      paths.filter(p => before.includes(cachedSummaryName(p))),
      { cacheDir: cache },
    );
    assert.equal(opened.fromSummaries, before.length);
    await new Promise(r => setTimeout(r, 50));
    for (const f of before) assert.ok(statSync(join(cache, f)).mtimeMs > now - DAY, `${f} was touched`);
    assert.deepEqual(
      (await pruneSummaryCache(join(dir, 'no such folder'), { maxAgeDays: 1, maxBytes: 1 })).removed,
      [],
    );
  });
});

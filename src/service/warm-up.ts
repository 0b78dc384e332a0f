/**
 * Start-up warm-up of an analysis worker: tiny profiles of the hot readers are read, derived and
 * drawn as a super graph, so V8 compiles those paths before the user's first open; then the code
 * compiled so far is saved as the bundle's code cache (code-cache.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProfile } from '../analysis/formats';
import { superGraphData } from '../analysis/graph/super-graph-data';
import { Profile } from '../analysis/model/profile';
import type { WarmReport } from './analysis-service';
import { currentCodeCache } from './code-cache';
import { deriveData } from './derived-data';
import { shared } from './shared-memory';

/** Tiny profiles of the hot readers. */
const WARM_PROFILES: Record<string, string> = {
  'warm.json': JSON.stringify({
    data: [
      [1.5, 0, 0, 2],
      [0.5, 1, 0, 3],
      [2.0, 0, 1, 2],
      [0.25, 1, 1, 3],
    ],
    columns: ['sum#time.duration', 'mpi.rank', 'path', 'sourceloc#cali.sampler.pc'],
    column_metadata: [{ is_value: true }, { is_value: false }, { is_value: false }, { is_value: false }],
    nodes: [
      { label: 'main', column: 'path' },
      { label: 'solve', column: 'path', parent: 0 },
      { label: '/src/a.c:10', column: 'sourceloc#cali.sampler.pc' },
      { label: '/src/a.c:12', column: 'sourceloc#cali.sampler.pc' },
    ],
    'mpi.world.size': 2,
  }),
  'warm-literal.json': JSON.stringify([
    {
      frame: { name: 'main', type: 'function' },
      metrics: { 'time (inc)': 3, time: 1 },
      children: [{ frame: { name: 'solve', type: 'function' }, metrics: { 'time (inc)': 2, time: 2 } }],
    },
  ]),
  'warm.callgrind': 'events: Ir\nfl=/src/a.c\nfn=main\n10 5\ncfn=solve\ncalls=1 12\n12 7\nfn=solve\n20 7\n',
  'warm.folded': 'main;solve;kernel 10\nmain;io 3\n',
};

export async function warmUp(): Promise<WarmReport> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-warm-'));
  try {
    for (const [name, text] of Object.entries(WARM_PROFILES)) {
      const path = join(dir, name);
      writeFileSync(path, text);
      // A reader that rejects a warm-up file must not stop the others from warming.
      const p = await readProfile(path).catch(() => undefined);
      if (!p) continue;
      const copy = new Profile(shared(p.toTransferable().data));
      deriveData(copy, copy.primaryMetric, { hotPathThreshold: 0.05, listLength: 50 });
      superGraphData(copy, name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cache = currentCodeCache();
  // Store the code compiled so far (the readers and analyses just run) for the next start.
  if (cache && cache.state !== 'accepted') cache.save();
  return { ms: performance.now() - started, codeCache: cache?.state ?? 'none' };
}

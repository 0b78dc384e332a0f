import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PooledInspector } from './pool';

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-pool-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A stand-in child speaking the pool protocol, whose behaviour the input's name chooses: the real
 * child's misbehaviours (spinning, crashing, growing, leaving handles open, dying late) on demand.
 */
const CHILD = join(tmp, 'child.js');
writeFileSync(
  CHILD,
  `process.on('message', m => {
  const answer = extra => process.send({ type: 'result', id: m.id, code: 0, stdout: '{"nodes":[]}', stderr: '',
    cpuSeconds: 0.01, peakRssBytes: 5e7, rssAfterBytes: 5e7, heapAfterBytes: 1e6, lingering: [], ...extra });
  const name = m.path.slice(m.path.lastIndexOf('/') + 1);
  if (name === 'spin') for (;;);
  else if (name === 'crash') { process.stderr.write('Segmentation fault\\n'); process.exit(139); }
  else if (name === 'grow') answer({ rssAfterBytes: 3e9 });
  else if (name === 'linger') answer({ lingering: ['Timeout'] });
  else if (name === 'die-after') { answer({}); setTimeout(() => { throw new Error('late'); }, 10); }
  else if (name === 'rejected') answer({ code: 1, stdout: '', stderr: 'hpc-lens: ' + m.path + ': not a profile\\n' });
  else answer({});
});
process.send({ type: 'ready' });
`,
);

describe('pooled inspector', () => {
  const limits = { cpuSeconds: 0.3, rssBytes: 2e9, wallSeconds: 30 };

  it('reads input after input in one child and judges each as a fresh process would', async () => {
    const pool = new PooledInspector(CHILD, { limits });
    try {
      const read = await pool.inspect('/in/ok');
      assert.equal(read.verdict, 'read');
      assert.equal(read.suspect, null);
      const rejected = await pool.inspect('/in/rejected');
      assert.equal(rejected.verdict, 'rejected');
      assert.equal(rejected.detail, '/in/rejected: not a profile');
      assert.equal(pool.started, 1);
    } finally {
      await pool.stop();
    }
  });

  it('kills a child past the CPU limit (a timeout) and a crashed one, and starts a new one', async () => {
    const pool = new PooledInspector(CHILD, { limits, sampleMs: 20 });
    try {
      const spin = await pool.inspect('/in/spin');
      assert.equal(spin.verdict, 'timeout');
      assert.ok(spin.cpuSeconds > limits.cpuSeconds, `${spin.cpuSeconds} s`);
      const crash = await pool.inspect('/in/crash');
      assert.equal(crash.verdict, 'crash');
      assert.match(crash.detail, /exit 139: Segmentation fault/);
      assert.equal((await pool.inspect('/in/ok')).verdict, 'read');
      assert.equal(pool.started, 3);
    } finally {
      await pool.stop();
    }
  });

  it('restarts a child that grew past the bound before the next input', async () => {
    const pool = new PooledInspector(CHILD, { limits, restartAboveBytes: 1e9 });
    try {
      assert.equal((await pool.inspect('/in/grow')).verdict, 'read');
      assert.equal((await pool.inspect('/in/ok')).verdict, 'read');
      assert.equal(pool.started, 2);
    } finally {
      await pool.stop();
    }
  });

  it('marks an input that left handles open as suspect, and names the input after which a child died', async () => {
    const pool = new PooledInspector(CHILD, { limits });
    try {
      assert.equal((await pool.inspect('/in/linger')).suspect, 'left open: Timeout');
      assert.equal((await pool.inspect('/in/die-after')).verdict, 'read');
      for (let i = 0; i < 100 && !pool.diedAfter; i++) await new Promise(r => setTimeout(r, 20));
      assert.equal(pool.diedAfter?.path, '/in/die-after');
      assert.match(pool.diedAfter.detail, /exit 1/);
    } finally {
      await pool.stop();
    }
  });
});

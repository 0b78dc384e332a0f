import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tailFile } from './file-tail';
import { until } from '../../../../test/support/until';

const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-tail-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString('latin1');

describe('tailing a growing file', () => {
  it('reads appended bytes only, in order, and ends after the idle time', async () => {
    const path = join(dir, 'grow.bin');
    writeFileSync(path, 'abc');
    const chunks: Uint8Array[] = [];
    const offsets: number[] = [];
    const done = tailFile(path, { chunk: (b, at) => (chunks.push(b), offsets.push(at)) }, { pollMs: 10, idleMs: 300 });
    await until(() => text(chunks) === 'abc', 'the first bytes');
    appendFileSync(path, 'defg');
    await until(() => text(chunks) === 'abcdefg', 'the appended bytes');
    appendFileSync(path, 'h');
    await done;
    assert.equal(text(chunks), 'abcdefgh');
    assert.deepEqual(offsets.slice(0, 2), [0, 3]);
  });

  it('starts over with a notice when the file shrinks or is replaced', async () => {
    const path = join(dir, 'shrink.bin');
    writeFileSync(path, '0123456789');
    const chunks: Uint8Array[] = [];
    const restarts: string[] = [];
    const abort = new AbortController();
    const done = tailFile(
      path,
      {
        chunk: b => chunks.push(b),
        restart: why => {
          restarts.push(why);
          chunks.length = 0;
        },
      },
      { pollMs: 10, signal: abort.signal },
    );
    await until(() => text(chunks) === '0123456789', 'the first read');
    writeFileSync(path, 'xy');
    await until(() => text(chunks) === 'xy', 'the read after the shrink');
    assert.match(restarts[0]!, /shrank from 10 to 2 bytes: reading it again from the start/);
    // A new file under the same name (another inode) starts over too, even when it is larger.
    const other = join(dir, 'other.bin');
    writeFileSync(other, 'a brand new run');
    renameSync(other, path);
    await until(() => text(chunks) === 'a brand new run', 'the replaced file');
    assert.match(restarts[1]!, /was replaced/);
    abort.abort();
    await done;
  });

  it('waits for a file that does not exist yet, and stops on abort', async () => {
    const path = join(dir, 'later.bin');
    const chunks: Uint8Array[] = [];
    const abort = new AbortController();
    const done = tailFile(path, { chunk: b => chunks.push(b) }, { pollMs: 10, signal: abort.signal });
    await new Promise(r => setTimeout(r, 30));
    writeFileSync(path, 'hello');
    await until(() => text(chunks) === 'hello', 'the new file');
    abort.abort();
    await done;
  });

  it('splits a large append into chunks of the given size', async () => {
    const path = join(dir, 'large.bin');
    writeFileSync(path, Buffer.alloc(1000, 7));
    const sizes: number[] = [];
    await tailFile(path, { chunk: b => sizes.push(b.length) }, { pollMs: 10, idleMs: 0, chunkBytes: 300 });
    assert.deepEqual(sizes, [300, 300, 300, 100]);
  });
});

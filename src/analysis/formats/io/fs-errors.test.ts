import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectReadError } from '../../../../test/support/read-errors';
import { writeDatabase } from '../hpctoolkit-metadb/test-db-writer';
import { writeFixtureDatabase } from '../hpctoolkit-xml/test-database';
import { readProfile } from '../index';
import { ProfileReadError } from '../reader';
import { fileSystemReason, fromFileSystemError, isFileSystemError } from './fs-errors';

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-fs-errors-'));

/** A one-function HPCToolkit v4 database. */
function metaDb(dir: string): string {
  writeDatabase(dir, {
    functions: [{ name: 'main' }],
    entries: [{ id: 1, kind: 1, children: [{ id: 2, type: 'function', function: 0, self: { 0: 1 } }] }],
    profiles: [[['RANK', 0]]],
  });
  return dir;
}

/** A classic HPCToolkit database with one metric-db file. */
function xmlDb(dir: string): string {
  return writeFixtureDatabase(dir, {
    program: 'p',
    contexts: [[0, 0]],
    roots: [{ tag: 'PF', proc: 'main', file: 'a.c', line: 1, children: [{ tag: 'S', line: 2, cost: [5] }] }],
  });
}

describe('file-system errors', () => {
  it('a database file replaced by a directory is named, with "is a directory"', async () => {
    const dir = metaDb(join(tmp, 'metadb'));
    assert.ok((await readProfile(dir)).tree.size > 0);
    rmSync(join(dir, 'profile.db'));
    mkdirSync(join(dir, 'profile.db'));
    await expectReadError(readProfile(dir), join(dir, 'profile.db'), /: is a directory, where a file was expected$/);
  });

  it('a metric-db file that is a symbolic link loop is named, with "is a symbolic link loop"', async () => {
    const dir = xmlDb(join(tmp, 'xmldb'));
    assert.ok((await readProfile(dir)).tree.size > 0);
    const db = join(
      dir,
      readdirSync(dir).find(n => n.endsWith('.metric-db'))!,
    );
    rmSync(db);
    symlinkSync(db, db);
    await expectReadError(readProfile(dir), db, /: is a symbolic link loop$/);
    // The link loop as the path itself.
    const loop = join(tmp, 'loop.prof');
    symlinkSync(loop, loop);
    await expectReadError(readProfile(loop), loop, /: is a symbolic link loop$/);
  });

  it('a missing file and an unreadable file', async () => {
    const missing = join(tmp, 'missing.folded');
    await expectReadError(readProfile(missing), missing, /: no such file or directory$/);
    if (process.getuid?.() === 0) return; // root reads anything
    const locked = join(tmp, 'locked.folded');
    writeFileSync(locked, 'main;f 1\n');
    chmodSync(locked, 0);
    await expectReadError(readProfile(locked), locked, /: permission denied$/);
  });

  it('maps errno errors to plain words and leaves other errors alone', () => {
    const e = Object.assign(new Error('EISDIR: illegal operation on a directory, read'), {
      code: 'EISDIR',
      syscall: 'read',
    });
    assert.ok(isFileSystemError(e));
    const mapped = fromFileSystemError(e, '/data/run.prof');
    assert.ok(mapped instanceof ProfileReadError);
    assert.equal(mapped.message, '/data/run.prof: is a directory, where a file was expected');
    const odd = Object.assign(new Error('x'), { code: 'EXDEV', syscall: 'open', path: '/data/member' });
    assert.equal(fileSystemReason(odd), 'cannot be read (EXDEV, open)');
    assert.equal((fromFileSystemError(odd, '/data') as Error).message, '/data/member: cannot be read (EXDEV, open)');
    const bug = new TypeError('x is undefined');
    assert.equal(fromFileSystemError(bug, '/data'), bug);
  });
});

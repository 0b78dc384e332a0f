import assert from 'node:assert/strict';
import { ProfileReadError } from '../../src/analysis/formats/reader';

/**
 * Asserts that two ways of reading one file (a reader's fast path and its general one) give the same
 * profile, or fail with the same message.
 */
export async function assertReadAlike(
  path: string,
  read: (path: string, fast: boolean) => Promise<unknown>,
): Promise<void> {
  const outcome = (fast: boolean) =>
    read(path, fast).then(
      p => p,
      (e: Error) => e.message,
    );
  assert.deepStrictEqual(await outcome(true), await outcome(false), path);
}

/**
 * Asserts that reading failed the way users must see it: a ProfileReadError whose message starts
 * with the file's path and states the expected reason.
 */
export async function expectReadError(
  read: Promise<unknown>,
  path: string,
  reason: RegExp,
  label = path,
): Promise<void> {
  await assert.rejects(read, (e: Error) => {
    assert.ok(e instanceof ProfileReadError, `${label}: ${e}`);
    assert.ok(e.message.startsWith(path), `${label}: the message names the file: ${e.message}`);
    assert.match(e.message, reason, label);
    return true;
  });
}

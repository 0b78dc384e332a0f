import assert from 'node:assert/strict';
import { ProfileReadError } from '../../src/analysis/formats/reader';

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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProfileReadError } from '../formats/reader';
import { escapeControl, formatError, MESSAGE_LIMIT, QUOTE_LIMIT, quoteContent } from './format-error';

describe('format-error', () => {
  it('escapes control characters, newlines and bidi controls so the text is one inert line', () => {
    assert.equal(escapeControl('a\x1b[2Jb'), 'a\\x1b[2Jb');
    assert.equal(escapeControl('one\ntwo\r\n\tthree'), 'one\\ntwo\\r\\n\\tthree');
    assert.equal(escapeControl('\u0000\u007f\u009b'), '\\x00\\x7f\\x9b');
    assert.equal(escapeControl('x\u202ey\u2028z'), 'x\\u202ey\\u2028z');
    assert.equal(escapeControl('plain ünïcode 𝔸 text'), 'plain ünïcode 𝔸 text');
  });

  it('cuts between characters, never inside an escape or a surrogate pair', () => {
    assert.equal(escapeControl('abcdef', 4), 'abc…');
    // "ab\x1b" would be 6 characters; with a limit of 5 the escape is left out whole.
    assert.equal(escapeControl('ab\x1bcd', 5), 'ab…');
    assert.equal(escapeControl('a𝔸𝔸𝔸', 4), 'a𝔸…');
    assert.equal(escapeControl('abc', 3), 'abc');
  });

  it('quotes file content in double quotes, escaped and cut to the quote limit', () => {
    assert.equal(quoteContent('main;solve'), '"main;solve"');
    const long = 'x'.repeat(100_000);
    const q = quoteContent(long);
    assert.equal(q.length, QUOTE_LIMIT + 2);
    assert.ok(q.endsWith('…"'));
    // 29 escapes of 4 characters and the ellipsis: 117 characters within the quotes.
    assert.equal(quoteContent('\x1b'.repeat(500)), `"${'\\x1b'.repeat(29)}…"`);
  });

  it('formats a read error as its message, anything else as an internal error, always one bounded line', () => {
    const e = new ProfileReadError('/tmp/a\nb.prof', 'line 3: bad "\x1b]0;owned\x07"');
    assert.equal(formatError(e), '/tmp/a\\nb.prof: line 3: bad "\\x1b]0;owned\\x07"');
    assert.equal(formatError(new TypeError('x is undefined')), 'internal error: TypeError: x is undefined');
    assert.equal(formatError('boom'), 'internal error: boom');
    const abort = new Error('/tmp/a: the operation was cancelled');
    abort.name = 'AbortError';
    assert.equal(formatError(abort), '/tmp/a: the operation was cancelled');
    const huge = formatError(new ProfileReadError('/p', 'y'.repeat(50_000) + '\n'));
    assert.equal(huge.length, MESSAGE_LIMIT);
    assert.ok(!huge.includes('\n') && !huge.includes('\x1b'));
  });
});

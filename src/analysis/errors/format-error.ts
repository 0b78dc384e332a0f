/**
 * One formatter for every error a user sees, in the terminal (hpc-lens) and in the editor: one line,
 * no control characters, bounded length. Profiles are untrusted input: an ESC byte copied from a
 * file into a message could rewrite the terminal, a newline could forge a second message, and a
 * whole 100 KB line quoted by a reader would flood the notification.
 */
import { isAbortError, ProfileReadError } from '../formats/reader';

/** Longest piece of file content a message quotes (longer content is cut, with an ellipsis). */
export const QUOTE_LIMIT = 120;
/** Longest message {@link formatError} returns (paths included); longer messages are cut. */
export const MESSAGE_LIMIT = 1000;

/** Characters escaped on output: C0 and C1 controls, DEL, line/paragraph separators and bidi controls. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_CHAR = new RegExp(UNSAFE.source);
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The escape written for one unsafe character. */
function escapeOf(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character written as an escape (`\n`, `\r`, `\t`, `\x1b`, `\u202e`), so
 * it prints as one line and cannot drive a terminal or reorder text; at most `limit` characters,
 * cut with an ellipsis between characters (never inside an escape or a surrogate pair).
 */
export function escapeControl(text: string, limit = Infinity): string {
  const escaped = text.replace(UNSAFE, escapeOf);
  if (escaped.length <= limit) return escaped;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    let piece = text[i]!;
    const code = text.charCodeAt(i);
    if (UNSAFE_CHAR.test(piece)) piece = escapeOf(piece);
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) piece += text[++i];
    if (out.length + piece.length > limit - 1) break;
    out += piece;
  }
  return out + '…';
}

/**
 * File content to quote in a message: control characters escaped, cut to {@link QUOTE_LIMIT}
 * characters, in double quotes. Readers quote lines and values through this, never raw.
 */
export function quoteContent(text: string, limit = QUOTE_LIMIT): string {
  return `"${escapeControl(limit < text.length ? text.slice(0, limit + 1) : text, limit)}"`;
}

/**
 * The one line to show for an error: a ProfileReadError's message (`PATH: reason`), "cancelled"
 * for an abort, else `internal error: …` with the error's own message (a bug in HPC Lens, not in
 * the file: its stack trace belongs in a log, not in front of the user). Always one line of at most
 * {@link MESSAGE_LIMIT} characters with control characters escaped.
 */
export function formatError(error: unknown): string {
  let text: string;
  if (error instanceof ProfileReadError) text = error.message;
  else if (isAbortError(error)) text = (error as Error).message || 'the operation was cancelled';
  else if (error instanceof Error) text = `internal error: ${error.name}: ${error.message}`;
  else text = `internal error: ${String(error)}`;
  return escapeControl(text.length > MESSAGE_LIMIT ? text.slice(0, MESSAGE_LIMIT + 1) : text, MESSAGE_LIMIT);
}

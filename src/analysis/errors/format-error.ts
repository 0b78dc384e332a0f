/**
 * One formatter for every error a user sees, in the terminal (hpc-lens) and in the editor: one line,
 * no control characters, bounded length. Profiles are untrusted input: an ESC byte copied from a
 * file into a message could rewrite the terminal, a newline could forge a second message, and a
 * whole 100 KB line quoted by a reader would flood the notification.
 */
import { isAbortError, ProfileReadError } from '../formats/reader';
import { escapeControl, MESSAGE_LIMIT } from './escape-control';

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

import { ProfileReadError } from '../reader';

/**
 * The columns a reader needs from a text table's header, by name: finds each in the header and
 * throws a ProfileReadError naming the first one that is missing (so a CSV written by another tool
 * version fails with the column to look for, not with wrong numbers).
 */
export function requireColumns<K extends string>(
  path: string,
  header: readonly string[],
  wanted: readonly K[],
): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const name of wanted) {
    const i = header.indexOf(name);
    if (i < 0) throw new ProfileReadError(path, `the header has no column "${name}" (found: ${preview(header)})`);
    out[name] = i;
  }
  return out;
}

/** C's printf spellings of non-finite doubles (`nan`, `-nan`, `inf`, `-inf`), which CODES writes for empty averages. */
const C_NON_FINITE: Record<string, number> = { nan: NaN, '-nan': NaN, inf: Infinity, '-inf': -Infinity };

/**
 * A number from a text field (C's `nan`/`inf` spellings included); a ProfileReadError naming the
 * line and column when it is not one.
 */
export function numberField(path: string, text: string | undefined, line: number, column: string): number {
  if (text !== undefined) {
    // Fast path: Number() parses most fields; it also takes blanks for 0, which are no number.
    const v = Number(text);
    if (v !== 0 ? v === v : text.trim() !== '') return v;
    const special = C_NON_FINITE[text.trim().toLowerCase()];
    if (special !== undefined) return special;
  }
  throw new ProfileReadError(
    path,
    `line ${line}: column "${column}" ${text === undefined ? 'is missing' : `is not a number ("${text}")`}`,
  );
}

function preview(header: readonly string[]): string {
  const shown = header.slice(0, 8).join(', ');
  return header.length > 8 ? `${shown}, …` : shown || 'nothing';
}

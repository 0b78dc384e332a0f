/**
 * Where the lines of a profiled source file are after the user edited it. Profiles record line
 * numbers of the source as it was built; the editor shows the document as it is now. The tracker
 * follows every edit so overlays can shift with inserted and deleted lines, and forget the lines
 * whose own text was changed.
 *
 * All line numbers here are 0-based (as in VS Code's API). A change replaces the text between
 * (startLine, startCharacter) and (endLine, endCharacter) with text containing `insertedLineCount`
 * line breaks, so current lines startLine … endLine become insertedLineCount + 1 lines. Of the
 * lines the change touches, two may survive unchanged, which the caller knows from the characters:
 *
 * - `keepsStartLine`: the change starts at the end of startLine's text and the inserted text begins
 *   with a line break (Enter at the end of a line, lines pasted below it): startLine stays in place.
 * - `keepsEndLine`: the change ends at column 0 of endLine and the inserted text ends with a line
 *   break, or deletes whole lines (starts at column 0, inserts nothing): endLine moves intact to
 *   startLine + insertedLineCount.
 *
 * Every other touched line is gone (edited or deleted). Lines below endLine shift by
 * insertedLineCount − (endLine − startLine). Changes of one editor event are applied in the order
 * VS Code lists them (each range refers to the document after the previous changes of the list).
 */
export interface LineChange {
  startLine: number;
  endLine: number;
  insertedLineCount: number;
  keepsStartLine?: boolean;
  keepsEndLine?: boolean;
}

/** A run of original lines [original, original + length) now at [current, current + length). */
interface Run {
  original: number;
  current: number;
  length: number;
}

export class LineTracker {
  /** Surviving runs, sorted by both original and current line (edits never reorder lines). */
  private runs: Run[];
  private edited = false;

  /** `lineCount`: lines of the original text. */
  constructor(readonly lineCount: number) {
    this.runs = lineCount > 0 ? [{ original: 0, current: 0, length: lineCount }] : [];
  }

  /** True while no change has moved or removed a line. */
  get isIdentity(): boolean {
    return !this.edited;
  }

  /** How many original lines still exist unchanged. */
  get survivingLineCount(): number {
    let n = 0;
    for (const r of this.runs) n += r.length;
    return n;
  }

  /** Back to the original text (e.g. after undoing every edit). */
  reset(): void {
    this.runs = this.lineCount > 0 ? [{ original: 0, current: 0, length: this.lineCount }] : [];
    this.edited = false;
  }

  apply(change: LineChange): void {
    const { startLine: s, endLine: e, insertedLineCount: k } = change;
    if (!(s >= 0 && e >= s && k >= 0))
      throw new RangeError(`invalid line change: lines ${s}…${e}, ${k} line breaks inserted`);
    const keepEnd = change.keepsEndLine === true;
    // One touched line kept twice would be ambiguous; for a single line the end rule wins.
    const keepStart = change.keepsStartLine === true && !(keepEnd && s === e);
    const delta = k - (e - s);
    const out: Run[] = [];
    const push = (original: number, current: number, length: number) => {
      if (length <= 0) return;
      const last = out[out.length - 1];
      if (last && last.original + last.length === original && last.current + last.length === current)
        last.length += length;
      else out.push({ original, current, length });
    };
    for (const r of this.runs) {
      const rEnd = r.current + r.length; // exclusive
      // Above the change: unchanged.
      push(r.original, r.current, Math.min(rEnd, s) - r.current);
      // The start line, kept in place.
      if (keepStart && r.current <= s && s < rEnd) push(r.original + (s - r.current), s, 1);
      // The end line, moved intact below the inserted lines.
      if (keepEnd && r.current <= e && e < rEnd) push(r.original + (e - r.current), s + k, 1);
      // Below the change: shifted.
      const from = Math.max(r.current, e + 1);
      push(r.original + (from - r.current), from + delta, rEnd - from);
    }
    this.runs = out;
    this.edited = true;
  }

  /** The current line of an original line, or undefined when it was edited or deleted. */
  toCurrent(original: number): number | undefined {
    const r = this.find(original, 'original');
    return r ? r.current + (original - r.original) : undefined;
  }

  /** The original line a current line was, or undefined when it is new or edited. */
  toOriginal(current: number): number | undefined {
    const r = this.find(current, 'current');
    return r ? r.original + (current - r.current) : undefined;
  }

  private find(line: number, by: 'original' | 'current'): Run | undefined {
    let lo = 0,
      hi = this.runs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.runs[mid]!;
      if (line < r[by]) hi = mid - 1;
      else if (line >= r[by] + r.length) lo = mid + 1;
      else return r;
    }
    return undefined;
  }
}

/**
 * The line change of one text replacement, from the replaced range, the inserted text and the
 * length of the start line's text before the change (editor adapters know all three).
 */
export function lineChangeOf(
  range: { startLine: number; startCharacter: number; endLine: number; endCharacter: number },
  text: string,
  startLineLength: number,
): LineChange {
  const breaks = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  return {
    startLine: range.startLine,
    endLine: range.endLine,
    insertedLineCount: breaks,
    keepsStartLine: range.startCharacter >= startLineLength && /^(\r\n|\r|\n)/.test(text),
    keepsEndLine:
      range.endCharacter === 0 && (/(\r\n|\r|\n)$/.test(text) || (text === '' && range.startCharacter === 0)),
  };
}

/** A short, fast content hash (FNV-1a, 32 bit) with the length, to recognise an original text again. */
export function textFingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${text.length}:${(h >>> 0).toString(16)}`;
}

import * as vscode from 'vscode';
import { LineTracker, lineChangeOf, textFingerprint } from '../../analysis/source/line-tracker';
import type { DatasetManager } from '../datasets/dataset-manager';
import type { Dataset } from '../datasets/dataset';

/** Where a profiled line is in the document now, and back. */
export interface DocumentLines {
  /** 0-based line in the document of a 1-based profiled line; undefined when that line was edited or deleted. */
  current(profiledLine: number): number | undefined;
  /** 1-based profiled line of a 0-based document line; undefined for new or edited lines. */
  profiled(line: number): number | undefined;
}

/** Shown (CodeLens on line 1, hover, API) when a file's overlays are hidden because its text moved on. */
export const SOURCE_CHANGED = vscode.l10n.t('source changed since the profile');

/** An identity mapping: profiled line n is document line n − 1. */
const UNEDITED: DocumentLines = { current: l => l - 1, profiled: l => l + 1 };

/** One profile's view of a document: the text its lines refer to, and the edits since. */
interface ProfileTrack {
  tracker: LineTracker;
  /** Fingerprint and line count of the text the profile's lines refer to. */
  baseline: string;
  baselineLineCount: number;
  /** Why the overlays of this file are hidden, or undefined. */
  stale: string | undefined;
}

interface TrackedDocument {
  /** The document's lines now (to know a changed line's length before the change); null while closed. */
  lines: string[] | null;
  /** Fingerprint of the text when the document was closed, to pick up the mapping again on reopen. */
  closed: string;
  /** Per loaded profile, in the order first met (the oldest is dropped beyond PROFILES_KEPT). */
  tracks: Map<Dataset, ProfileTrack>;
}

/** Profiles whose edit history is kept per document (switching between datasets keeps it; older ones start over). */
const PROFILES_KEPT = 4;

/**
 * Keeps the editor overlays (heat, diff colours, after-line text, CodeLens, hovers, data movement)
 * on the right lines while the user edits. For a document a profile maps onto, the text when the
 * profile first met it is the baseline; each edit goes through a LineTracker, so marks below
 * inserted or deleted lines shift, and a line whose own text changed loses its mark. When most of
 * the file's profiled lines are gone (a branch switch, a wholesale replacement) the file counts as
 * changed since the profile and its overlays are hidden; getting back to the baseline text (undo,
 * revert) brings them back. Every overlay asks `linesOf` instead of mapping lines itself.
 */
export class SourceEdits implements vscode.Disposable {
  private readonly docs = new Map<string, TrackedDocument>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires after an edit moved, removed or restored profiled lines of a document. */
  readonly onDidChange = this.changed.event;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly profiles: DatasetManager) {
    this.subs = [
      profiles.onDidChange(() => this.onProfile()),
      vscode.workspace.onDidOpenTextDocument(doc => this.onOpen(doc)),
      vscode.workspace.onDidCloseTextDocument(doc => this.onClose(doc)),
      vscode.workspace.onDidChangeTextDocument(e => this.onEdit(e)),
    ];
    this.onProfile();
  }

  /**
   * The line mapping of a document for the active profile: identity when unedited, undefined when
   * the file's overlays are hidden because the source changed since the profile.
   */
  linesOf(doc: vscode.TextDocument): DocumentLines | undefined {
    const lp = this.profiles.active;
    const t = lp && this.trackOf(doc, lp);
    if (!t) return UNEDITED;
    if (t.stale) return undefined;
    if (t.tracker.isIdentity) return UNEDITED;
    const tracker = t.tracker;
    return {
      current: l => tracker.toCurrent(l - 1),
      profiled: l => {
        const o = tracker.toOriginal(l);
        return o === undefined ? undefined : o + 1;
      },
    };
  }

  /** Why the document's overlays are hidden (`source changed since the profile`), or undefined. */
  staleReason(uri: vscode.Uri): string | undefined {
    const lp = this.profiles.active;
    return lp ? this.docs.get(uri.toString())?.tracks.get(lp)?.stale : undefined;
  }

  /** A profile met for the first time refers to the open files as they are now. */
  private onProfile(): void {
    const lp = this.profiles.active;
    if (!lp) return;
    for (const doc of vscode.workspace.textDocuments) this.trackOf(doc, lp);
  }

  /** The profile's track of a document it maps onto, started from the document's text now if new. */
  private trackOf(doc: vscode.TextDocument, lp: Dataset): ProfileTrack | undefined {
    if (!lp.overlayFor(doc.uri)) return undefined;
    const key = doc.uri.toString();
    let d = this.docs.get(key);
    if (!d) this.docs.set(key, (d = { lines: null, closed: '', tracks: new Map() }));
    let t = d.tracks.get(lp);
    if (t) return t;
    const text = doc.getText();
    d.lines ??= splitLines(text);
    t = {
      tracker: new LineTracker(doc.lineCount),
      baseline: textFingerprint(text),
      baselineLineCount: doc.lineCount,
      stale: undefined,
    };
    d.tracks.set(lp, t);
    if (d.tracks.size > PROFILES_KEPT) d.tracks.delete(d.tracks.keys().next().value!);
    return t;
  }

  private onOpen(doc: vscode.TextDocument): void {
    const d = this.docs.get(doc.uri.toString());
    if (!d) {
      const lp = this.profiles.active;
      if (lp) this.trackOf(doc, lp);
      return;
    }
    // Reopened: the baseline again, the text we followed until it closed, or something we did not see change.
    const text = doc.getText();
    const fp = textFingerprint(text);
    d.lines = splitLines(text);
    for (const t of d.tracks.values()) {
      if (fp === t.baseline) {
        t.tracker.reset();
        t.stale = undefined;
      } else if (fp !== d.closed) t.stale = SOURCE_CHANGED;
    }
    this.changed.fire(doc.uri);
  }

  private onClose(doc: vscode.TextDocument): void {
    const d = this.docs.get(doc.uri.toString());
    if (!d) return;
    d.lines = null;
    d.closed = textFingerprint(doc.getText());
  }

  private onEdit(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0) return;
    const doc = e.document;
    const d = this.docs.get(doc.uri.toString());
    if (!d || d.tracks.size === 0) return;
    const lines = d.lines ?? splitLines(doc.getText());
    for (const c of e.contentChanges) {
      const r = c.range;
      const change = lineChangeOf(
        {
          startLine: r.start.line,
          startCharacter: r.start.character,
          endLine: r.end.line,
          endCharacter: r.end.character,
        },
        c.text,
        lines[r.start.line]?.length ?? 0,
      );
      for (const t of d.tracks.values()) t.tracker.apply(change);
      const joined =
        (lines[r.start.line] ?? '').slice(0, r.start.character) +
        c.text +
        (lines[r.end.line] ?? '').slice(r.end.character);
      lines.splice(r.start.line, r.end.line - r.start.line + 1, ...splitLines(joined));
    }
    d.lines = lines;
    // Back at a profile's text (undo, revert): its original lines, exactly.
    let fp: string | undefined;
    for (const [lp, t] of d.tracks) {
      if (doc.lineCount === t.baselineLineCount && (fp ??= textFingerprint(doc.getText())) === t.baseline)
        t.tracker.reset();
      t.stale = isStale(t, lp, doc.uri) ? SOURCE_CHANGED : undefined;
    }
    this.changed.fire(doc.uri);
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.changed.dispose();
  }
}

/** Most of the file's profiled lines (costly lines and function lines) no longer exist as they were. */
function isStale(t: ProfileTrack, lp: Dataset, uri: vscode.Uri): boolean {
  if (t.tracker.isIdentity) return false;
  if (t.tracker.survivingLineCount === 0) return true;
  const o = lp.overlayFor(uri);
  if (!o) return false;
  const profiled = new Set<number>(o.lines.map(l => l.line));
  for (const f of o.functions) if (f.near !== null) profiled.add(f.near);
  let kept = 0,
    inFile = 0;
  for (const line of profiled) {
    if (line > t.baselineLineCount) continue; // not a line of this text at all
    inFile++;
    if (t.tracker.toCurrent(line - 1) !== undefined) kept++;
  }
  return inFile > 0 && kept * 2 < inFile;
}

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

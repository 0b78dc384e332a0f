import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { LineTracker, lineChangeOf, textFingerprint } from './line-tracker';

/** A document as lines, edited the way an editor does, feeding every edit to a tracker. */
class Doc {
  lines: string[];
  readonly tracker: LineTracker;
  constructor(readonly original: string[]) {
    this.lines = [...original];
    this.tracker = new LineTracker(original.length);
  }
  /** Replaces (sl, sc)–(el, ec) with `text`, as one content change. */
  replace(sl: number, sc: number, el: number, ec: number, text: string): void {
    const before = this.lines[sl]!;
    this.tracker.apply(
      lineChangeOf({ startLine: sl, startCharacter: sc, endLine: el, endCharacter: ec }, text, before.length),
    );
    const joined = before.slice(0, sc) + text + this.lines[el]!.slice(ec);
    this.lines.splice(sl, el - sl + 1, ...joined.split(/\r\n|\r|\n/));
  }
  /** Where original line o is now (0-based), or undefined. */
  at(o: number): number | undefined {
    return this.tracker.toCurrent(o);
  }
}

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`);

describe('LineTracker', () => {
  it('shifts every line below an insertion of whole lines above it', () => {
    const d = new Doc(numbered(10));
    d.replace(4, 0, 4, 0, 'a\nb\nc\n');
    assert.deepEqual(
      [0, 3, 4, 5, 9].map(o => d.at(o)),
      [0, 3, 7, 8, 12],
    );
    assert.equal(d.lines[7], 'line 4');
    assert.equal(d.tracker.toOriginal(7), 4);
    assert.equal(d.tracker.toOriginal(5), undefined, 'an inserted line has no profiled line');
  });

  it('keeps a line in place when Enter is pressed at its end', () => {
    const d = new Doc(numbered(5));
    d.replace(2, 'line 2'.length, 2, 'line 2'.length, '\n    ');
    assert.equal(d.at(2), 2);
    assert.equal(d.at(3), 4);
    assert.equal(d.lines[4], 'line 3');
  });

  it('forgets the lines of a deleted range and moves the lines after it up', () => {
    const d = new Doc(numbered(10));
    d.replace(3, 0, 6, 0, ''); // delete lines 3, 4, 5 entirely
    assert.deepEqual(
      [2, 3, 4, 5, 6, 9].map(o => d.at(o)),
      [2, undefined, undefined, undefined, 3, 6],
    );
    assert.equal(d.lines[3], 'line 6');
  });

  it('forgets a line whose own text was edited, and only that line', () => {
    const d = new Doc(numbered(6));
    d.replace(3, 2, 3, 4, 'XX');
    assert.deepEqual(
      numbered(6).map((_, o) => d.at(o)),
      [0, 1, 2, undefined, 4, 5],
    );
    d.replace(1, 0, 1, 0, 'x'); // typing at column 0 edits the line too
    assert.equal(d.at(1), undefined);
  });

  it('forgets both lines when two lines are joined', () => {
    const d = new Doc(numbered(4));
    d.replace(1, 'line 1'.length, 2, 0, '');
    assert.deepEqual(
      [0, 1, 2, 3].map(o => d.at(o)),
      [0, undefined, undefined, 2],
    );
  });

  it('applies the changes of one event in VS Code order (bottom change first)', () => {
    // Multi-cursor: insert a line above line 7 and above line 2 in one event.
    const d = new Doc(numbered(10));
    d.replace(7, 0, 7, 0, 'new\n');
    d.replace(2, 0, 2, 0, 'new\n');
    assert.deepEqual(
      [1, 2, 6, 7, 9].map(o => d.at(o)),
      [1, 3, 7, 9, 11],
    );
    for (let o = 0; o < 10; o++) assert.equal(d.lines[d.at(o)!], `line ${o}`);
  });

  it('loses every line when the whole text is replaced, and comes back after reset', () => {
    const d = new Doc(numbered(8));
    d.replace(0, 0, 7, 'line 7'.length, 'int main() {\n  return 0;\n}');
    assert.equal(d.tracker.survivingLineCount, 0);
    assert.equal(d.at(0), undefined);
    assert.equal(d.tracker.isIdentity, false);
    d.tracker.reset();
    assert.equal(d.tracker.isIdentity, true);
    assert.equal(d.at(5), 5);
  });

  it('maps only lines whose text is unchanged, through many random edits', () => {
    const random = seededRandom(7);
    const pick = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 40; round++) {
      const d = new Doc(numbered(30));
      for (let step = 0; step < 25; step++) {
        const sl = pick(d.lines.length);
        const el = Math.min(d.lines.length - 1, sl + pick(3));
        const sc = pick(d.lines[sl]!.length + 1);
        const ec = el === sl ? sc + pick(d.lines[el]!.length - sc + 1) : pick(d.lines[el]!.length + 1);
        const texts = ['', '\n', 'x', 'a\nb', 'new line\n', '\nafter', '\n\n'];
        d.replace(sl, sc, el, ec, texts[pick(texts.length)]!);
        // Sound: a mapped line holds its original text, mappings keep their order and invert.
        let prev = -1;
        for (let o = 0; o < 30; o++) {
          const c = d.at(o);
          if (c === undefined) continue;
          assert.equal(d.lines[c], `line ${o}`, `round ${round} step ${step}: line ${o} → ${c}`);
          assert.ok(c > prev);
          assert.equal(d.tracker.toOriginal(c), o);
          prev = c;
        }
      }
    }
  });

  it('rejects a malformed change', () => {
    assert.throws(
      () => new LineTracker(3).apply({ startLine: 2, endLine: 1, insertedLineCount: 0 }),
      /invalid line change/,
    );
  });
});

describe('textFingerprint', () => {
  it('tells equal texts from different ones', () => {
    assert.equal(textFingerprint('a\nb'), textFingerprint('a\nb'));
    assert.notEqual(textFingerprint('a\nb'), textFingerprint('a\nc'));
    assert.notEqual(textFingerprint(''), textFingerprint(' '));
  });
});

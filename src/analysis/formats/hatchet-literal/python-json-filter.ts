/**
 * Python's `json.dump` writes float NaN and ±infinity as the bare words `NaN`, `Infinity` and
 * `-Infinity`, which strict JSON (and our tokenizer) rejects. Hatchet literals are dumped from
 * pandas, where NaN means "no value", so this filter rewrites those words to `null` on the way into
 * the tokenizer. It works on bytes split anywhere (inside strings, escapes or the words themselves)
 * and never touches string contents; anything else passes through unchanged for the tokenizer to
 * judge.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const WORDS = ['NaN', 'Infinity', '-Infinity'].map(w => Uint8Array.from(w, ch => ch.charCodeAt(0)));
const NULL = Uint8Array.from('null', ch => ch.charCodeAt(0));
const LONGEST_WORD = Math.max(...WORDS.map(w => w.length));

export class PythonJsonFilter {
  /** How many NaN / Infinity words were replaced so far. */
  replaced = 0;
  private inString = false;
  private escaped = false;
  /** A word being matched outside strings, cut by the end of the previous chunk. */
  private readonly pending = new Uint8Array(LONGEST_WORD);
  private pendingLength = 0;

  /** The filtered bytes of the next chunk. */
  transform(chunk: Uint8Array): Uint8Array {
    // `null` is one byte longer than `NaN`; a pending word may be flushed verbatim in front.
    const out = new Uint8Array(LONGEST_WORD + Math.ceil((chunk.length * 4) / 3) + 4);
    let o = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.inString) {
        out[o++] = c;
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (this.pendingLength > 0) {
        const matched = this.extend(c);
        if (matched === 'partial') continue;
        if (matched === 'word') {
          out.set(NULL, o);
          o += NULL.length;
          this.replaced++;
          continue;
        }
        // Not one of the words: give back what was held and look at `c` afresh.
        out.set(this.pending.subarray(0, this.pendingLength), o);
        o += this.pendingLength;
        this.pendingLength = 0;
      }
      if (c === 0x4e /* N */ || c === 0x49 /* I */ || c === MINUS) {
        this.pending[0] = c;
        this.pendingLength = 1;
      } else {
        out[o++] = c;
        if (c === QUOTE) this.inString = true;
      }
    }
    return out.subarray(0, o);
  }

  /** Bytes held back at the end of input (an incomplete word, left for the tokenizer to reject). */
  flush(): Uint8Array {
    const rest = this.pending.slice(0, this.pendingLength);
    this.pendingLength = 0;
    return rest;
  }

  private extend(c: number): 'partial' | 'word' | 'none' {
    const n = this.pendingLength;
    for (const w of WORDS) {
      if (w.length <= n || w[n] !== c) continue;
      let k = 0;
      while (k < n && w[k] === this.pending[k]) k++;
      if (k < n) continue;
      if (n + 1 === w.length) {
        this.pendingLength = 0;
        return 'word';
      }
      this.pending[n] = c;
      this.pendingLength = n + 1;
      return 'partial';
    }
    return 'none';
  }
}

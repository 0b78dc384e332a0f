/** The decimal node id in `s[begin, end)`, or -1 when that is not 1 to 20 digits. */
export function parseId(s: string, begin: number, end: number): number {
  if (end === begin || end - begin > 20) return -1;
  let v = 0;
  for (let p = begin; p < end; p++) {
    const d = s.charCodeAt(p) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * One line of a `.cali` file: comma-separated entries `key=value[=value…]`, where `\` escapes the
 * next character (`\,` `\=` `\\`; `\n` is a newline, as in Caliper's own reader). For example
 *
 *   __rec=ctx,ref=33=80,attr=66=69,data=0.301407=0.301407
 *
 * has the keys `__rec`, `ref`, `attr` and `data`, the last three with two values each. The parser is
 * reused line after line and keeps values as offsets into the line, so node ids and numbers are
 * read without building a string per value (millions of records make that churn matter). Lines
 * with escapes keep their unescaped values as strings instead.
 */
export class CaliLine {
  /** Number of entries. */
  keyCount = 0;
  // Key k is text[keyBegin[k], keyEnd[k]), or escapedKeys[k] for a line with escapes.
  private readonly keyBegin: number[] = [];
  private readonly keyEnd: number[] = [];
  private readonly escapedKeys: string[] = [];
  /** Entry k's values are values `valueStart[k] .. valueStart[k + 1] - 1`. */
  private readonly valueStart: number[] = [0];
  private valueCount = 0;
  // Value i is text[begin[i], end[i]), where text is the line, or unescaped[i] for a line with escapes.
  private readonly begin: number[] = [];
  private readonly end: number[] = [];
  private readonly unescaped: string[] = [];
  private escaped = false;
  private text = '';

  parse(line: string): void {
    this.keyCount = 0;
    this.valueCount = 0;
    this.text = line;
    this.escaped = line.indexOf('\\') >= 0;
    if (this.escaped) this.parseEscaped(line);
    else this.parsePlain(line);
  }

  /** Index of the entry with this key, or -1. */
  find(key: string): number {
    for (let k = 0; k < this.keyCount; k++) if (this.keyIs(k, key)) return k;
    return -1;
  }

  /** Key of entry k. */
  key(k: number): string {
    return this.escaped ? this.escapedKeys[k]! : this.text.slice(this.keyBegin[k]!, this.keyEnd[k]!);
  }

  /** True when entry k's key is `key`. */
  keyIs(k: number, key: string): boolean {
    if (this.escaped) return this.escapedKeys[k] === key;
    const b = this.keyBegin[k]!;
    return this.keyEnd[k]! - b === key.length && this.text.startsWith(key, b);
  }

  /** True when value j of entry k is `text`. */
  valueIs(k: number, j: number, text: string): boolean {
    const i = this.valueStart[k]! + j;
    if (this.escaped) return this.unescaped[i] === text;
    const b = this.begin[i]!;
    return this.end[i]! - b === text.length && this.text.startsWith(text, b);
  }

  /** Number of values of entry k. */
  count(k: number): number {
    return this.valueStart[k + 1]! - this.valueStart[k]!;
  }

  /** Value j of entry k. */
  value(k: number, j: number): string {
    const i = this.valueStart[k]! + j;
    return this.escaped ? this.unescaped[i]! : this.text.slice(this.begin[i]!, this.end[i]!);
  }

  /** The only value of the entry with this key, or null when the key is absent. */
  single(key: string): string | null {
    const k = this.find(key);
    return k < 0 || this.count(k) === 0 ? null : this.value(k, 0);
  }

  /** Value j of entry k as a node id (decimal digits), or -1 when it is not one. */
  id(k: number, j: number): number {
    const i = this.valueStart[k]! + j;
    if (this.escaped) return parseId(this.unescaped[i]!, 0, this.unescaped[i]!.length);
    return parseId(this.text, this.begin[i]!, this.end[i]!);
  }

  private parsePlain(line: string): void {
    const n = line.length;
    let pos = 0;
    while (pos < n) {
      let end = line.indexOf(',', pos);
      if (end < 0) end = n;
      let eq = line.indexOf('=', pos);
      if (eq < 0 || eq > end) eq = end;
      this.keyBegin[this.keyCount] = pos;
      this.keyEnd[this.keyCount] = eq;
      while (eq < end) {
        let next = line.indexOf('=', eq + 1);
        if (next < 0 || next > end) next = end;
        this.begin[this.valueCount] = eq + 1;
        this.end[this.valueCount++] = next;
        eq = next;
      }
      this.valueStart[++this.keyCount] = this.valueCount;
      pos = end + 1;
    }
  }

  private parseEscaped(line: string): void {
    const n = line.length;
    let word = '';
    let runStart = 0;
    let inKey = true;
    for (let i = 0; i < n; i++) {
      const c = line.charCodeAt(i);
      if (c === 92 /* \ */) {
        word += line.slice(runStart, i);
        if (i + 1 < n) word += line[i + 1] === 'n' ? '\n' : line[i + 1];
        i++;
        runStart = i + 1;
      } else if (c === 61 /* = */ || c === 44 /* , */) {
        word += line.slice(runStart, i);
        runStart = i + 1;
        if (inKey) this.escapedKeys[this.keyCount] = word;
        else this.unescaped[this.valueCount++] = word;
        word = '';
        inKey = false;
        if (c === 44) {
          this.valueStart[++this.keyCount] = this.valueCount;
          inKey = true;
        }
      }
    }
    word += line.slice(runStart, n);
    if (!inKey) {
      this.unescaped[this.valueCount++] = word;
      this.valueStart[++this.keyCount] = this.valueCount;
    } else if (word !== '') {
      this.escapedKeys[this.keyCount] = word;
      this.valueStart[++this.keyCount] = this.valueCount;
    }
  }
}

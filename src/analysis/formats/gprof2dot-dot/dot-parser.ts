/**
 * A streaming parser for the Graphviz DOT language, enough of it for the graphs tools write:
 * `strict? (di)graph id? { … }` with node, edge and attribute statements, `id = id` graph
 * attributes, subgraphs (their statements are read as the graph's), quoted strings (with `\"`,
 * line continuations and `+` concatenation), HTML strings, numerals, ports and the three comment
 * styles. Lines are fed one at a time, so memory stays bounded by the longest statement.
 *
 * Attribute values are returned as written: DOT escapes such as `\n` in labels stay two characters.
 */
import { quoteContent } from '../../errors/format-error';

export type DotAttributes = Map<string, string>;

export interface DotHandler {
  /** A node statement (`a [label="…"]`), with the defaults of `node [...]` applied. */
  node(id: string, attrs: DotAttributes, line: number): void;
  /** One edge of an edge statement (`a -> b -> c` gives two), with `edge [...]` defaults applied. */
  edge(from: string, to: string, attrs: DotAttributes, line: number): void;
}

export class DotSyntaxError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'DotSyntaxError';
  }
}

type Token = { kind: 'id'; value: string; quoted: boolean } | { kind: 'punct'; value: string };

const KEYWORDS = new Set(['node', 'edge', 'graph', 'digraph', 'subgraph', 'strict']);
const isIdStart = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128 || (c >= 48 && c <= 57) || c === 46;
const isIdChar = isIdStart;

interface Statement {
  ids: string[];
  /** The first id was an unquoted keyword (`node`, `edge`, `graph`, `subgraph`). */
  keyword: string | null;
  edge: boolean;
  expectOperand: boolean;
  assign: boolean;
  assignValue: string | null;
  attrs: DotAttributes | null;
  skipPort: boolean;
  line: number;
}

const newStatement = (line: number): Statement => ({
  ids: [],
  keyword: null,
  edge: false,
  expectOperand: false,
  assign: false,
  assignValue: null,
  attrs: null,
  skipPort: false,
  line,
});

export class DotParser {
  private lineNumber = 0;
  // Tokenizer state that spans lines.
  private quoted: string | null = null;
  private html: string | null = null;
  private htmlDepth = 0;
  private blockComment = false;
  private held: string | null = null;
  private heldLine = 0;
  private plusPending = false;
  // Parser state.
  private depth = 0;
  private header: Token[] = [];
  private done = false;
  private cur: Statement = newStatement(0);
  private inAttrs = false;
  private attrKey: string | null = null;
  private attrExpectValue = false;
  private readonly defaults: { node: DotAttributes; edge: DotAttributes }[] = [{ node: new Map(), edge: new Map() }];
  /** Whether the graph is directed (`digraph`). */
  directed = false;

  constructor(private readonly handler: DotHandler) {}

  get finished(): boolean {
    return this.done;
  }

  feedLine(text: string): void {
    this.lineNumber++;
    const n = text.length;
    let i = 0;
    if (this.quoted !== null) {
      // A quoted string continues: a trailing backslash joined the lines, otherwise the newline is part of it.
      if (this.quoted.endsWith('\\')) this.quoted = this.quoted.slice(0, -1);
      else this.quoted += '\n';
    } else if (this.html !== null) {
      this.html += '\n';
    } else if (!this.blockComment && text.trimStart().startsWith('#')) {
      return; // a C preprocessor line, ignored by Graphviz
    }
    while (i < n) {
      if (this.blockComment) {
        const end = text.indexOf('*/', i);
        if (end < 0) return;
        this.blockComment = false;
        i = end + 2;
        continue;
      }
      if (this.quoted !== null) {
        let j = i;
        let buf = '';
        for (; j < n; j++) {
          const c = text.charCodeAt(j);
          if (c === 92 /* \ */ && j + 1 < n && text.charCodeAt(j + 1) === 34) {
            buf += '"';
            j++;
            continue;
          }
          if (c === 34) break;
          buf += text[j];
        }
        this.quoted += buf;
        if (j >= n) return;
        const value = this.quoted;
        this.quoted = null;
        this.quotedToken(value);
        i = j + 1;
        continue;
      }
      if (this.html !== null) {
        for (; i < n; i++) {
          const c = text[i];
          if (c === '<') this.htmlDepth++;
          else if (c === '>' && --this.htmlDepth === 0) break;
          this.html += c;
        }
        if (i >= n) return;
        const value = this.html;
        this.html = null;
        this.token({ kind: 'id', value, quoted: true });
        i++;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 13 || c === 12) {
        i++;
        continue;
      }
      if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) return;
      if (c === 47 && text.charCodeAt(i + 1) === 42) {
        this.blockComment = true;
        i += 2;
        continue;
      }
      if (c === 34) {
        this.quoted = '';
        i++;
        continue;
      }
      if (c === 60 /* < */) {
        this.html = '';
        this.htmlDepth = 1;
        i++;
        continue;
      }
      if (c === 45 /* - */ && (text[i + 1] === '>' || text[i + 1] === '-')) {
        this.token({ kind: 'punct', value: '-' + text[i + 1] });
        i += 2;
        continue;
      }
      if (c === 43 /* + */) {
        this.plusPending = true;
        i++;
        continue;
      }
      if ('{}[]=;,:'.includes(text[i]!)) {
        this.token({ kind: 'punct', value: text[i]! });
        i++;
        continue;
      }
      if (isIdStart(c) || c === 45) {
        let j = i + 1;
        while (j < n && isIdChar(text.charCodeAt(j))) j++;
        this.token({ kind: 'id', value: text.slice(i, j), quoted: false });
        i = j;
        continue;
      }
      throw new DotSyntaxError(this.lineNumber, `unexpected character ${quoteContent(text[i]!)}`);
    }
  }

  /** Call after the last line. */
  end(): void {
    if (this.quoted !== null) throw new DotSyntaxError(this.lineNumber, 'the file ends inside a quoted string');
    if (this.html !== null) throw new DotSyntaxError(this.lineNumber, 'the file ends inside an HTML string');
    if (this.blockComment) throw new DotSyntaxError(this.lineNumber, 'the file ends inside a /* comment */');
    this.flushHeld();
    if (!this.done) {
      throw new DotSyntaxError(
        this.lineNumber,
        this.depth === 0
          ? 'no graph: expected "digraph { … }"'
          : 'the file ends before the graph\'s closing "}" (truncated?)',
      );
    }
  }

  /** Quoted strings are held back so that `"a" + "b"` can be joined. */
  private quotedToken(value: string): void {
    if (this.held !== null && this.plusPending) {
      this.held += value;
      this.plusPending = false;
      return;
    }
    this.flushHeld();
    this.held = value;
    this.heldLine = this.lineNumber;
  }

  private flushHeld(): void {
    if (this.plusPending && this.held === null)
      throw new DotSyntaxError(this.lineNumber, '"+" outside a string concatenation');
    if (this.held === null) return;
    const value = this.held;
    this.held = null;
    if (this.plusPending) throw new DotSyntaxError(this.heldLine, '"+" must join two quoted strings');
    this.parse({ kind: 'id', value, quoted: true }, this.heldLine);
  }

  private token(t: Token): void {
    this.flushHeld();
    this.parse(t, this.lineNumber);
  }

  private parse(t: Token, line: number): void {
    if (this.done) throw new DotSyntaxError(line, `text after the end of the graph (${quoteContent(t.value)})`);
    if (this.depth === 0) return this.headerToken(t, line);
    if (this.inAttrs) return this.attrToken(t, line);
    const s = this.cur;
    if (t.kind === 'punct') {
      switch (t.value) {
        case ';':
          return this.endStatement(line);
        case '{':
          if (s.expectOperand) throw new DotSyntaxError(line, 'edges to subgraphs are not supported');
          if (s.keyword !== 'subgraph') this.endStatement(line);
          this.cur = newStatement(line);
          this.depth++;
          this.defaults.push({ node: new Map(this.scope.node), edge: new Map(this.scope.edge) });
          return;
        case '}':
          this.endStatement(line);
          this.depth--;
          this.defaults.pop();
          if (this.depth === 0) this.done = true;
          return;
        case '[':
          if (s.ids.length === 0 && !s.keyword)
            throw new DotSyntaxError(line, '"[" without a node, edge or attribute statement');
          if (s.expectOperand) throw new DotSyntaxError(line, 'an edge without a target');
          s.attrs ??= new Map();
          this.inAttrs = true;
          this.attrKey = null;
          this.attrExpectValue = false;
          return;
        case '=':
          if (s.ids.length !== 1 || s.edge || s.attrs || s.keyword) throw new DotSyntaxError(line, 'unexpected "="');
          s.assign = true;
          return;
        case '->':
        case '--':
          if (s.ids.length === 0 || s.expectOperand || s.attrs)
            throw new DotSyntaxError(line, `unexpected ${quoteContent(t.value)}`);
          s.expectOperand = true;
          s.edge = true;
          return;
        case ':':
          if (s.ids.length === 0 || s.expectOperand) throw new DotSyntaxError(line, 'unexpected ":"');
          s.skipPort = true;
          return;
        default:
          throw new DotSyntaxError(line, `unexpected ${quoteContent(t.value)}`);
      }
    }
    if (s.assign) {
      if (s.assignValue !== null) {
        this.endStatement(line);
        return this.parse(t, line);
      }
      s.assignValue = t.value;
      return;
    }
    if (s.skipPort) {
      s.skipPort = false;
      return;
    }
    if (s.expectOperand) {
      s.ids.push(t.value);
      s.expectOperand = false;
      return;
    }
    if (s.ids.length === 0 && !s.keyword) {
      const kw = !t.quoted && KEYWORDS.has(t.value.toLowerCase()) ? t.value.toLowerCase() : null;
      s.line = line;
      if (kw === 'subgraph') {
        s.keyword = kw;
        return;
      }
      if (kw === 'node' || kw === 'edge' || kw === 'graph') {
        s.keyword = kw;
        return;
      }
      if (kw) throw new DotSyntaxError(line, `unexpected keyword ${quoteContent(t.value)}`);
      s.ids.push(t.value);
      return;
    }
    if (s.keyword === 'subgraph' && s.ids.length === 0) {
      s.ids.push(t.value);
      return;
    }
    // An id after a complete statement starts the next one (the ";" between statements is optional).
    this.endStatement(line);
    this.parse(t, line);
  }

  private headerToken(t: Token, line: number): void {
    if (t.kind === 'punct' && t.value === '{') {
      const words = this.header.map(h => (h.kind === 'id' && !h.quoted ? h.value.toLowerCase() : ''));
      let k = 0;
      if (words[k] === 'strict') k++;
      if (words[k] !== 'digraph' && words[k] !== 'graph')
        throw new DotSyntaxError(line, 'not a DOT graph: expected "digraph" or "graph" before "{"');
      this.directed = words[k] === 'digraph';
      if (this.header.length > k + 2) throw new DotSyntaxError(line, 'unexpected text before "{"');
      this.depth = 1;
      this.cur = newStatement(line);
      return;
    }
    if (t.kind === 'punct' || this.header.length >= 3)
      throw new DotSyntaxError(line, 'not a DOT graph: expected "digraph name {"');
    this.header.push(t);
  }

  private attrToken(t: Token, line: number): void {
    if (t.kind === 'punct') {
      switch (t.value) {
        case ']':
          this.commitAttr();
          this.inAttrs = false;
          return;
        case ',':
        case ';':
          this.commitAttr();
          return;
        case '=':
          if (this.attrKey === null || this.attrExpectValue)
            throw new DotSyntaxError(line, 'unexpected "=" in an attribute list');
          this.attrExpectValue = true;
          return;
        default:
          throw new DotSyntaxError(line, `unexpected ${quoteContent(t.value)} in an attribute list`);
      }
    }
    if (this.attrExpectValue) {
      this.cur.attrs!.set(this.attrKey!, t.value);
      this.attrKey = null;
      this.attrExpectValue = false;
      return;
    }
    this.commitAttr();
    this.attrKey = t.value;
  }

  private commitAttr(): void {
    if (this.attrExpectValue)
      throw new DotSyntaxError(this.lineNumber, `attribute ${quoteContent(this.attrKey ?? '')} has no value`);
    if (this.attrKey !== null) this.cur.attrs!.set(this.attrKey, 'true');
    this.attrKey = null;
  }

  private get scope() {
    return this.defaults[this.defaults.length - 1]!;
  }

  private endStatement(line: number): void {
    const s = this.cur;
    this.cur = newStatement(line);
    if (s.expectOperand) throw new DotSyntaxError(line, 'an edge without a target');
    if (s.assign) {
      if (s.assignValue === null) throw new DotSyntaxError(line, `${quoteContent(`${s.ids[0]} =`)} without a value`);
      return; // a graph attribute
    }
    if (s.keyword === 'node' || s.keyword === 'edge') {
      for (const [k, v] of s.attrs ?? []) this.scope[s.keyword].set(k, v);
      return;
    }
    if (s.keyword) return; // `graph [...]` or a subgraph header already handled
    if (s.ids.length === 0) return;
    if (s.edge) {
      const attrs = withDefaults(this.scope.edge, s.attrs);
      for (const id of s.ids) this.handler.node(id, new Map(), s.line);
      for (let k = 0; k + 1 < s.ids.length; k++) this.handler.edge(s.ids[k]!, s.ids[k + 1]!, attrs, s.line);
    } else {
      this.handler.node(s.ids[0]!, withDefaults(this.scope.node, s.attrs), s.line);
    }
  }
}

function withDefaults(defaults: DotAttributes, attrs: DotAttributes | null): DotAttributes {
  if (defaults.size === 0) return attrs ?? new Map();
  const out = new Map(defaults);
  for (const [k, v] of attrs ?? []) out.set(k, v);
  return out;
}

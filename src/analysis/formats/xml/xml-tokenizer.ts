/**
 * A fast, byte-level, push-based streaming XML tokenizer for the XML profile formats (HPCToolkit's
 * experiment.xml, CUBE's anchor.xml and CUBE3 files).
 *
 * Bytes go in through {@link XmlTokenizer.write} in chunks split anywhere (inside names, attribute
 * values, entities or multi-byte UTF-8 sequences); SAX-style events come out through an
 * {@link XmlHandler}. Every construct (a tag, a text run, a comment, …) is lexed straight from the
 * chunk when it lies wholly inside it; a construct cut by a chunk boundary is copied into a carry
 * buffer that grows by doubling with the next chunk's bytes until it holds the whole construct, so
 * the work stays linear however the input is split. Element and attribute names, and short attribute
 * values, are decoded through a byte-keyed cache, so repeated names cost no allocation.
 *
 * It checks the well-formedness a reader relies on: matching close tags, quoted attribute values, no
 * duplicate attributes, a single root element, only whitespace, comments and processing
 * instructions around it, defined entities, and complete constructs at the end of input. It skips
 * the XML declaration, processing instructions, comments and a DOCTYPE (with its internal subset),
 * but does not validate characters against the XML `Char` production, does not expand entities
 * declared in a DTD, and does not process namespaces.
 */
import { Buffer } from 'node:buffer';
import { asFastBuffer, cachedString, CACHE_MAX_LEN, HEX, latin1, utf8, type FastBuffer } from '../io/byte-strings';
import { describeByteLimit } from '../io/file-input';
import { DEFAULT_INPUT_LIMITS } from '../reader';

/** The attributes of a start tag, as parallel arrays. The object and its arrays are reused by every tag. */
export class XmlAttributes {
  /** Number of attributes; entries past it in {@link names} and {@link values} are stale. */
  count = 0;
  /** Attribute names in document order. */
  readonly names: string[] = [];
  /** Attribute values (entities decoded, whitespace normalized as XML requires). */
  readonly values: string[] = [];

  /** The value of attribute `name`, or undefined. */
  get(name: string): string | undefined {
    const names = this.names;
    for (let k = 0; k < this.count; k++) if (names[k] === name) return this.values[k];
    return undefined;
  }

  /** A plain-object copy (for tests and for consumers that keep the attributes). */
  toObject(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let k = 0; k < this.count; k++) out[this.names[k]!] = this.values[k]!;
    return out;
  }
}

/** Receives SAX-style events. Implemented by readers as a class (monomorphic calls). */
export interface XmlHandler {
  /**
   * A start tag (or an empty-element tag, which is followed at once by its {@link closeTag}).
   * `attributes` is only valid during the call.
   */
  openTag(name: string, attributes: XmlAttributes): void;
  /** The end of the innermost open element. */
  closeTag(name: string): void;
  /**
   * Character data inside the root element (entities decoded, line ends normalized to `\n`), one call
   * per run of text between two pieces of markup, and one per CDATA section. Runs of only whitespace
   * are left out unless the tokenizer was created with `whitespaceText`. Leave the method out to
   * skip text altogether (then it is not even decoded).
   */
  text?(content: string): void;
  /**
   * Elements whose attributes the handler never reads: `openTag` gets them with no attributes. A start
   * tag of the common kind (see PLAIN_START_TAG) is then matched by its syntax alone, its values not
   * decoded and its attribute names not compared for duplicates; any other is lexed and checked whole.
   */
  readonly unreadAttributes?: ReadonlySet<string>;
}

/** Options of {@link XmlTokenizer}. */
export interface XmlTokenizerOptions {
  /** Deliver runs of text that are only whitespace too (default false). */
  whitespaceText?: boolean;
  /**
   * Longest construct (tag with its attributes, text run, comment) cut by a chunk boundary, in bytes
   * (default 16 MiB, ReadOptions.limits.maxLineLength): a longer one is an XmlSyntaxError before its
   * bytes fill the memory.
   */
  maxConstructBytes?: number;
}

/**
 * Thrown for malformed or truncated input; `offset` is the byte offset in the whole stream (0-based),
 * `line`/`column` 1-based (the column counts bytes from the start of the line).
 */
export class XmlSyntaxError extends Error {
  /** What is wrong, without the position. */
  readonly reason: string;
  /** Byte offset of the offending construct or byte (or of the end of input), 0-based. */
  readonly offset: number;
  /** 1-based line of {@link offset}. */
  readonly line: number;
  /** 1-based column of {@link offset}, in bytes. */
  readonly column: number;

  constructor(reason: string, offset: number, line: number, column: number) {
    super(`${reason} at line ${line}, column ${column} (byte ${offset})`);
    this.name = 'XmlSyntaxError';
    this.reason = reason;
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

// ---------------------------------------------------------------------------------------------
// Byte-level tables and shared helpers
// ---------------------------------------------------------------------------------------------

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const BANG = 0x21;
const EQUALS = 0x3d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const SEMICOLON = 0x3b;
const HASH = 0x23;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;

/** 1 for bytes that may start a name: ASCII letters, `_`, `:`, and every non-ASCII byte (not checked further). */
const NAME_START = new Uint8Array(256);
/** 1 for bytes that may continue a name. */
const NAME_CHAR = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const start = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a || c >= 0x80;
  NAME_START[c] = start ? 1 : 0;
  NAME_CHAR[c] = start || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e ? 1 : 0;
}

/** 1 for XML whitespace. */
const WS = new Uint8Array(256);
WS[SPACE] = WS[TAB] = WS[LF] = WS[CR] = 1;

/** 1 for bytes that need no attention in an attribute value: printable ASCII other than quotes, `&`, `<`. */
const VALUE_PLAIN = new Uint8Array(256);
for (let c = 0x20; c < 0x80; c++) VALUE_PLAIN[c] = c === DQUOTE || c === SQUOTE || c === AMP || c === LT ? 0 : 1;

/** 1 for bytes that need no attention when decoding text: all but `&` and CR. */
const TEXT_PLAIN = new Uint8Array(256).fill(1);
TEXT_PLAIN[AMP] = TEXT_PLAIN[CR] = 0;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const COMMENT_OPEN = Buffer.from('<!--');
const CDATA_OPEN = Buffer.from('<![CDATA[');
const DOCTYPE_OPEN = Buffer.from('<!DOCTYPE');
const COMMENT_CLOSE = Buffer.from('-->');
const DOUBLE_DASH = Buffer.from('--');
const CDATA_CLOSE = Buffer.from(']]>');
const PI_CLOSE = Buffer.from('?>');

const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function describeByte(c: number): string {
  if (c > 0x20 && c < 0x7f) return `character '${String.fromCharCode(c)}'`;
  if (c < 0x80) return `character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  return `byte 0x${c.toString(16).toUpperCase()}`;
}

/** Whether `code` is a character XML allows (the `Char` production). */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** Whether `buf[i, n)` starts with `bytes`: 1 yes, 0 no, -1 cannot tell yet (the buffer ends in a matching prefix). */
function matchAt(buf: FastBuffer, i: number, n: number, bytes: Buffer): number {
  for (let k = 0; k < bytes.length; k++) {
    if (i + k >= n) return -1;
    if (buf[i + k] !== bytes[k]) return 0;
  }
  return 1;
}

/** Index of `needle` in `buf[from, n)` (whole), or -1. */
function find(buf: FastBuffer, needle: Buffer, from: number, n: number): number {
  if (from >= n) return -1;
  const k = buf.indexOf(needle, from);
  return k < 0 || k + needle.length > n ? -1 : k;
}

/** Returned by the construct lexers when the buffer ends before the construct does. */
const INCOMPLETE = -1;
const NEWLINES = /\n/g;
/**
 * Longest chunk given a Latin-1 view; a longer one (a caller writing a whole large file at once) is
 * lexed byte by byte, well away from V8's limit on a string's length (2^29 characters).
 */
const MAX_VIEW_BYTES = 64 << 20;
/** A one-byte name decoded as UTF-8: itself below 0x80, else a lone byte that decodes to U+FFFD. */
const ONE_BYTE_STRINGS = Array.from({ length: 256 }, (_, c) => (c < 0x80 ? String.fromCharCode(c) : '\uFFFD'));
/** Character data up to the next `<`, `&` or CR: past it, text needs no decoding but UTF-8's. */
const PLAIN_TEXT = /[^<&\r]*/y;

/** Returned by {@link XmlTokenizer.plainStartTag} for a tag the byte-by-byte lexer must read. */
const NOT_PLAIN = -2;

/**
 * A whole start tag of the common kind, matched on the chunk's Latin-1 view (string index = byte
 * offset): ASCII names, and attribute values with no `&`, `<`, tab, line end, other control
 * character or non-ASCII byte, so each value is its bytes as they stand. The regular expression runs
 * as native code from its first uses, where the byte loops of {@link XmlTokenizer.lexStartTag} run in
 * V8's interpreter until they are optimised: on a cold process (the CLI, a first read) that is most
 * of the tokenizer's time. Anything else (a tag cut by the chunk's end, entities, line ends in
 * values, UTF-8, syntax errors) goes the byte-by-byte way, which decodes it or reports the error.
 * Whitespace is XML's four characters, not `\s`.
 */
const PLAIN_START_TAG =
  // eslint-disable-next-line no-control-regex -- control characters are what sends a value to the byte lexer
  /<[A-Za-z_:][-\w.:]*(?:[ \t\n\r]+[A-Za-z_:][-\w.:]*[ \t\n\r]*=[ \t\n\r]*(?:"[^"<&\x00-\x1f\x80-\xff]*"|'[^'<&\x00-\x1f\x80-\xff]*'))*[ \t\n\r]*\/?>/y;

/**
 * Push-based streaming tokenizer. Feed bytes with {@link write}, finish with {@link end}; events go
 * to the handler synchronously. After an {@link XmlSyntaxError} (or a handler exception) the
 * tokenizer is unusable: further calls rethrow the first error.
 */
export class XmlTokenizer {
  private readonly handler: XmlHandler;
  private readonly wantText: boolean;
  private readonly whitespaceText: boolean;
  private readonly attributes = new XmlAttributes();
  /** Names of the open elements, `depth` entries in use. */
  private readonly stack: string[] = [];
  private d = 0;
  private rootSeen = false;
  private doctypeSeen = false;
  /** Stream offset where an XML declaration may stand (0, or 3 after a BOM). */
  private declarationAt = 0;
  private consumed = 0;
  private ended = false;
  private error: unknown = null;

  /** The buffer being lexed (a chunk or the carry) and the stream offset of its first byte. */
  private buf: FastBuffer = Buffer.alloc(0) as FastBuffer;
  private bufBase = 0;
  /** Bytes of a construct cut by a chunk boundary, from its first byte; `carry[0]` is at stream offset `carryBase`. */
  private carry: FastBuffer = Buffer.allocUnsafe(1024) as FastBuffer;
  private carryLen = 0;
  private carryBase = 0;
  /** Length of the carry when it was last lexed (and found to end inside a construct). */
  private carryTried = 0;
  /** The chunk being written ({@link viewOf}) decoded as Latin-1, made on its first plain start tag. */
  private view = '';
  private viewOf: FastBuffer | null = null;
  /** Per first byte, the element (attribute) name a plain start tag had last; see {@link plainStartTag}. */
  private readonly recentName: (string | undefined)[] = new Array<string | undefined>(256);
  private readonly recentAttribute: (string | undefined)[] = new Array<string | undefined>(256);
  /** Whether the chunk being lexed may have a view (not the carry, and not too long for one string). */
  private viewable = false;

  /** Lines are counted lazily: newlines before stream offset `lineCounted` are counted in `lineNo`. */
  private lineCounted = 0;
  private lineNo = 1;
  /** Stream offset of the first byte of line `lineNo`. */
  private lineStart = 0;
  /** Stream offset of the construct whose event is being delivered (for {@link line}). */
  private eventOffset = 0;

  private readonly maxConstructBytes: number;
  private readonly unreadAttributes: ReadonlySet<string> | null;

  /** @param handler receives the events, synchronously from {@link write} and {@link end}. */
  constructor(handler: XmlHandler, options: XmlTokenizerOptions = {}) {
    this.handler = handler;
    this.wantText = typeof handler.text === 'function';
    this.whitespaceText = options.whitespaceText ?? false;
    this.maxConstructBytes = options.maxConstructBytes ?? DEFAULT_INPUT_LIMITS.maxLineLength;
    this.unreadAttributes = handler.unreadAttributes ?? null;
  }

  /** Bytes consumed so far: the total length of the chunks written. */
  get bytesConsumed(): number {
    return this.consumed;
  }

  /** Number of open elements. Inside `openTag` it counts the new element; inside `closeTag` it no longer does. */
  get depth(): number {
    return this.d;
  }

  /** 1-based line where the construct of the event being delivered starts (for a handler's error messages). */
  get line(): number {
    this.countLines(this.eventOffset);
    return this.lineNo;
  }

  /** Feed the next chunk (split anywhere, including inside names, values, entities and multi-byte characters). */
  write(chunk: Uint8Array): void {
    if (this.error !== null) throw this.error;
    if (this.ended) throw new Error('XmlTokenizer: write() after end()');
    const n = chunk.length;
    if (n === 0) return;
    const buf = asFastBuffer(chunk);
    const base = this.consumed;
    this.consumed += n;
    try {
      let i = 0;
      // A cut construct: lex the carry again only once it has doubled (or grown by 256 bytes), which
      // keeps the work linear however small the chunks are.
      while (this.carryLen > 0) {
        if (i === n) return;
        const need = Math.max(this.carryTried * 2, this.carryTried + 256);
        const take = Math.min(n - i, need - this.carryLen);
        this.append(buf, i, i + take);
        i += take;
        if (this.carryLen < need) return;
        this.runCarry(false);
      }
      if (i < n) {
        this.buf = buf;
        this.bufBase = base;
        this.viewable = n <= MAX_VIEW_BYTES;
        const r = this.run(buf, i, n, false);
        this.countLines(base + r);
        if (r < n) {
          this.carryBase = base + r;
          this.append(buf, r, n);
          this.carryTried = n - r;
        }
      }
    } catch (e) {
      this.error = e;
      throw e;
    } finally {
      this.buf = this.carry;
      this.bufBase = this.carryBase;
      this.view = '';
      this.viewOf = null;
      this.viewable = false;
    }
  }

  /**
   * Signal end of input; throws an XmlSyntaxError if the document is incomplete (a truncated file),
   * has no root element, or ends inside a construct.
   */
  end(): void {
    if (this.error !== null) throw this.error;
    if (this.ended) return;
    this.ended = true;
    try {
      if (this.carryLen > 0) this.runCarry(true);
      if (this.d > 0) this.fail(`unexpected end of input: <${this.stack[this.d - 1]}> is not closed`, this.consumed);
      if (!this.rootSeen)
        this.fail(this.consumed === 0 ? 'empty document' : 'unexpected end of input: no root element', this.consumed);
    } catch (e) {
      this.error = e;
      throw e;
    }
  }

  // -------------------------------------------------------------------------------------------

  private append(buf: FastBuffer, start: number, end: number): void {
    const len = end - start;
    if (this.carryLen + len > this.maxConstructBytes)
      this.fail(
        `a tag or text run longer than ${describeByteLimit(this.maxConstructBytes)}, the limit maxLineLength,`,
        this.carryBase,
      );
    if (this.carryLen + len > this.carry.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.carry.length * 2, this.carryLen + len)) as FastBuffer;
      this.carry.copy(grown, 0, 0, this.carryLen);
      this.carry = grown;
    }
    buf.copy(this.carry, this.carryLen, start, end);
    this.carryLen += len;
  }

  /** Lexes the carry; keeps the bytes of a construct still cut at its end. */
  private runCarry(final: boolean): void {
    const carry = this.carry;
    this.buf = carry;
    this.bufBase = this.carryBase;
    const r = this.run(carry, 0, this.carryLen, final);
    this.countLines(this.carryBase + r);
    if (r > 0) {
      carry.copy(carry, 0, r, this.carryLen);
      this.carryLen -= r;
      this.carryBase += r;
    }
    this.carryTried = this.carryLen;
    if (this.carryLen === 0 && carry.length > 1 << 16) this.carry = Buffer.allocUnsafe(1024) as FastBuffer;
  }

  /** Advances the line count to stream offset `to`, which must lie in the current buffer. */
  private countLines(to: number): void {
    if (to <= this.lineCounted) return;
    const buf = this.buf;
    const base = this.bufBase;
    let p = Math.max(this.lineCounted - base, 0);
    const end = to - base;
    if (this.viewOf === buf) {
      // One native match over the chunk's view instead of a search call per line.
      const newlines = this.view.substring(p, end).match(NEWLINES);
      if (newlines !== null) {
        this.lineNo += newlines.length;
        this.lineStart = base + this.view.lastIndexOf('\n', end - 1) + 1;
      }
      this.lineCounted = to;
      return;
    }
    for (;;) {
      const k = buf.indexOf(LF, p);
      if (k < 0 || k >= end) break;
      this.lineNo++;
      this.lineStart = base + k + 1;
      p = k + 1;
    }
    this.lineCounted = to;
  }

  /**
   * The main loop over `buf[i, n)`, at the start of a construct. Returns `n`, or the index where a
   * construct cut by the end of the buffer starts. With `final`, the end of the buffer is the end of
   * input: a cut construct is an error.
   */
  private run(buf: FastBuffer, i: number, n: number, final: boolean): number {
    if (this.bufBase + i === 0 && buf[i] === 0xef) {
      const bom = matchAt(buf, i, n, UTF8_BOM);
      if (bom < 0) return final ? this.fail('unexpected end of input inside a byte order mark', this.consumed) : i;
      if (bom > 0) {
        i += 3;
        this.declarationAt = 3;
      }
    }
    while (i < n) {
      const start = i;
      let r: number;
      if (buf[i] !== LT) {
        r = this.lexText(buf, i, n, final);
      } else if (i + 1 >= n) {
        r = INCOMPLETE;
      } else {
        const c = buf[i + 1]!;
        if (NAME_START[c] === 1) {
          // The carry's bytes change under the same buffer: only written chunks have a view.
          r = this.viewable && buf !== this.carry ? this.plainStartTag(buf, i) : NOT_PLAIN;
          if (r === NOT_PLAIN) r = this.lexStartTag(buf, i, n);
        } else if (c === SLASH) {
          r = this.viewable && buf !== this.carry ? this.plainEndTag(buf, i) : NOT_PLAIN;
          if (r === NOT_PLAIN) r = this.lexEndTag(buf, i, n);
        } else if (c === QUESTION) r = this.lexProcessingInstruction(buf, i, n);
        else if (c === BANG) r = this.lexBang(buf, i, n);
        else r = this.unexpected(c, this.bufBase + i + 1, "expected a name, '/', '?' or '!' after '<'");
      }
      if (r === INCOMPLETE) {
        if (final) this.failCut(buf, start, n);
        return start;
      }
      i = r;
    }
    return n;
  }

  /** Character data from `i` to the next `<` (or the end of input when `final`). */
  private lexText(buf: FastBuffer, i: number, n: number, final: boolean): number {
    const start = i;
    while (i < n && WS[buf[i]!] === 1) i++;
    const blank = i === n || buf[i] === LT;
    // Whether the text needs entity or line-end decoding: 0 no, 1 yes, -1 not known yet.
    let decoding = -1;
    if (!blank) {
      if (this.viewable && buf !== this.carry) {
        // One native scan over the chunk's view finds the end and whether anything needs decoding.
        const view = this.viewFor(buf);
        PLAIN_TEXT.lastIndex = start;
        PLAIN_TEXT.test(view);
        const k = PLAIN_TEXT.lastIndex;
        if (k === n || buf[k] === LT) {
          i = k;
          decoding = 0;
        } else {
          const lt = view.indexOf('<', k);
          i = lt < 0 ? n : lt;
          decoding = 1;
        }
      } else {
        const k = buf.indexOf(LT, i);
        i = k < 0 || k > n ? n : k;
      }
    }
    if (i === n) {
      if (!final) return INCOMPLETE;
      if (this.d > 0) this.fail(`unexpected end of input: <${this.stack[this.d - 1]}> is not closed`, this.consumed);
    }
    if (this.d === 0) {
      if (!blank) {
        let j = start;
        while (WS[buf[j]!] === 1) j++;
        this.fail(`text ${this.rootSeen ? 'after' : 'before'} the root element`, this.bufBase + j);
      }
      return i;
    }
    if (this.wantText && (!blank || this.whitespaceText)) {
      // A lone line end between tags (most whitespace text of a pretty-printed document) is the same
      // string every time: no decoding pass and no slice.
      const text =
        blank && i - start === 1 && buf[start] === LF
          ? '\n'
          : decoding === 0
            ? utf8(buf, start, i)
            : decoding === 1
              ? this.decode(buf, start, i, false)
              : this.decodeText(buf, start, i);
      this.eventOffset = this.bufBase + start;
      this.handler.text!(text);
    }
    return i;
  }

  /** `<name attr="value" …>` or `<name … />` at `i`. */
  private lexStartTag(buf: FastBuffer, i: number, n: number): number {
    const tagStart = i;
    let j = i + 1;
    while (j < n && NAME_CHAR[buf[j]!] === 1) j++;
    if (j >= n) return INCOMPLETE;
    const name = this.name(buf, i + 1, j);
    const attrs = this.attributes;
    const names = attrs.names;
    const values = attrs.values;
    let count = 0;
    let empty = false;
    for (;;) {
      const ws = j;
      while (j < n && WS[buf[j]!] === 1) j++;
      if (j >= n) return INCOMPLETE;
      let c = buf[j]!;
      if (c === GT) {
        j++;
        break;
      }
      if (c === SLASH) {
        if (j + 1 >= n) return INCOMPLETE;
        if (buf[j + 1] !== GT)
          this.unexpected(buf[j + 1]!, this.bufBase + j + 1, `expected '>' after '/' in the start tag of <${name}>`);
        j += 2;
        empty = true;
        break;
      }
      if (NAME_START[c] !== 1)
        this.unexpected(c, this.bufBase + j, `expected an attribute name, '>' or '/>' in the start tag of <${name}>`);
      if (ws === j)
        this.unexpected(c, this.bufBase + j, `expected whitespace before an attribute in the start tag of <${name}>`);
      const nameStart = j;
      while (j < n && NAME_CHAR[buf[j]!] === 1) j++;
      if (j >= n) return INCOMPLETE;
      const nameEnd = j;
      while (j < n && WS[buf[j]!] === 1) j++;
      if (j >= n) return INCOMPLETE;
      if (buf[j] !== EQUALS)
        this.unexpected(
          buf[j]!,
          this.bufBase + j,
          `expected '=' after attribute ${latin1(buf, nameStart, nameEnd)} of <${name}>`,
        );
      j++;
      while (j < n && WS[buf[j]!] === 1) j++;
      if (j >= n) return INCOMPLETE;
      const q = buf[j]!;
      if (q !== DQUOTE && q !== SQUOTE)
        this.unexpected(
          q,
          this.bufBase + j,
          `expected a quoted value for attribute ${latin1(buf, nameStart, nameEnd)} of <${name}>`,
        );
      const valueStart = ++j;
      let flags = 0;
      for (;;) {
        while (j < n && VALUE_PLAIN[buf[j]!] === 1) j++;
        if (j >= n) return INCOMPLETE;
        c = buf[j]!;
        if (c === q) break;
        if (c >= 0x80) flags |= 2;
        else if (c === AMP || c === TAB || c === LF || c === CR) flags |= 1;
        else if (c === LT)
          this.unexpected(
            c,
            this.bufBase + j,
            `'<' is not allowed in an attribute value (attribute ${latin1(buf, nameStart, nameEnd)} of <${name}>)`,
          );
        else if (c !== DQUOTE && c !== SQUOTE)
          this.unexpected(
            c,
            this.bufBase + j,
            `control characters are not allowed in an attribute value (attribute ${latin1(buf, nameStart, nameEnd)} of <${name}>)`,
          );
        j++;
      }
      const attrName = this.name(buf, nameStart, nameEnd);
      for (let k = 0; k < count; k++) {
        if (names[k] === attrName)
          this.fail(`duplicate attribute ${attrName} in the start tag of <${name}>`, this.bufBase + nameStart);
      }
      names[count] = attrName;
      values[count] =
        flags === 0
          ? latin1(buf, valueStart, j)
          : flags === 2
            ? utf8(buf, valueStart, j)
            : this.decode(buf, valueStart, j, true);
      count++;
      j++;
    }
    this.startTag(name, count, empty, tagStart);
    return j;
  }

  /**
   * A start tag at `i` that {@link PLAIN_START_TAG} matches, lexed from the chunk's Latin-1 view with
   * native searches; returns the index past its `>`, or {@link NOT_PLAIN} (nothing delivered) when the
   * byte-by-byte lexer must read it.
   */
  private plainStartTag(buf: FastBuffer, i: number): number {
    const view = this.viewFor(buf);
    PLAIN_START_TAG.lastIndex = i;
    if (!PLAIN_START_TAG.test(view)) return NOT_PLAIN;
    const end = PLAIN_START_TAG.lastIndex;
    let j = i + 1;
    // The name seen last with this first byte, compared natively on the view: a repeated name (most
    // tags) costs no JavaScript loop over its bytes, which matters while the lexer still runs cold.
    const first = buf[j]!;
    let name = this.recentName[first];
    if (name !== undefined && view.startsWith(name, j) && NAME_CHAR[buf[j + name.length]!] !== 1) j += name.length;
    else {
      while (NAME_CHAR[buf[j]!] === 1) j++;
      name = this.memoName(this.recentName, buf, i + 1, j);
    }
    if (this.unreadAttributes !== null && this.unreadAttributes.has(name)) {
      // Its values are not needed: the expression has checked the tag's syntax (HPCToolkit's `<M>`,
      // half the start tags of an experiment.xml read with its metric-db files).
      this.startTag(name, 0, buf[end - 2] === SLASH, i);
      return end;
    }
    const attrs = this.attributes;
    const names = attrs.names;
    const values = attrs.values;
    let count = 0;
    // The expression has checked the syntax: each attribute is `name ws* = ws* "value"` after whitespace.
    for (;;) {
      while (WS[buf[j]!] === 1) j++;
      const c = buf[j]!;
      if (c === GT || c === SLASH) break;
      const nameStart = j;
      const equals = view.indexOf('=', j);
      let nameEnd = equals;
      while (WS[buf[nameEnd - 1]!] === 1) nameEnd--;
      let valueStart = equals + 1;
      while (WS[buf[valueStart]!] === 1) valueStart++;
      const valueEnd = view.indexOf(buf[valueStart] === DQUOTE ? '"' : "'", ++valueStart);
      let attrName = this.recentAttribute[buf[nameStart]!];
      if (attrName === undefined || attrName.length !== nameEnd - nameStart || !view.startsWith(attrName, nameStart))
        attrName = this.memoName(this.recentAttribute, buf, nameStart, nameEnd);
      // A duplicate: the byte lexer reports it.
      for (let k = 0; k < count; k++) if (names[k] === attrName) return NOT_PLAIN;
      names[count] = attrName;
      values[count] = latin1(buf, valueStart, valueEnd);
      count++;
      j = valueEnd + 1;
    }
    this.startTag(name, count, buf[end - 2] === SLASH, i);
    return end;
  }

  /**
   * `</name>` at `i` when it closes the innermost open element, checked on the chunk's view with
   * native compares; {@link NOT_PLAIN} (nothing delivered) for anything else, which the byte lexer
   * reads or reports.
   */
  private plainEndTag(buf: FastBuffer, i: number): number {
    if (this.d === 0) return NOT_PLAIN;
    const open = this.stack[this.d - 1]!;
    if (!this.viewFor(buf).startsWith(open, i + 2)) return NOT_PLAIN;
    let j = i + 2 + open.length;
    while (WS[buf[j]!] === 1) j++;
    if (buf[j] !== GT) return NOT_PLAIN;
    this.d--;
    this.eventOffset = this.bufBase + i;
    this.handler.closeTag(open);
    return j + 1;
  }

  /** The chunk `buf` decoded as Latin-1 (string index = byte offset), made once per written chunk. */
  private viewFor(buf: FastBuffer): string {
    if (this.viewOf !== buf) {
      this.view = latin1(buf, 0, buf.length);
      this.viewOf = buf;
    }
    return this.view;
  }

  /** Delivers a lexed start tag (and the end of an empty-element tag) whose `count` attributes are in place. */
  private startTag(name: string, count: number, empty: boolean, tagStart: number): void {
    if (this.d === 0) {
      if (this.rootSeen) this.fail(`a second root element <${name}>: only one is allowed`, this.bufBase + tagStart);
      this.rootSeen = true;
    }
    this.attributes.count = count > 0 && this.unreadAttributes !== null && this.unreadAttributes.has(name) ? 0 : count;
    this.stack[this.d++] = name;
    this.eventOffset = this.bufBase + tagStart;
    this.handler.openTag(name, this.attributes);
    if (empty) {
      this.d--;
      this.handler.closeTag(name);
    }
  }

  /** `</name>` at `i`. */
  private lexEndTag(buf: FastBuffer, i: number, n: number): number {
    let j = i + 2;
    if (j >= n) return INCOMPLETE;
    if (NAME_START[buf[j]!] !== 1) this.unexpected(buf[j]!, this.bufBase + j, "expected a name after '</'");
    while (j < n && NAME_CHAR[buf[j]!] === 1) j++;
    if (j >= n) return INCOMPLETE;
    const nameEnd = j;
    while (j < n && WS[buf[j]!] === 1) j++;
    if (j >= n) return INCOMPLETE;
    const name = this.name(buf, i + 2, nameEnd);
    if (buf[j] !== GT) this.unexpected(buf[j]!, this.bufBase + j, `expected '>' to end </${name}`);
    if (this.d === 0) this.fail(`end tag </${name}> without a matching start tag`, this.bufBase + i);
    const open = this.stack[this.d - 1]!;
    if (open !== name) this.fail(`end tag </${name}> does not match the start tag <${open}>`, this.bufBase + i);
    this.d--;
    this.eventOffset = this.bufBase + i;
    this.handler.closeTag(name);
    return j + 1;
  }

  /** `<?target …?>` at `i`, including the XML declaration. */
  private lexProcessingInstruction(buf: FastBuffer, i: number, n: number): number {
    let j = i + 2;
    if (j >= n) return INCOMPLETE;
    if (NAME_START[buf[j]!] !== 1)
      this.unexpected(buf[j]!, this.bufBase + j, "expected a processing-instruction target after '<?'");
    while (j < n && NAME_CHAR[buf[j]!] === 1) j++;
    if (j >= n) return INCOMPLETE;
    if (
      j - i === 5 &&
      (buf[i + 2]! | 0x20) === 0x78 &&
      (buf[i + 3]! | 0x20) === 0x6d &&
      (buf[i + 4]! | 0x20) === 0x6c
    ) {
      if (this.bufBase + i !== this.declarationAt)
        this.fail(
          'the XML declaration (or a processing instruction named xml) must come first in the document',
          this.bufBase + i,
        );
    }
    if (buf[j] !== QUESTION && WS[buf[j]!] !== 1)
      this.unexpected(buf[j]!, this.bufBase + j, "expected whitespace or '?>' after the processing-instruction target");
    const k = find(buf, PI_CLOSE, j, n);
    return k < 0 ? INCOMPLETE : k + 2;
  }

  /** `<!--…-->`, `<![CDATA[…]]>` or `<!DOCTYPE …>` at `i`. */
  private lexBang(buf: FastBuffer, i: number, n: number): number {
    let m = matchAt(buf, i, n, COMMENT_OPEN);
    if (m > 0) {
      const k = find(buf, COMMENT_CLOSE, i + 4, n);
      if (k < 0) return INCOMPLETE;
      const dd = find(buf, DOUBLE_DASH, i + 4, n);
      if (dd !== k) this.fail("'--' is not allowed inside a comment", this.bufBase + dd);
      return k + 3;
    }
    if (m < 0) return INCOMPLETE;
    m = matchAt(buf, i, n, CDATA_OPEN);
    if (m > 0) {
      if (this.d === 0) this.fail('a CDATA section outside the root element', this.bufBase + i);
      const k = find(buf, CDATA_CLOSE, i + 9, n);
      if (k < 0) return INCOMPLETE;
      if (this.wantText) {
        let blank = true;
        for (let j = i + 9; j < k && blank; j++) blank = WS[buf[j]!] === 1;
        if (k > i + 9 && (!blank || this.whitespaceText)) {
          const cr = buf.indexOf(CR, i + 9);
          const text = cr >= 0 && cr < k ? this.decode(buf, i + 9, k, false, false) : utf8(buf, i + 9, k);
          this.eventOffset = this.bufBase + i;
          this.handler.text!(text);
        }
      }
      return k + 3;
    }
    if (m < 0) return INCOMPLETE;
    m = matchAt(buf, i, n, DOCTYPE_OPEN);
    if (m > 0) {
      if (this.rootSeen || this.doctypeSeen)
        this.fail('a DOCTYPE is only allowed once, before the root element', this.bufBase + i);
      const k = this.skipDoctype(buf, i + 9, n);
      if (k < 0) return INCOMPLETE;
      this.doctypeSeen = true;
      return k;
    }
    if (m < 0) return INCOMPLETE;
    return this.unexpected(buf[i + 2]!, this.bufBase + i + 2, "expected '--', '[CDATA[' or 'DOCTYPE' after '<!'");
  }

  /** The rest of a DOCTYPE from `j` (just after `<!DOCTYPE`): quoted literals, and an internal subset with comments and PIs. */
  private skipDoctype(buf: FastBuffer, j: number, n: number): number {
    if (j >= n) return INCOMPLETE;
    if (WS[buf[j]!] !== 1) this.unexpected(buf[j]!, this.bufBase + j, "expected whitespace after '<!DOCTYPE'");
    let subset = false;
    while (j < n) {
      const c = buf[j]!;
      if (c === DQUOTE || c === SQUOTE) {
        const k = buf.indexOf(c, j + 1);
        if (k < 0 || k >= n) return INCOMPLETE;
        j = k + 1;
      } else if (c === GT && !subset) {
        return j + 1;
      } else if (c === 0x5b) {
        if (subset) this.unexpected(c, this.bufBase + j, 'nested internal subsets are not allowed');
        subset = true;
        j++;
      } else if (c === 0x5d && subset) {
        subset = false;
        j++;
      } else if (c === LT && subset) {
        const comment = matchAt(buf, j, n, COMMENT_OPEN);
        if (comment < 0) return INCOMPLETE;
        const close = comment > 0 ? COMMENT_CLOSE : buf[j + 1] === QUESTION ? PI_CLOSE : null;
        if (close === null) {
          j++;
          continue;
        }
        const k = find(buf, close, j + 2, n);
        if (k < 0) return INCOMPLETE;
        j = k + close.length;
      } else {
        j++;
      }
    }
    return INCOMPLETE;
  }

  /**
   * {@link name}, remembered in `memo` under its first byte when it is ASCII (only then is it the
   * Latin-1 view's text, which the memo's native compare reads).
   */
  private memoName(memo: (string | undefined)[], buf: FastBuffer, start: number, end: number): string {
    const name = this.name(buf, start, end);
    if (name.length === end - start) memo[buf[start]!] = name;
    return name;
  }

  /** An element or attribute name. */
  private name(buf: FastBuffer, start: number, end: number): string {
    // One-letter names (HPCToolkit's i, n, f, l, M, S, …) skip the cache's hashing.
    if (end - start === 1) return ONE_BYTE_STRINGS[buf[start]!]!;
    return end - start <= CACHE_MAX_LEN ? cachedString(buf, start, end) : utf8(buf, start, end);
  }

  /** Text between markup: entities decoded, CR and CRLF read as LF. */
  private decodeText(buf: FastBuffer, start: number, end: number): string {
    let j = start;
    while (j < end && TEXT_PLAIN[buf[j]!] === 1) j++;
    return j === end ? utf8(buf, start, end) : this.decode(buf, start, end, false);
  }

  /**
   * Slow path of attribute values and text: decodes entities (unless `entities` is false, for CDATA)
   * and normalizes line ends; in an attribute value tabs and line ends become spaces.
   */
  private decode(buf: FastBuffer, start: number, end: number, attribute: boolean, entities = true): string {
    let out = '';
    let run = start;
    // OR of the bytes of the current run: below 0x80, the run is ASCII and decodes without the native call.
    let high = 0;
    let j = start;
    while (j < end) {
      const c = buf[j]!;
      if (c === AMP && entities) {
        if (j > run) out += high < 0x80 ? latin1(buf, run, j) : utf8(buf, run, j);
        j = this.entity(buf, j, end);
        out += this.entityValue;
      } else if (c === CR) {
        if (j > run) out += high < 0x80 ? latin1(buf, run, j) : utf8(buf, run, j);
        out += attribute ? ' ' : '\n';
        j += buf[j + 1] === LF && j + 1 < end ? 2 : 1;
      } else if (attribute && (c === LF || c === TAB)) {
        if (j > run) out += high < 0x80 ? latin1(buf, run, j) : utf8(buf, run, j);
        out += ' ';
        j++;
      } else {
        high |= c;
        j++;
        continue;
      }
      run = j;
      high = 0;
    }
    if (run < end) out += high < 0x80 ? latin1(buf, run, end) : utf8(buf, run, end);
    return out;
  }

  /** Result of {@link entity}. */
  private entityValue = '';

  /** Decodes the reference at `buf[i]` (`&`) into {@link entityValue}; returns the index past its `;`. */
  private entity(buf: FastBuffer, i: number, end: number): number {
    let j = i + 1;
    if (j < end && buf[j] === HASH) {
      j++;
      const hex = j < end && buf[j] === 0x78;
      if (hex) j++;
      const digitsStart = j;
      let code = 0;
      for (; j < end && buf[j] !== SEMICOLON; j++) {
        const v = HEX[buf[j]!]!;
        if (v < 0 || (!hex && v > 9))
          this.unexpected(buf[j]!, this.bufBase + j, `expected a ${hex ? 'hex ' : ''}digit in a character reference`);
        code = Math.min(code * (hex ? 16 : 10) + v, 0x110000);
      }
      if (j >= end) this.fail("unterminated character reference (no ';')", this.bufBase + i);
      if (j === digitsStart) this.fail('empty character reference', this.bufBase + i);
      if (!isXmlChar(code))
        this.fail(`character reference ${latin1(buf, i, j + 1)} is not an XML character`, this.bufBase + i);
      this.entityValue = String.fromCodePoint(code);
      return j + 1;
    }
    while (j < end && NAME_CHAR[buf[j]!] === 1) j++;
    if (j >= end || buf[j] !== SEMICOLON) this.fail("unterminated entity reference (no ';')", this.bufBase + i);
    const name = utf8(buf, i + 1, j);
    const value = Object.hasOwn(PREDEFINED_ENTITIES, name) ? PREDEFINED_ENTITIES[name] : undefined;
    if (value === undefined)
      this.fail(name === '' ? "empty entity reference '&;'" : `undefined entity &${name};`, this.bufBase + i);
    this.entityValue = value;
    return j + 1;
  }

  /** The markup at `buf[start]` is cut by the end of input (text never is: it ends there). */
  private failCut(buf: FastBuffer, start: number, n: number): never {
    const c = buf[start + 1];
    let what = 'the markup';
    if (c === undefined || start + 1 >= n) what = "the markup '<'";
    else if (NAME_START[c] === 1)
      what = `the start tag of <${this.name(buf, start + 1, this.nameEnd(buf, start + 1, n))}>`;
    else if (c === SLASH) what = 'an end tag';
    else if (c === QUESTION) what = 'a processing instruction';
    else if (matchAt(buf, start, n, COMMENT_OPEN) !== 0) what = 'a comment';
    else if (matchAt(buf, start, n, CDATA_OPEN) !== 0) what = 'a CDATA section';
    else if (matchAt(buf, start, n, DOCTYPE_OPEN) !== 0) what = 'a DOCTYPE';
    return this.fail(
      `unexpected end of input: ${what} that starts at byte ${this.bufBase + start} is not complete`,
      this.consumed,
    );
  }

  private nameEnd(buf: FastBuffer, j: number, n: number): number {
    while (j < n && NAME_CHAR[buf[j]!] === 1) j++;
    return j;
  }

  private unexpected(c: number, offset: number, expected: string): never {
    return this.fail(`unexpected ${describeByte(c)}: ${expected}`, offset);
  }

  private fail(reason: string, offset: number): never {
    this.countLines(Math.min(offset, this.bufBase + this.buf.length));
    const line = this.lineNo;
    const column = Math.max(offset - this.lineStart + 1, 1);
    throw new XmlSyntaxError(reason, offset, line, column);
  }
}

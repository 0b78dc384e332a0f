/**
 * A fast, byte-level, push-based streaming JSON tokenizer (strict RFC 8259) for profile and trace
 * files that are far too big to hold as one string (V8 caps strings at ~512 MB).
 *
 * Bytes go in through {@link JsonTokenizer.write} in chunks split anywhere (inside strings, numbers,
 * escapes or multi-byte UTF-8 sequences); SAX-style events come out through a {@link JsonHandler}.
 * Tokens are lexed straight from the chunk; only a token cut by a chunk boundary is copied (into a
 * small carry buffer, joined with the start of the next chunk). Short strings are looked up in a
 * byte-keyed cache, so repeated keys and names cost no allocation; plain numbers are computed from
 * their digits when that is provably exact and otherwise parsed from the lexeme with `Number()`.
 *
 * {@link ValueAssembler} turns the events of a subtree back into plain values (like `JSON.parse`);
 * {@link tokenizeJsonFile} streams a file through a handler with bounded memory.
 */
import { Buffer } from 'node:buffer';
import { promises } from 'node:fs';
import { asFastBuffer, cachedString, CACHE_MAX_LEN, HEX, latin1, utf8, type FastBuffer } from '../io/byte-strings';
import { describeByteLimit, isGzip, readChunks, readSmallFile } from '../io/file-input';
import { DEFAULT_INPUT_LIMITS, ProfileReadError, type InputLimits } from '../reader';

/** Receives SAX-style events. Implemented by readers as a class (monomorphic calls). */
export interface JsonHandler {
  /** `{` — the members follow as `key` + value pairs, then {@link endObject}. */
  startObject(): void;
  /** `}` of the innermost open object. */
  endObject(): void;
  /** `[` — the elements follow, then {@link endArray}. */
  startArray(): void;
  /** `]` of the innermost open array. */
  endArray(): void;
  /**
   * An object key; the next event is its value. Return `true` to skip that value: no events for it
   * (nor for anything inside it), its strings and keys not decoded, though still checked as strictly.
   * Return {@link SKIP_RAW} to skip it the same way and receive its bytes through {@link skippedBytes}.
   */
  key(name: string): boolean | typeof SKIP_RAW | void;
  /** A string value (escapes decoded, invalid UTF-8 replaced by U+FFFD). */
  string(value: string): void;
  /** A number value, exactly equal to `Number(lexeme)`. */
  number(value: number): void;
  /** true, false or null. */
  literal(value: boolean | null): void;
  /**
   * The bytes of a value skipped by returning {@link SKIP_RAW} from {@link key} (leading whitespace
   * included), `bytes[start, end)`, in stream order: one piece per chunk it spans, `done` on the last.
   * `bytes` is the tokenizer's input, valid only during the call: copy what you keep.
   */
  skippedBytes?(bytes: Uint8Array, start: number, end: number, done: boolean): void;
}

/**
 * What {@link JsonHandler.key} returns to skip a value and still receive its raw bytes (a reader that
 * learns only later whether it needs the value, e.g. a trace event's `args` written before its `ph`).
 */
export const SKIP_RAW = 2;

/**
 * Thrown for malformed or truncated input; `offset` is the byte offset in the whole stream (0-based),
 * `line`/`column` 1-based (the column counts bytes from the start of the line).
 */
/** A string or number longer than the tokenizer's `maxTokenBytes` (a hostile or broken file). */
export class JsonTokenTooLongError extends Error {
  constructor(
    readonly maxBytes: number,
    /** Byte offset of the value's first byte. */
    readonly offset: number,
  ) {
    super(
      `the value at byte ${offset} is longer than ${describeByteLimit(maxBytes)}, the longest value HPC Lens reads (the limit maxLineLength)`,
    );
    this.name = 'JsonTokenTooLongError';
  }
}

export class JsonSyntaxError extends Error {
  /** Byte offset of the offending byte (or of the end of input) in the whole stream, 0-based. */
  readonly offset: number;
  /** 1-based line of {@link offset}. */
  readonly line: number;
  /** 1-based column of {@link offset}, in bytes. */
  readonly column: number;

  /** `message` is the complete message; the position is repeated in it by the tokenizer. */
  constructor(message: string, offset: number, line: number, column: number) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

// ---------------------------------------------------------------------------------------------
// Byte-level tables and shared helpers
// ---------------------------------------------------------------------------------------------

/** 1 for bytes that need no attention inside a string: printable ASCII other than `"` and `\`. */
const STRING_PLAIN = new Uint8Array(256);
for (let c = 0x20; c < 0x80; c++) STRING_PLAIN[c] = c === 0x22 || c === 0x5c ? 0 : 1;

/** 1 for bytes that may continue a number lexeme (used to find the end of a number cut by a chunk). */
const NUMBER_CHAR = new Uint8Array(256);
for (const ch of '0123456789+-.eE') NUMBER_CHAR[ch.charCodeAt(0)] = 1;

/** Exactly representable powers of ten (the Clinger fast path). */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

/** 2^53 - 1: integers up to it are exact doubles, and so is every step of accumulating one digit by digit. */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;

const LITERAL_BYTES = [
  [0x74, 0x72, 0x75, 0x65],
  [0x66, 0x61, 0x6c, 0x73, 0x65],
  [0x6e, 0x75, 0x6c, 0x6c],
];
const LITERAL_VALUES = [true, false, null];

function describeByte(c: number): string {
  if (c >= 0x20 && c < 0x7f) return `character '${String.fromCharCode(c)}'`;
  if (c < 0x80) return `character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  return `byte 0x${c.toString(16).toUpperCase()}`;
}

// Parser states (what the next non-whitespace byte may be).
/** A value (after `:`, after `,` in an array, or at the top level). */
const S_VALUE = 0;
/** A value or `]` (just after `[`). */
const S_ARRAY_FIRST = 1;
/** A key or `}` (just after `{`). */
const S_OBJECT_FIRST = 2;
/** A key (after `,` in an object). */
const S_KEY = 3;
/** `:` after a key. */
const S_COLON = 4;
/** `,` or `}` after a member value. */
const S_AFTER_OBJ = 5;
/** `,` or `]` after an element. */
const S_AFTER_ARR = 6;
/** The top-level value is complete: only whitespace may follow. */
const S_DONE = 7;

const EXPECTED = [
  'expected a value',
  "expected a value or ']'",
  "expected a string key or '}'",
  'expected a string key',
  "expected ':'",
  "expected ',' or '}'",
  "expected ',' or ']'",
  'expected end of input after the top-level value',
];

// Containers on the stack.
const C_OBJECT = 1;
const C_ARRAY = 2;

// Kinds of a token cut by a chunk boundary.
const P_NONE = 0;
const P_STRING = 1;
const P_KEY = 2;
const P_NUMBER = 3;
const P_LITERAL = 4;

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const NO_BYTES = Buffer.alloc(0) as FastBuffer;

/**
 * Push-based streaming tokenizer. Feed bytes with {@link write}, finish with {@link end}; events go
 * to the handler synchronously. After a {@link JsonSyntaxError} (or a handler exception) the
 * tokenizer is unusable: further calls rethrow the first error.
 */
export class JsonTokenizer {
  private readonly handler: JsonHandler;
  private state = S_VALUE;
  /** Container stack (C_OBJECT/C_ARRAY), `d` entries in use. */
  private stack = new Uint8Array(64);
  private d = 0;
  /** State after a complete value: S_AFTER_OBJ/S_AFTER_ARR for the innermost container, S_DONE at the top level. */
  private after = S_DONE;
  /** Absolute stream offset of `buf[0]` of the buffer being lexed (the chunk, or the carry). */
  private base = 0;
  private consumed = 0;
  /** Line tracking for error positions: newlines only occur in whitespace in valid JSON. */
  private line = 1;
  private lineStart = 0;
  /** BOM bytes matched so far at stream start; -1 once past it. */
  private bomMatched = 0;
  private ended = false;
  private error: unknown = null;

  // The token cut by the last chunk boundary.
  private pending = P_NONE;
  /** Absolute offset of the cut token's first byte. */
  private pendingStart = 0;
  /** Bytes of the cut string/number token so far (from its first byte). */
  private carry: FastBuffer = Buffer.allocUnsafe(256) as FastBuffer;
  private carryLen = 0;
  /** The cut string ends inside an escape: the next byte is escaped. */
  private pendingEscape = false;
  private literalIndex = 0;
  private literalPos = 0;

  /** Skipping the value of a key whose handler returned true: no events until the depth is back to {@link skipFrom}. */
  private skipping = false;
  private skipFrom = 0;
  /** The skipped value's bytes go to the handler (SKIP_RAW): from the `:` on (1), then while skipping (2). */
  private raw = 0;
  /** Where the raw bytes of the skipped value start in {@link chunk}. */
  private rawFrom = 0;
  /** The buffer being lexed (for {@link skippedBytes}); empty outside {@link write}. */
  private chunk: FastBuffer = NO_BYTES;

  // Results of the lexing helpers (avoids allocating result objects).
  private numValue = 0;
  private strFlags = 0;

  private readonly maxTokenBytes: number;

  /**
   * @param handler receives the events, synchronously from {@link write} and {@link end}.
   * @param options.maxTokenBytes longest string or number cut by a chunk boundary (default 16 MiB,
   *   ReadOptions.limits.maxLineLength): a longer one is a {@link JsonTokenTooLongError}, before its bytes
   *   fill the memory. A value inside one chunk is bounded by the chunk and never refused.
   */
  constructor(handler: JsonHandler, options: { maxTokenBytes?: number } = {}) {
    this.handler = handler;
    this.maxTokenBytes = options.maxTokenBytes ?? DEFAULT_INPUT_LIMITS.maxLineLength;
  }

  /** Makes the tokenizer ready for a new document, as if just constructed (after end(), or dropping a document). */
  reset(): void {
    this.state = S_VALUE;
    this.d = 0;
    this.after = S_DONE;
    this.base = this.consumed = 0;
    this.line = 1;
    this.lineStart = 0;
    this.bomMatched = 0;
    this.ended = false;
    this.error = null;
    this.pending = P_NONE;
    this.carryLen = 0;
    this.pendingEscape = false;
    this.skipping = false;
    this.raw = 0;
  }

  /** Bytes consumed so far (for progress reporting): the total length of the chunks written. */
  get bytesConsumed(): number {
    return this.consumed;
  }

  /**
   * Current nesting depth (0 at top level). Inside `startObject`/`startArray` it already counts the
   * new container; inside `endObject`/`endArray` it no longer does.
   */
  get depth(): number {
    return this.d;
  }

  /** Feed the next chunk (any split point, including inside strings, numbers, escapes, multi-byte UTF-8 sequences). */
  write(chunk: Uint8Array): void {
    if (this.error !== null) throw this.error;
    if (this.ended) throw new Error('JsonTokenizer: write() after end()');
    const n = chunk.length;
    if (n === 0) return;
    const buf = asFastBuffer(chunk);
    try {
      let i = 0;
      if (this.bomMatched >= 0) {
        i = this.skipBom(buf, n);
        if (i < 0) {
          this.consumed += n;
          return;
        }
      }
      this.base = this.consumed;
      this.chunk = buf;
      if (this.pending !== P_NONE) {
        i = this.resume(buf, i, n);
        this.base = this.consumed;
        if (i < 0) {
          this.consumed += n;
          if (this.raw === 2) this.rawPiece(n);
          return;
        }
      }
      this.run(buf, i, n);
      this.consumed += n;
      if (this.raw === 2) this.rawPiece(n);
    } catch (e) {
      this.error = e;
      throw e;
    }
  }

  /** Signal end of input; throws JsonSyntaxError("unexpected end of input …") if the document is incomplete (truncated file) or empty. */
  end(): void {
    if (this.error !== null) throw this.error;
    if (this.ended) return;
    this.ended = true;
    this.chunk = NO_BYTES;
    try {
      if (this.pending === P_NUMBER) {
        this.base = this.pendingStart;
        const e = this.scanNumber(this.carry, 0, this.carryLen, true);
        if (e !== this.carryLen) this.unexpected(this.carry[e], this.pendingStart + e);
        this.pending = P_NONE;
        this.carryLen = 0;
        if (this.skipping) this.skipDone(0);
        else this.handler.number(this.numValue);
        this.state = this.after;
      }
      if (this.state !== S_DONE || this.pending !== P_NONE) {
        const what =
          this.consumed === 0 || (this.state === S_VALUE && this.d === 0 && this.pending === P_NONE)
            ? ' (empty document)'
            : '';
        this.fail(`unexpected end of input${what}`, this.consumed);
      }
    } catch (e) {
      this.error = e;
      throw e;
    }
  }

  // -------------------------------------------------------------------------------------------

  /** Matches the UTF-8 BOM at stream start; returns where the JSON starts in `buf`, or -1 if `buf` was all BOM. */
  private skipBom(buf: FastBuffer, n: number): number {
    let i = 0;
    while (i < n && this.bomMatched < 3) {
      if (buf[i] !== UTF8_BOM[this.bomMatched]) {
        // Not a BOM: a partial match is malformed (0xEF cannot start JSON), no match means plain JSON.
        if (this.bomMatched > 0) this.unexpected(buf[i], this.consumed + i);
        this.bomMatched = -1;
        return i;
      }
      this.bomMatched++;
      i++;
    }
    if (this.bomMatched === 3) {
      this.bomMatched = -1;
      return i;
    }
    return -1;
  }

  private push(container: number): void {
    if (this.d === this.stack.length) {
      const grown = new Uint8Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    this.stack[this.d++] = container;
    this.after = container === C_OBJECT ? S_AFTER_OBJ : S_AFTER_ARR;
  }

  private pop(): void {
    const d = --this.d;
    this.after = d === 0 ? S_DONE : this.stack[d - 1] === C_OBJECT ? S_AFTER_OBJ : S_AFTER_ARR;
  }

  /** The main loop over `buf[i, n)`, with no token pending at `i`. */
  private run(buf: FastBuffer, i: number, n: number): void {
    const h = this.handler;
    let state = this.state;
    while (i < n) {
      const c = buf[i];
      if (c <= 0x20) {
        if (c === 0x20 || c === 0x09 || c === 0x0d) {
          i++;
          continue;
        }
        if (c === 0x0a) {
          i++;
          this.line++;
          this.lineStart = this.base + i;
          continue;
        }
        // Any other control byte is unexpected in every state: fall through to the error below.
      }
      switch (state) {
        case S_VALUE:
        case S_ARRAY_FIRST:
          if (c === 0x22) {
            const e = this.scanString(buf, i + 1, n);
            if (e < 0) {
              this.suspend(P_STRING, buf, i, n);
              this.state = state;
              return;
            }
            if (this.skipping) this.skipString(buf, i + 1, e - 1, e);
            else h.string(this.decodeString(buf, i + 1, e - 1));
            i = e;
            state = this.after;
          } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
            const e = this.scanNumber(buf, i, n, false);
            if (e < 0) {
              this.suspend(P_NUMBER, buf, i, n);
              this.state = state;
              return;
            }
            if (this.skipping) this.skipDone(e);
            else h.number(this.numValue);
            i = e;
            state = this.after;
          } else if (c === 0x7b) {
            this.push(C_OBJECT);
            if (!this.skipping) h.startObject();
            i++;
            state = S_OBJECT_FIRST;
          } else if (c === 0x5b) {
            this.push(C_ARRAY);
            if (!this.skipping) h.startArray();
            i++;
            state = S_ARRAY_FIRST;
          } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
            const lit = c === 0x74 ? 0 : c === 0x66 ? 1 : 2;
            const e = this.matchLiteral(buf, i + 1, n, lit, 1);
            if (e < 0) {
              this.pending = P_LITERAL;
              this.pendingStart = this.base + i;
              this.state = state;
              return;
            }
            if (this.skipping) this.skipDone(e);
            else h.literal(LITERAL_VALUES[lit]);
            i = e;
            state = this.after;
          } else if (c === 0x5d && state === S_ARRAY_FIRST) {
            this.pop();
            if (this.skipping) this.skipDone(i + 1);
            else h.endArray();
            i++;
            state = this.after;
          } else {
            this.unexpected(c, this.base + i, EXPECTED[state]);
          }
          break;
        case S_AFTER_ARR:
          if (c === 0x2c) {
            i++;
            state = S_VALUE;
          } else if (c === 0x5d) {
            this.pop();
            if (this.skipping) this.skipDone(i + 1);
            else h.endArray();
            i++;
            state = this.after;
          } else {
            this.unexpected(c, this.base + i, EXPECTED[state]);
          }
          break;
        case S_AFTER_OBJ:
          if (c === 0x2c) {
            i++;
            state = S_KEY;
          } else if (c === 0x7d) {
            this.pop();
            if (this.skipping) this.skipDone(i + 1);
            else h.endObject();
            i++;
            state = this.after;
          } else {
            this.unexpected(c, this.base + i, EXPECTED[state]);
          }
          break;
        case S_OBJECT_FIRST:
        case S_KEY:
          if (c === 0x22) {
            const e = this.scanString(buf, i + 1, n);
            if (e < 0) {
              this.suspend(P_KEY, buf, i, n);
              this.state = state;
              return;
            }
            if (this.skipping) this.checkEscapes(buf, i + 1, e - 1);
            else {
              const skip = h.key(this.decodeString(buf, i + 1, e - 1));
              if (skip === true || skip === SKIP_RAW) this.startSkip(skip);
            }
            i = e;
            state = S_COLON;
          } else if (c === 0x7d && state === S_OBJECT_FIRST) {
            this.pop();
            if (this.skipping) this.skipDone(i + 1);
            else h.endObject();
            i++;
            state = this.after;
          } else {
            this.unexpected(c, this.base + i, EXPECTED[state]);
          }
          break;
        case S_COLON:
          if (c === 0x3a) {
            i++;
            state = S_VALUE;
            if (this.raw === 1) {
              this.raw = 2;
              this.rawFrom = i;
            }
          } else {
            this.unexpected(c, this.base + i, EXPECTED[state]);
          }
          break;
        default:
          this.unexpected(c, this.base + i, EXPECTED[state]);
      }
    }
    this.state = state;
  }

  /** Keeps `buf[start, n)`, the beginning of a token cut by the chunk end, for the next {@link write}. */
  private suspend(kind: number, buf: FastBuffer, start: number, n: number): void {
    this.pending = kind;
    this.pendingStart = this.base + start;
    this.carryLen = 0;
    this.append(buf, start, n);
  }

  private append(buf: FastBuffer, start: number, end: number): void {
    const len = end - start;
    if (this.carryLen + len > this.maxTokenBytes)
      throw new JsonTokenTooLongError(this.maxTokenBytes, this.pendingStart);
    if (this.carryLen + len > this.carry.length) {
      let size = this.carry.length * 2;
      while (size < this.carryLen + len) size *= 2;
      const grown = Buffer.allocUnsafe(size) as FastBuffer;
      this.carry.copy(grown, 0, 0, this.carryLen);
      this.carry = grown;
    }
    buf.copy(this.carry, this.carryLen, start, end);
    this.carryLen += len;
  }

  /**
   * Completes the token cut by the previous chunk with the start of `buf` (from `i`). Returns where
   * the main loop continues in `buf`, or -1 if the token goes on past `buf` too.
   */
  private resume(buf: FastBuffer, i: number, n: number): number {
    const kind = this.pending;
    if (kind === P_LITERAL) {
      const e = this.matchLiteral(buf, i, n, this.literalIndex, this.literalPos);
      if (e < 0) return -1;
      this.pending = P_NONE;
      if (this.skipping) this.skipDone(e);
      else this.handler.literal(LITERAL_VALUES[this.literalIndex]);
      this.state = this.after;
      return e;
    }
    if (kind === P_NUMBER) {
      let j = i;
      while (j < n && NUMBER_CHAR[buf[j]] === 1) j++;
      if (j === n) {
        this.append(buf, i, j);
        return -1;
      }
      // Lex it with its terminating byte, so that "-" + "x" reports the 'x'.
      this.append(buf, i, j + 1);
      this.base = this.pendingStart;
      const e = this.scanNumber(this.carry, 0, this.carryLen, false);
      // Bytes that look numeric but do not continue the number ("1-2", "1.2.3") are unexpected.
      if (e !== this.carryLen - 1) this.unexpected(this.carry[e], this.pendingStart + e, EXPECTED[this.after]);
      this.pending = P_NONE;
      this.carryLen = 0;
      if (this.skipping) this.skipDone(j);
      else this.handler.number(this.numValue);
      this.state = this.after;
      return j;
    }
    // A string or key: find its closing quote, minding escapes.
    let j = i;
    if (this.pendingEscape) j++;
    for (;;) {
      if (j >= n) {
        this.pendingEscape = j > n;
        this.append(buf, i, n);
        return -1;
      }
      const c = buf[j];
      if (c === 0x22) break;
      j += c === 0x5c ? 2 : 1;
    }
    j++;
    this.append(buf, i, j);
    this.pendingEscape = false;
    this.base = this.pendingStart;
    const carry = this.carry;
    const e = this.scanString(carry, 1, this.carryLen);
    const skipped = this.skipping;
    const s = skipped ? '' : this.decodeString(carry, 1, e - 1);
    if (skipped) this.checkEscapes(carry, 1, e - 1);
    this.pending = P_NONE;
    this.carryLen = 0;
    if (this.carry.length > 1 << 16) this.carry = Buffer.allocUnsafe(256) as FastBuffer;
    if (kind === P_KEY) {
      if (!skipped) {
        const skip = this.handler.key(s);
        if (skip === true || skip === SKIP_RAW) this.startSkip(skip);
      }
      this.state = S_COLON;
    } else {
      if (skipped) this.skipDone(j);
      else this.handler.string(s);
      this.state = this.after;
    }
    return j;
  }

  /** The handler asked to skip the value of the key just read (the object holding it is at depth {@link d}), maybe raw. */
  private startSkip(how: true | typeof SKIP_RAW): void {
    this.skipping = true;
    this.skipFrom = this.d;
    if (how === SKIP_RAW) this.raw = 1;
  }

  /**
   * A value (or a container's end) was met while skipping: the skipped value is complete when back at
   * its depth. `end` is the index in {@link chunk} just past what was met.
   */
  private skipDone(end: number): void {
    if (this.d !== this.skipFrom) return;
    this.skipping = false;
    if (this.raw === 2) {
      this.raw = 0;
      this.handler.skippedBytes!(this.chunk, this.rawFrom, end, true);
    }
  }

  /** The raw bytes of the skipped value in this chunk, up to `end`; the rest follows from the next chunk's start. */
  private rawPiece(end: number): void {
    if (end > this.rawFrom) this.handler.skippedBytes!(this.chunk, this.rawFrom, end, false);
    this.rawFrom = 0;
  }

  /** A skipped string value: not decoded, but its escapes are checked as a decoded one's would be. */
  private skipString(buf: FastBuffer, start: number, end: number, next: number): void {
    this.checkEscapes(buf, start, end);
    this.skipDone(next);
  }

  /** Checks the escapes of a string body scanned by {@link scanString} (the rare strings that have any). */
  private checkEscapes(buf: FastBuffer, start: number, end: number): void {
    if ((this.strFlags & 1) !== 0) this.decodeEscaped(buf, start, end);
  }

  /**
   * Scans a string body from `i` (just after the opening quote). Returns the index just past the
   * closing quote, or -1 if `buf` ends first (then {@link pendingEscape} tells whether it ended
   * inside an escape). Sets {@link strFlags}: 1 = has escapes, 2 = has non-ASCII bytes.
   */
  private scanString(buf: FastBuffer, i: number, n: number): number {
    let flags = 0;
    for (;;) {
      while (i < n && STRING_PLAIN[buf[i]] === 1) i++;
      if (i >= n) {
        this.pendingEscape = i > n;
        return -1;
      }
      const c = buf[i];
      if (c === 0x22) {
        this.strFlags = flags;
        return i + 1;
      }
      if (c === 0x5c) {
        flags |= 1;
        i += 2;
      } else if (c >= 0x80) {
        flags |= 2;
        i++;
      } else {
        this.fail(`unescaped control ${describeByte(c)} in string`, this.base + i);
      }
    }
  }

  /** Decodes the string body `buf[start, end)` scanned by {@link scanString}. */
  private decodeString(buf: FastBuffer, start: number, end: number): string {
    const flags = this.strFlags;
    if (flags === 0) {
      if (end - start <= CACHE_MAX_LEN) return end === start ? '' : cachedString(buf, start, end, true);
      return latin1(buf, start, end);
    }
    if (flags === 2) return end - start <= CACHE_MAX_LEN ? cachedString(buf, start, end, false) : utf8(buf, start, end);
    return this.decodeEscaped(buf, start, end);
  }

  /** Slow path: a string with escapes (validated here). Runs between escapes are decoded as UTF-8. */
  private decodeEscaped(buf: FastBuffer, start: number, end: number): string {
    let out = '';
    let run = start;
    let i = start;
    while (i < end) {
      if (buf[i] !== 0x5c) {
        i++;
        continue;
      }
      if (i > run) out += utf8(buf, run, i);
      const x = buf[i + 1];
      switch (x) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += '\\';
          break;
        case 0x2f:
          out += '/';
          break;
        case 0x62:
          out += '\b';
          break;
        case 0x66:
          out += '\f';
          break;
        case 0x6e:
          out += '\n';
          break;
        case 0x72:
          out += '\r';
          break;
        case 0x74:
          out += '\t';
          break;
        case 0x75: {
          let code = 0;
          for (let k = 2; k < 6; k++) {
            const p = i + k;
            const v = p < end ? HEX[buf[p]] : -1;
            if (v < 0) this.unexpected(buf[p], this.base + p, 'expected a hex digit in a \\u escape');
            code = (code << 4) | v;
          }
          out += String.fromCharCode(code);
          i += 4;
          break;
        }
        default:
          this.fail(
            `invalid escape '\\${x > 0x20 && x < 0x7f ? String.fromCharCode(x) : describeByte(x)}' in string`,
            this.base + i,
          );
      }
      i += 2;
      run = i;
    }
    if (run < end) out += utf8(buf, run, end);
    return out;
  }

  /**
   * Scans a number starting at `i` (`-` or a digit) and sets {@link numValue}. Returns the index just
   * past it, or -1 if `buf` ends first and `final` is false (more digits may follow in the next chunk).
   * The value is computed from the digits when exact (a mantissa below 2^53 and a power of ten
   * ≤ 22: one correctly rounded multiply or divide), otherwise with `Number()` on the lexeme.
   */
  private scanNumber(buf: FastBuffer, i: number, n: number, final: boolean): number {
    const start = i;
    let c = buf[i];
    let neg = false;
    if (c === 0x2d) {
      neg = true;
      if (++i >= n) return final ? this.failEnd() : -1;
      c = buf[i];
    }
    let m = 0;
    if (c === 0x30) {
      i++;
      if (i < n) {
        c = buf[i];
        if (c >= 0x30 && c <= 0x39) this.unexpected(c, this.base + i, 'leading zeros are not allowed');
      }
    } else if (c >= 0x31 && c <= 0x39) {
      m = c - 0x30;
      i++;
      while (i < n && (c = buf[i]) >= 0x30 && c <= 0x39) {
        m = m * 10 + (c - 0x30);
        i++;
      }
    } else {
      this.unexpected(c, this.base + i, 'expected a digit');
    }
    let exp = 0;
    if (i < n && c === 0x2e) {
      i++;
      const fracStart = i;
      while (i < n && (c = buf[i]) >= 0x30 && c <= 0x39) {
        m = m * 10 + (c - 0x30);
        i++;
      }
      const frac = i - fracStart;
      if (frac === 0) {
        if (i >= n) return final ? this.failEnd() : -1;
        this.unexpected(c, this.base + i, 'expected a digit');
      }
      exp = -frac;
    }
    if (i < n && (c === 0x65 || c === 0x45)) {
      i++;
      if (i >= n) return final ? this.failEnd() : -1;
      c = buf[i];
      let eneg = false;
      if (c === 0x2b || c === 0x2d) {
        eneg = c === 0x2d;
        i++;
        if (i >= n) return final ? this.failEnd() : -1;
        c = buf[i];
      }
      if (c < 0x30 || c > 0x39) this.unexpected(c, this.base + i, 'expected a digit');
      let e = 0;
      while (i < n && (c = buf[i]) >= 0x30 && c <= 0x39) {
        if (e < 1e8) e = e * 10 + (c - 0x30);
        i++;
      }
      exp += eneg ? -e : e;
    }
    if (i >= n && !final) return -1;
    // m was accumulated exactly while below 2^53 (once past it, it never comes back below), so then
    // one correctly rounded multiply or divide by an exact power of ten gives Number()'s value.
    if (m <= MAX_EXACT && exp >= -22 && exp <= 22) {
      const v = exp === 0 ? m : exp > 0 ? m * POW10[exp] : m / POW10[-exp];
      this.numValue = neg ? -v : v;
    } else {
      this.numValue = Number(latin1(buf, start, i));
    }
    return i;
  }

  /**
   * Matches the rest of literal `lit` (true/false/null) from byte `pos` of it at `buf[i]`. Returns
   * the index past it, or -1 if `buf` ends first (the progress is kept for {@link resume}).
   */
  private matchLiteral(buf: FastBuffer, i: number, n: number, lit: number, pos: number): number {
    const bytes = LITERAL_BYTES[lit];
    while (pos < bytes.length) {
      if (i >= n) {
        this.literalIndex = lit;
        this.literalPos = pos;
        return -1;
      }
      if (buf[i] !== bytes[pos]) this.unexpected(buf[i], this.base + i, `expected '${String.fromCharCode(...bytes)}'`);
      i++;
      pos++;
    }
    return i;
  }

  private unexpected(c: number, offset: number, expected?: string): never {
    return this.fail(`unexpected ${describeByte(c)}`, offset, expected);
  }

  private failEnd(): never {
    return this.fail('unexpected end of input', this.consumed);
  }

  private fail(what: string, offset: number, expected?: string): never {
    const column = offset - this.lineStart + 1;
    const message = `${what} at line ${this.line}, column ${column} (byte ${offset})${expected ? `: ${expected}` : ''}`;
    throw new JsonSyntaxError(message, offset, this.line, column);
  }
}

/**
 * Builds plain JS values from events (like JSON.parse) for the subtrees a reader wants whole. Call
 * `begin()` then forward events; `done` becomes true when the value that began is complete, and
 * `value` holds it. Handles a scalar value too (e.g. `begin()` then `number(3)` → done).
 */
export class ValueAssembler implements JsonHandler {
  /** Enclosing open containers (outermost first); the innermost one is {@link top}. */
  private readonly outer: (Record<string, unknown> | unknown[] | null)[] = [];
  /** For each open container: the key it will be stored under in its parent object. */
  private readonly outerKeys: string[] = [];
  /** Innermost open container, or null at the top level. */
  private top: Record<string, unknown> | unknown[] | null = null;
  private topIsArray = false;
  private currentKey = '';
  private isDone = false;
  private result: unknown = undefined;

  /** Starts assembling a new value (discarding any unfinished one). */
  begin(): void {
    this.outer.length = 0;
    this.outerKeys.length = 0;
    this.top = null;
    this.topIsArray = false;
    this.currentKey = '';
    this.isDone = false;
    this.result = undefined;
  }

  /** True once the value that began is complete. */
  get done(): boolean {
    return this.isDone;
  }

  /** The assembled value (undefined until {@link done}). */
  get value(): unknown {
    return this.result;
  }

  startObject(): void {
    this.open({}, false);
  }

  endObject(): void {
    this.close();
  }

  startArray(): void {
    this.open([], true);
  }

  endArray(): void {
    this.close();
  }

  key(name: string): void {
    this.currentKey = name;
  }

  string(value: string): void {
    this.add(value);
  }

  number(value: number): void {
    this.add(value);
  }

  literal(value: boolean | null): void {
    this.add(value);
  }

  private open(container: Record<string, unknown> | unknown[], isArray: boolean): void {
    if (this.top === null && this.isDone) throw new Error('ValueAssembler: value already complete; call begin() first');
    this.outer.push(this.top);
    this.outerKeys.push(this.currentKey);
    this.top = container;
    this.topIsArray = isArray;
  }

  private close(): void {
    const container = this.top;
    if (container === null) throw new Error('ValueAssembler: end event without a matching start');
    const parent = this.outer.pop()!;
    this.currentKey = this.outerKeys.pop()!;
    this.top = parent;
    this.topIsArray = Array.isArray(parent);
    this.add(container);
  }

  private add(value: unknown): void {
    const top = this.top;
    if (this.topIsArray) {
      (top as unknown[]).push(value);
    } else if (top === null) {
      if (this.isDone) throw new Error('ValueAssembler: value already complete; call begin() first');
      this.result = value;
      this.isDone = true;
    } else if (this.currentKey === '__proto__') {
      // Like JSON.parse: an own data property, not the prototype setter.
      Object.defineProperty(top, '__proto__', { value, writable: true, enumerable: true, configurable: true });
    } else {
      (top as Record<string, unknown>)[this.currentKey] = value;
    }
  }
}

/** Options of {@link tokenizeJsonFile}. */
export interface TokenizeFileOptions {
  /** Checked between chunks; when aborted the promise rejects with an Error named 'AbortError'. */
  signal?: AbortSignal;
  /** Called after each chunk with the bytes read so far and the file size (for gzip files: the fraction read, and 1). */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Bytes per read (default 1 MiB). */
  chunkSize?: number;
  /** Bounds on decompression (gzip files), see ReadOptions.limits. */
  limits?: InputLimits;
}

function abortError(path: string, signal: AbortSignal): Error {
  const err = new Error(`${path}: aborted`, { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}

/**
 * Streams a file through a handler with bounded memory: chunked reads (default 1 MiB, the next read
 * overlapping the tokenizing of the current chunk), progress callback (bytesRead, totalBytes), and an
 * AbortSignal checked between chunks (throws an Error with name 'AbortError'). Errors name the file:
 * a JsonSyntaxError is rethrown as a JsonSyntaxError with message `${path}: ${message}`.
 */
export async function tokenizeJsonFile(
  path: string,
  handler: JsonHandler,
  options: TokenizeFileOptions = {},
): Promise<void> {
  const { signal, onProgress } = options;
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 1 << 20));
  if (signal?.aborted) throw abortError(path, signal);
  const tokenizer = new JsonTokenizer(handler, { maxTokenBytes: options.limits?.maxLineLength });
  const small = readSmallFile(path, chunkSize);
  if (small && !isGzip(small)) {
    try {
      tokenizer.write(small);
      tokenizer.end();
    } catch (e) {
      if (e instanceof JsonSyntaxError) throw new JsonSyntaxError(`${path}: ${e.message}`, e.offset, e.line, e.column);
      if (e instanceof JsonTokenTooLongError) throw new ProfileReadError(path, e.message, { cause: e });
      throw e;
    }
    onProgress?.(small.length, small.length);
    return;
  }
  const file = await promises.open(path, 'r');
  let closed = false;
  let inflight: Promise<unknown> | null = null;
  try {
    const total = (await file.stat()).size;
    // Small files get one exact-size buffer: below ~100 KB allocation, not parsing, dominates.
    const size = Math.max(2, Math.min(chunkSize, total));
    const buffers = [Buffer.allocUnsafe(size), total > size ? Buffer.allocUnsafe(size) : Buffer.alloc(0)];
    const first = await file.read(buffers[0]!, 0, size, 0);
    if (isGzip(buffers[0]!.subarray(0, first.bytesRead))) {
      await file.close();
      closed = true;
      for await (const chunk of readChunks(path, {
        signal,
        chunkSize,
        limits: options.limits,
        onProgress: f => onProgress?.(f, 1),
      }))
        tokenizer.write(chunk);
      tokenizer.end();
      return;
    }
    let which = 0;
    let position = 0;
    let read: Promise<{ bytesRead: number }> = Promise.resolve(first);
    for (;;) {
      const { bytesRead } = await read;
      inflight = null;
      if (signal?.aborted) throw abortError(path, signal);
      if (bytesRead === 0) break;
      const current = buffers[which]!;
      position += bytesRead;
      const last = position >= total;
      if (!last) {
        // The next read overlaps the tokenizing of this chunk.
        which ^= 1;
        read = file.read(buffers[which]!, 0, size, position);
        inflight = read;
      }
      tokenizer.write(bytesRead === size ? current : current.subarray(0, bytesRead));
      onProgress?.(position, total);
      if (last) break;
    }
    tokenizer.end();
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new JsonSyntaxError(`${path}: ${e.message}`, e.offset, e.line, e.column);
    if (e instanceof JsonTokenTooLongError) throw new ProfileReadError(path, e.message, { cause: e });
    throw e;
  } finally {
    if (inflight) await inflight.catch(() => undefined);
    if (!closed) await file.close();
  }
}

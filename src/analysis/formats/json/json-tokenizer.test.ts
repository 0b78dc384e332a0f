import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  JsonSyntaxError,
  JsonTokenizer,
  JsonTokenTooLongError,
  SKIP_RAW,
  ValueAssembler,
  tokenizeJsonFile,
  type JsonHandler,
} from './json-tokenizer';
import { ProfileReadError } from '../reader';
import { seededRandom } from '../../stats/seeded-random';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Event = readonly [string] | readonly [string, unknown];

/** Records the event stream. */
class Recorder implements JsonHandler {
  readonly events: Event[] = [];
  startObject(): void {
    this.events.push(['{']);
  }
  endObject(): void {
    this.events.push(['}']);
  }
  startArray(): void {
    this.events.push(['[']);
  }
  endArray(): void {
    this.events.push([']']);
  }
  key(name: string): void {
    this.events.push(['key', name]);
  }
  string(value: string): void {
    this.events.push(['string', value]);
  }
  number(value: number): void {
    this.events.push(['number', value]);
  }
  literal(value: boolean | null): void {
    this.events.push(['literal', value]);
  }
}

/** Forwards every event to both handlers. */
class Tee implements JsonHandler {
  constructor(
    private readonly a: JsonHandler,
    private readonly b: JsonHandler,
  ) {}
  startObject(): void {
    this.a.startObject();
    this.b.startObject();
  }
  endObject(): void {
    this.a.endObject();
    this.b.endObject();
  }
  startArray(): void {
    this.a.startArray();
    this.b.startArray();
  }
  endArray(): void {
    this.a.endArray();
    this.b.endArray();
  }
  key(name: string): void {
    this.a.key(name);
    this.b.key(name);
  }
  string(value: string): void {
    this.a.string(value);
    this.b.string(value);
  }
  number(value: number): void {
    this.a.number(value);
    this.b.number(value);
  }
  literal(value: boolean | null): void {
    this.a.literal(value);
    this.b.literal(value);
  }
}

const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));

/** Cuts `bytes` at the given (ascending) offsets. */
function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(prev, p));
    prev = p;
  }
  chunks.push(bytes.subarray(prev));
  return chunks;
}

/** Cuts `bytes` into chunks of random sizes in [1, max]. */
function randomChunks(bytes: Uint8Array, rand: () => number, max: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(rand() * max);
    chunks.push(bytes.subarray(i, i + n));
    i += n;
  }
  return chunks;
}

/** Tokenizes the chunks (copied, so that nothing can rely on a chunk surviving its write()). */
function parseChunks(chunks: Uint8Array[]): { events: Event[]; value: unknown } {
  const recorder = new Recorder();
  const assembler = new ValueAssembler();
  assembler.begin();
  const t = new JsonTokenizer(new Tee(recorder, assembler));
  for (const c of chunks) {
    const copy = c.slice();
    t.write(copy);
    copy.fill(0x78); // a tokenizer keeping a reference into the chunk would now see garbage
  }
  t.end();
  assert.equal(t.depth, 0);
  assert.ok(assembler.done, 'ValueAssembler is done');
  return { events: recorder.events, value: assembler.value };
}

/** Events of the top-level value `v` in insertion order (for values without integer-like keys). */
function eventsOf(v: unknown, out: Event[] = []): Event[] {
  if (v === null || typeof v === 'boolean') out.push(['literal', v]);
  else if (typeof v === 'number') out.push(['number', v]);
  else if (typeof v === 'string') out.push(['string', v]);
  else if (Array.isArray(v)) {
    out.push(['[']);
    for (const x of v) eventsOf(x, out);
    out.push([']']);
  } else {
    out.push(['{']);
    for (const [k, x] of Object.entries(v as object)) {
      out.push(['key', k]);
      eventsOf(x, out);
    }
    out.push(['}']);
  }
  return out;
}

/** Runs `fn` and returns the JsonSyntaxError it throws (failing if it throws nothing or something else). */
function syntaxError(fn: () => void): JsonSyntaxError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof JsonSyntaxError, `expected a JsonSyntaxError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a JsonSyntaxError, nothing was thrown');
}

/** Feeds the chunks and end(); returns the error and whether it came from write() or end(). */
function failure(chunks: Uint8Array[]): { error: JsonSyntaxError; at: 'write' | 'end' } {
  const t = new JsonTokenizer(new Recorder());
  let at: 'write' | 'end' = 'write';
  const error = syntaxError(() => {
    for (const c of chunks) t.write(c);
    at = 'end';
    t.end();
  });
  return { error, at };
}

// ---------------------------------------------------------------------------------------------
// Random JSON generator: produces the text together with the exact event stream it must yield.
// ---------------------------------------------------------------------------------------------

class Generator {
  private readonly out: string[] = [];
  private readonly events: Event[] = [];
  private readonly pick = <T>(xs: readonly T[]): T => xs[Math.floor(this.r() * xs.length)];

  constructor(private readonly r: () => number) {}

  document(maxDepth: number): { text: string; events: Event[] } {
    this.out.length = 0;
    this.events.length = 0;
    this.ws();
    this.value(maxDepth);
    this.ws();
    return { text: this.out.join(''), events: [...this.events] };
  }

  /** An array of `n` random documents. */
  documents(n: number, maxDepth: number): { text: string; events: Event[] } {
    const texts: string[] = [];
    const events: Event[] = [['[']];
    for (let i = 0; i < n; i++) {
      const d = this.document(maxDepth);
      texts.push(d.text);
      events.push(...d.events);
    }
    events.push([']']);
    return { text: `[${texts.join(',')}]`, events };
  }

  private ws(): void {
    if (this.r() < 0.7) return;
    const n = 1 + Math.floor(this.r() * 3);
    for (let i = 0; i < n; i++) this.out.push(this.pick([' ', '\t', '\n', '\r\n', '  ']));
  }

  private value(depth: number): void {
    const x = this.r();
    if (depth > 0 && x < 0.2) this.array(depth - 1);
    else if (depth > 0 && x < 0.4) this.object(depth - 1);
    else if (x < 0.65) this.number();
    else if (x < 0.9) this.events.push(['string', this.string()]);
    else {
      const lit = this.pick([true, false, null]);
      this.out.push(String(lit));
      this.events.push(['literal', lit]);
    }
  }

  private array(depth: number): void {
    this.out.push('[');
    this.events.push(['[']);
    const n = Math.floor(this.r() * 6);
    for (let i = 0; i < n; i++) {
      if (i > 0) this.out.push(',');
      this.ws();
      this.value(depth);
      this.ws();
    }
    if (n === 0) this.ws();
    this.out.push(']');
    this.events.push([']']);
  }

  private object(depth: number): void {
    this.out.push('{');
    this.events.push(['{']);
    const n = Math.floor(this.r() * 6);
    for (let i = 0; i < n; i++) {
      if (i > 0) this.out.push(',');
      this.ws();
      const k =
        this.r() < 0.1
          ? this.pick(['1', '__proto__', 'a', 'constructor', ''])
          : this.r() < 0.5
            ? this.pick(['name', 'ts', 'dur', 'args', 'ph'])
            : null;
      if (k === null) {
        this.events.push(['key', this.string()]);
      } else {
        this.out.push(JSON.stringify(k));
        this.events.push(['key', k]);
      }
      this.ws();
      this.out.push(':');
      this.ws();
      this.value(depth);
      this.ws();
    }
    if (n === 0) this.ws();
    this.out.push('}');
    this.events.push(['}']);
  }

  private digits(n: number, leading = true): string {
    let s = leading ? String(1 + Math.floor(this.r() * 9)) : String(Math.floor(this.r() * 10));
    for (let i = 1; i < n; i++) s += String(Math.floor(this.r() * 10));
    return s;
  }

  private number(): void {
    const r = this.r;
    const sign = r() < 0.3 ? '-' : '';
    let text: string;
    const x = r();
    if (x < 0.1) text = sign + '0';
    else if (x < 0.3) text = sign + this.digits(1 + Math.floor(r() * 20));
    else if (x < 0.55)
      text = `${sign}${r() < 0.3 ? '0' : this.digits(1 + Math.floor(r() * 10))}.${this.digits(1 + Math.floor(r() * 20), false)}`;
    else if (x < 0.75) {
      const mant =
        r() < 0.5
          ? this.digits(1 + Math.floor(r() * 17))
          : `${this.digits(1)}.${this.digits(1 + Math.floor(r() * 16), false)}`;
      text = `${sign}${mant}${this.pick(['e', 'E'])}${this.pick(['', '+', '-'])}${r() < 0.2 ? '0' : ''}${Math.floor(r() * (r() < 0.1 ? 400 : 30))}`;
    } else if (x < 0.9) text = String(sign ? -r() * 10 ** Math.floor(r() * 40 - 20) : r() * 1e6);
    else text = `${sign}${Math.floor(r() * 1e6)}.${this.pick(['0', '5', '25', '1', '30'])}`;
    this.out.push(text);
    this.events.push(['number', Number(text)]);
  }

  /** Emits a string literal and returns its decoded value. */
  private string(): string {
    const pool = [
      'a',
      'b',
      'Z',
      '0',
      ' ',
      '"',
      '\\',
      '/',
      '\n',
      '\t',
      '\b',
      '\f',
      '\r',
      '\u0001',
      '\u001f',
      '\u007f',
      'é',
      '日',
      '本',
      '😀',
      '\u2028',
      '\ufeff',
      '\ud800',
      '\udfff',
      'x',
    ];
    const n = Math.floor(this.r() * (this.r() < 0.1 ? 80 : 12));
    let value = '';
    let text = '"';
    const hex = (c: number): string => {
      const h = c.toString(16).padStart(4, '0');
      return '\\u' + (this.r() < 0.5 ? h : h.toUpperCase());
    };
    for (let i = 0; i < n; i++) {
      const ch = this.r() < 0.5 ? String.fromCharCode(0x61 + Math.floor(this.r() * 26)) : this.pick(pool);
      value += ch;
      const c = ch.charCodeAt(0);
      const lone = ch.length === 1 && c >= 0xd800 && c <= 0xdfff;
      if (ch === '"') text += this.r() < 0.8 ? '\\"' : hex(c);
      else if (ch === '\\') text += this.r() < 0.8 ? '\\\\' : hex(c);
      else if (c < 0x20) text += this.r() < 0.5 ? hex(c) : JSON.stringify(ch).slice(1, -1);
      else if (lone) text += hex(c);
      else if (ch === '/' && this.r() < 0.5) text += '\\/';
      else if (this.r() < 0.15) text += [...Array(ch.length).keys()].map(k => hex(ch.charCodeAt(k))).join('');
      else text += ch;
    }
    this.out.push(text + '"');
    return value;
  }
}

// ---------------------------------------------------------------------------------------------
// Hand-written documents
// ---------------------------------------------------------------------------------------------

const EDGE_DOCS = [
  '{}',
  '[]',
  ' { } ',
  '[[]]',
  '[{}]',
  '{"":""}',
  '""',
  '"a"',
  '0',
  '-0',
  '-0.0',
  '0.0',
  '123',
  '-123',
  '0.1',
  '0.2',
  '0.3',
  '309432.0',
  '1.7976931348623157e308',
  '-1.7976931348623157e308',
  '5e-324',
  '2.2250738585072014e-308',
  '1e22',
  '1e23',
  '1E+2',
  '1e-2',
  '1.5e-7',
  '1.005',
  '4.35',
  '100e-2',
  '0e0',
  '0E-0',
  '1e400',
  '-1e400',
  '1e-400',
  '9007199254740993',
  '9999999999999999',
  '123456789012345',
  '1234567890123456',
  '123456789012345.6',
  '0.000001234567890123',
  '12345678901234567890123456789',
  '0.1e1',
  '2.5e-22',
  '2.5e22',
  '1e-22',
  '1e-23',
  'true',
  'false',
  'null',
  ' \t\r\n true \n',
  '[true,false,null]',
  '{"a":1,"b":[1,2,{"c":null}],"d":{"e":{"f":"g"}}}',
  '{"1":1,"b":2,"0":0}',
  '{"a":1,"a":2}',
  '{"__proto__":{"x":1},"y":2}',
  '{"constructor":1,"toString":"x","hasOwnProperty":[]}',
  '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
  '"\\u0000\\u001F\\u007f\\u0080\\u00e9\\u00E9\\uFFFF"',
  '"\\ud83d\\ude00 \\uD83D\\uDE00"',
  '"\\ud800 lone high, \\udc00 lone low, \\ude00\\ud83d reversed"',
  '"é 日本 😀 \u2028\u2029 \ufeff"',
  '["é","日本","😀","a😀b","😀😀😀"]',
  '{"é":"日本","😀":{"ключ":"значение"}}',
  '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"',
  '"a string of exactly 32 bytes!!!!"',
  '"a string of exactly 33 bytes!!!!!"',
  '"日本日本日本日本日本日"',
  '[1,-1,1.5,-1.5,1e5,-1e-5,0,0.5,123456789]',
  '[ 1 , 2 ,\n3\r\n,\t4 ]',
  '{"data":[[1,2,0.5,3,null],[4,5,6.25,7,null]],"columns":["a","b"],"nodes":[{"label":"fn12","column":"path","parent":5}]}',
  '{"traceEvents":[{"name":"cudaLaunchKernel","ph":"X","ts":123.456,"dur":7.5,"pid":1,"tid":2,"args":{"grid":"[1,1,1]"}}]}',
  '['.repeat(80) + '1' + ']'.repeat(80),
];

/** Malformed documents: [text, byte offset of the error] (the offset is the input length for truncation). */
const MALFORMED: [string, number][] = [
  ['', 0],
  ['   ', 3],
  ['\n\n', 2],
  ['[1] x', 4],
  ['{} {}', 3],
  ['1 2', 2],
  ['"a" "b"', 4],
  ['[1]]', 3],
  ['{}}', 2],
  ['[1,]', 3],
  ['[1,2,]', 5],
  ['{"a":1,}', 7],
  ['[,1]', 1],
  ['[1,,2]', 3],
  ['{,}', 1],
  ['{a:1}', 1],
  ["{'a':1}", 1],
  ['{"a" 1}', 5],
  ['{"a":1 "b":2}', 7],
  ['{"a"}', 4],
  ['{"a":}', 5],
  ['{1:1}', 1],
  ['[1 2]', 3],
  ['[}', 1],
  ['{]', 1],
  [']', 0],
  ['}', 0],
  [':', 0],
  [',', 0],
  ['NaN', 0],
  ['[NaN]', 1],
  ['Infinity', 0],
  ['-Infinity', 1],
  ['undefined', 0],
  ['01', 1],
  ['-01', 2],
  ['[00]', 2],
  ['00.5', 1],
  ['+1', 0],
  ['.5', 0],
  ['-.5', 1],
  ['1.', 2],
  ['[1.]', 3],
  ['1.e5', 2],
  ['1e', 2],
  ['1e+', 3],
  ['[1e]', 3],
  ['1e+-1', 3],
  ['--1', 1],
  ['-', 1],
  ['[-]', 2],
  ['1.2.3', 3],
  ['1-2', 1],
  ['[1-2]', 2],
  ['[0-1]', 2],
  ['[1.2.3]', 4],
  ['{"a":12e3.5}', 9],
  ['0x10', 1],
  ['1_000', 1],
  ['tru', 3],
  ['trUe', 2],
  ['[truex]', 5],
  ['nul', 3],
  ['nulll', 4],
  ['fals', 4],
  ['True', 0],
  ['"abc', 4],
  ['"abc\\"', 6],
  ['["a', 3],
  ['{"a', 3],
  ['{"a":"b', 7],
  ['[', 1],
  ['{', 1],
  ['[1', 2],
  ['{"a":1', 6],
  ['{"a":', 5],
  ['{"a"', 4],
  ['"a\tb"', 2],
  ['"a\nb"', 2],
  ['"\u0000"', 1],
  ['"\u001f"', 1],
  ['"\\x"', 1],
  ['"\\\'"', 1],
  ['"\\a"', 1],
  ['"\\U0041"', 1],
  ['"\\u12G4"', 5],
  ['"\\u12"', 5],
  ['"\\u"', 3],
  ['"\\', 2],
  ["'a'", 0],
  ['/* comment */ 1', 0],
  ['1 // comment', 2],
  ['\u00a01', 0],
  ['\u000b1', 0],
  ['\f1', 0],
  ['[1]\u0000', 3],
  ['\ufeff\ufeff1', 3],
  ['[\ufeff1]', 1],
];

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('JsonTokenizer: valid documents', () => {
  it('matches JSON.parse (values) and the document order (events) for hand-written edge cases, fed whole', () => {
    for (const doc of EDGE_DOCS) {
      const { events, value } = parseChunks([utf8(doc)]);
      assert.deepStrictEqual(value, JSON.parse(doc), doc);
      // JSON.parse reorders integer-like keys and drops duplicates, so the event order is checked elsewhere for those.
      if (!/"\d+"\s*:|__proto__|"a":1,"a"/.test(doc)) assert.deepStrictEqual(events, eventsOf(JSON.parse(doc)), doc);
    }
  });

  it('gives the same result at every split point, in 3 pieces, and byte by byte', () => {
    for (const doc of EDGE_DOCS) {
      const bytes = utf8(doc);
      const expected = parseChunks([bytes]);
      for (let s = 0; s <= bytes.length; s++)
        assert.deepStrictEqual(parseChunks(cut(bytes, [s])), expected, `${doc} split at ${s}`);
      if (bytes.length <= 48) {
        for (let a = 1; a < bytes.length; a++) {
          for (let b = a; b < bytes.length; b++)
            assert.deepStrictEqual(parseChunks(cut(bytes, [a, b])), expected, `${doc} split at ${a},${b}`);
        }
      }
      assert.deepStrictEqual(parseChunks(cut(bytes, [...bytes.keys()].slice(1))), expected, `${doc} byte by byte`);
    }
  });

  it('computes numbers exactly like Number(text)', () => {
    const r = seededRandom(7);
    const texts: string[] = [];
    for (let i = 0; i < 20000; i++) {
      const intDigits = 1 + Math.floor(r() * 16);
      let int = String(1 + Math.floor(r() * 9));
      for (let k = 1; k < intDigits; k++) int += Math.floor(r() * 10);
      if (r() < 0.2) int = '0';
      let frac = '';
      const fracDigits = Math.floor(r() * 24);
      for (let k = 0; k < fracDigits; k++) frac += Math.floor(r() * 10);
      const exp = r() < 0.4 ? `e${Math.floor(r() * 60) - 30}` : '';
      texts.push(`${r() < 0.5 ? '-' : ''}${int}${frac ? '.' + frac : ''}${exp}`);
    }
    for (let i = 0; i < 5000; i++) {
      const x = (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20);
      texts.push(
        String(x),
        x.toFixed(Math.floor(r() * 12)),
        x.toPrecision(1 + Math.floor(r() * 20)),
        x.toExponential(Math.floor(r() * 18)),
      );
    }
    const doc = `[${texts.join(',')}]`;
    const { events } = parseChunks(randomChunks(utf8(doc), r, 4096));
    const numbers = events.slice(1, -1).map(e => e[1]);
    assert.equal(numbers.length, texts.length);
    for (let i = 0; i < texts.length; i++)
      assert.ok(
        Object.is(numbers[i], Number(texts[i])),
        `${texts[i]}: got ${String(numbers[i])}, expected ${Number(texts[i])}`,
      );
  });

  it('decodes multi-byte UTF-8 split across chunks at every byte', () => {
    const doc = '{"é":"日本","k😀":["😀","a😀","é😀日本"],"x":"\\u00e9😀"}';
    const bytes = utf8(doc);
    const expected = JSON.parse(doc);
    for (let s = 0; s <= bytes.length; s++) {
      for (const t of [s + 1, s + 2, s + 3]) {
        if (t >= bytes.length) continue;
        assert.deepStrictEqual(parseChunks(cut(bytes, [s, t])).value, expected, `split at ${s},${t}`);
      }
    }
  });

  it('decodes invalid UTF-8 with replacement characters, like TextDecoder, at every split point', () => {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const bodies = [
      [0xff],
      [0xe6, 0x97],
      [0x61, 0xe6, 0x97, 0x62],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf0, 0x9f, 0x98],
      [0x80, 0x80, 0xbf],
      [0xc3],
      [0xef, 0xbb, 0xbf, 0x61],
    ];
    const r = seededRandom(3);
    for (let i = 0; i < 300; i++) {
      const n = Math.floor(r() * 40);
      const body: number[] = [];
      for (let k = 0; k < n; k++) {
        const b = r() < 0.6 ? 0x80 + Math.floor(r() * 128) : 0x20 + Math.floor(r() * 96);
        body.push(b === 0x22 || b === 0x5c ? 0x41 : b);
      }
      bodies.push(body);
    }
    for (const body of bodies) {
      const bytes = new Uint8Array([0x5b, 0x22, ...body, 0x22, 0x2c, 0x22, ...body, 0x5c, 0x6e, 0x22, 0x5d]);
      const text = decoder.decode(new Uint8Array(body));
      const expected = [text, text + '\n'];
      for (let s = 0; s <= bytes.length; s++)
        assert.deepStrictEqual(parseChunks(cut(bytes, [s])).value, expected, `[${body}] split at ${s}`);
    }
  });

  it('skips a UTF-8 BOM at the start, also when split, but keeps U+FEFF inside strings', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('["\ufeffa"]')]);
    for (let s = 0; s <= bytes.length; s++) {
      for (let t = s; t <= Math.min(bytes.length, 4); t++)
        assert.deepStrictEqual(parseChunks(cut(bytes, [s, t])).value, ['\ufeffa'], `split at ${s},${t}`);
    }
    assert.deepStrictEqual(parseChunks([new Uint8Array([0xef, 0xbb, 0xbf, 0x31])]).value, 1);
  });

  it('matches the generator on random documents, at every split point (small) and in random 1..64-byte chunks (larger)', () => {
    const r = seededRandom(42);
    const gen = new Generator(r);
    let small = 0;
    for (let i = 0; i < 400; i++) {
      const { text, events } = gen.document(i % 4);
      const bytes = utf8(text);
      const whole = parseChunks([bytes]);
      assert.deepStrictEqual(whole.events, events, text);
      assert.deepStrictEqual(whole.value, JSON.parse(text), text);
      if (bytes.length > 400) continue;
      small++;
      for (let s = 0; s <= bytes.length; s++)
        assert.deepStrictEqual(parseChunks(cut(bytes, [s])).events, events, `${text} split at ${s}`);
    }
    assert.ok(small > 200, `${small} small documents`);
    let large = 0;
    for (let i = 0; i < 60; i++) {
      const { text, events } = gen.documents(1 + Math.floor(r() * 40), 5);
      const bytes = utf8(text);
      large += bytes.length;
      for (let k = 0; k < 4; k++) {
        const { events: got, value } = parseChunks(randomChunks(bytes, r, 64));
        assert.deepStrictEqual(got, events, text);
        assert.deepStrictEqual(value, JSON.parse(text), text);
      }
    }
    assert.ok(large > 100_000, `${large} bytes of larger documents`);
  });

  it('returns the right strings when the short-string cache collides', () => {
    // Far more distinct short strings than the cache has slots, many of the same length, twice.
    const strings: string[] = [];
    for (let i = 0; i < 20000; i++)
      strings.push(`k${String(i).padStart(5, '0')}`, `${String(i).padStart(5, '0')}é`, 'x'.repeat(i % 40) + (i % 10));
    // Runs of same-length strings differing in one byte (first, middle or last): some of them land in the same slot.
    for (let i = 0; i < 3000; i++)
      for (const c of 'abcdefghijklmnopqrstuvwxyz') strings.push(`${c}_${i}`, `p${i}${c}!`, `q${i}${c}`);
    const doc = JSON.stringify([strings, strings.map(x => ({ [x]: x }))]);
    assert.deepStrictEqual(parseChunks(randomChunks(utf8(doc), seededRandom(4), 100_000)).value, JSON.parse(doc));
  });

  it('handles deep nesting without recursion limits', () => {
    const depth = 100_000;
    const doc = '['.repeat(depth) + '{"a":1}' + ']'.repeat(depth);
    const rec = new Recorder();
    const t = new JsonTokenizer(rec);
    let maxDepth = 0;
    const bytes = utf8(doc);
    for (const c of randomChunks(bytes, seededRandom(1), 5000)) {
      t.write(c);
      maxDepth = Math.max(maxDepth, t.depth);
    }
    t.end();
    assert.equal(t.depth, 0);
    assert.ok(maxDepth > depth / 2);
    assert.equal(rec.events.length, 2 * depth + 4);
  });

  it('handles tokens that span many chunks (long strings, numbers) in linear time', () => {
    const long = 'x'.repeat(3_000_000) + 'é' + '\\n'.repeat(1000) + 'y'.repeat(1_000_000);
    const digits = '7'.repeat(100_000);
    const doc = `["${long}",${digits}.5,"${long}"]`;
    const bytes = utf8(doc);
    const rec = new Recorder();
    const t = new JsonTokenizer(rec);
    const started = performance.now();
    for (let i = 0; i < bytes.length; i += 1000) t.write(bytes.subarray(i, i + 1000));
    t.end();
    assert.ok(performance.now() - started < 5000, 'took too long');
    const expected = JSON.parse(doc) as unknown[];
    assert.deepStrictEqual(rec.events, [
      ['['],
      ['string', expected[0]],
      ['number', expected[1]],
      ['string', expected[2]],
      [']'],
    ]);
    assert.equal(t.bytesConsumed, bytes.length);
  });

  it('reports depth inside callbacks and bytesConsumed per chunk', () => {
    const seen: string[] = [];
    class DepthProbe extends Recorder {
      tokenizer!: JsonTokenizer;
      override startObject(): void {
        seen.push(`{${this.tokenizer.depth}`);
      }
      override endObject(): void {
        seen.push(`}${this.tokenizer.depth}`);
      }
      override startArray(): void {
        seen.push(`[${this.tokenizer.depth}`);
      }
      override endArray(): void {
        seen.push(`]${this.tokenizer.depth}`);
      }
      override number(v: number): void {
        seen.push(`${v}@${this.tokenizer.depth}`);
      }
    }
    const probe = new DepthProbe();
    const t = new JsonTokenizer(probe);
    probe.tokenizer = t;
    assert.equal(t.depth, 0);
    t.write(utf8('{"a":[1,{'));
    assert.equal(t.bytesConsumed, 9);
    assert.equal(t.depth, 3);
    t.write(utf8('}],"b":2}'));
    assert.equal(t.bytesConsumed, 18);
    t.end();
    assert.deepStrictEqual(seen, ['{1', '[2', '1@2', '{3', '}2', ']1', '2@1', '}0']);
  });
});

describe('JsonTokenizer: errors', () => {
  it('rejects malformed documents with the right offset, whole and at every split point (and JSON.parse agrees)', () => {
    for (const [doc, offset] of MALFORMED) {
      assert.throws(() => JSON.parse(doc), SyntaxError, `JSON.parse accepts ${JSON.stringify(doc)}`);
      const bytes = utf8(doc);
      const whole = failure([bytes]);
      assert.equal(whole.error.offset, offset, `${JSON.stringify(doc)}: ${whole.error.message}`);
      // A syntax error inside the input is reported by write(); only truncation waits for end().
      const truncated = offset === bytes.length;
      assert.equal(whole.at, truncated ? 'end' : 'write', `${JSON.stringify(doc)}: ${whole.error.message}`);
      assert.match(whole.error.message, truncated ? /^unexpected end of input/ : /^(unexpected|unescaped|invalid)/);
      assert.match(
        whole.error.message,
        new RegExp(`at line ${whole.error.line}, column ${whole.error.column} \\(byte ${offset}\\)`),
      );
      for (let s = 0; s <= bytes.length; s++) {
        const split = failure(cut(bytes, [s]));
        assert.equal(split.error.offset, offset, `${JSON.stringify(doc)} split at ${s}: ${split.error.message}`);
      }
      assert.equal(
        failure(cut(bytes, [...bytes.keys()].slice(1))).error.offset,
        offset,
        `${JSON.stringify(doc)} byte by byte`,
      );
    }
  });

  it('words errors with the character, line, column and byte offset', () => {
    const doc = '{\n  "a": [1, 2],\n  "bcd": tru x\n}';
    const e = failure([utf8(doc)]).error;
    assert.equal(e.message, "unexpected character ' ' at line 3, column 13 (byte 29): expected 'true'");
    assert.deepStrictEqual([e.offset, e.line, e.column], [29, 3, 13]);
    const doc2 = '[\r\n  1,\r\n  2 x]';
    const e2 = failure([utf8(doc2)]).error;
    assert.match(e2.message, /^unexpected character 'x' at line 3, column 5 \(byte 13\)/);
    assert.equal(e2.name, 'JsonSyntaxError');
    assert.ok(e2 instanceof Error);
    const e3 = failure([utf8('[1,\n2')]).error;
    assert.match(e3.message, /^unexpected end of input at line 2, column 2 \(byte 5\)/);
    assert.match(failure([utf8('')]).error.message, /unexpected end of input/);
    assert.match(
      failure([new Uint8Array([0x5b, 0xc3, 0xa9])]).error.message,
      /^unexpected byte 0xC3 at line 1, column 2 \(byte 1\)/,
    );
    assert.match(failure([utf8('"\u0001"')]).error.message, /^unescaped control character U\+0001 in string/);
    assert.match(failure([utf8('"\\q"')]).error.message, /^invalid escape '\\q' in string/);
  });

  it('throws for every truncation of valid documents (never returns silently)', () => {
    const r = seededRandom(9);
    const gen = new Generator(r);
    const docs = EDGE_DOCS.filter(d => /^\s*[[{]/.test(d));
    for (let i = 0; i < 150; i++) {
      const { text } = gen.document(3);
      if (/^\s*[[{]/.test(text)) docs.push(text);
    }
    for (const doc of docs) {
      const bytes = utf8(doc);
      const end = bytes.length - (doc.length - doc.trimEnd().length);
      for (let p = 0; p < end; p++) {
        const prefix = bytes.subarray(0, p);
        const e = failure([prefix]).error;
        assert.equal(e.offset, p, `${doc} cut at ${p}: ${e.message}`);
        assert.match(e.message, /^unexpected end of input/);
        failure(randomChunks(prefix, r, 8));
      }
    }
  });

  it('keeps failing after an error, and refuses write() after end()', () => {
    const t = new JsonTokenizer(new Recorder());
    const first = syntaxError(() => t.write(utf8('[1,]')));
    assert.equal(
      syntaxError(() => t.write(utf8('2'))),
      first,
    );
    assert.equal(
      syntaxError(() => t.end()),
      first,
    );
    const done = new JsonTokenizer(new Recorder());
    done.write(utf8('1'));
    done.end();
    assert.throws(() => done.write(utf8(' ')), /after end/);
  });

  it('propagates handler exceptions', () => {
    class Throwing extends Recorder {
      override number(): void {
        throw new RangeError('reader says no');
      }
    }
    const t = new JsonTokenizer(new Throwing());
    assert.throws(() => t.write(utf8('[1,')), RangeError);
  });
});

describe('ValueAssembler', () => {
  it('assembles a scalar after begin()', () => {
    const a = new ValueAssembler();
    a.begin();
    assert.equal(a.done, false);
    a.number(3);
    assert.equal(a.done, true);
    assert.equal(a.value, 3);
    a.begin();
    a.literal(null);
    assert.deepStrictEqual([a.done, a.value], [true, null]);
    a.begin();
    a.string('s');
    assert.deepStrictEqual([a.done, a.value], [true, 's']);
  });

  it('assembles nested values and is done only when the value that began is complete', () => {
    const a = new ValueAssembler();
    a.begin();
    a.startObject();
    a.key('x');
    a.startArray();
    a.number(1);
    a.startObject();
    a.endObject();
    a.endArray();
    assert.equal(a.done, false);
    a.key('y');
    a.literal(true);
    a.endObject();
    assert.equal(a.done, true);
    assert.deepStrictEqual(a.value, { x: [1, {}], y: true });
    assert.throws(() => a.number(2), /begin\(\)/);
  });

  it('builds own __proto__ properties like JSON.parse, and lets later duplicate keys win', () => {
    const doc = '{"__proto__":{"polluted":true},"a":1,"a":2,"o":{"__proto__":[1]}}';
    const { value } = parseChunks([utf8(doc)]);
    assert.deepStrictEqual(value, JSON.parse(doc));
    const v = value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.ok(Object.hasOwn(v, '__proto__'));
    assert.equal(v.a, 2);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('assembles the subtrees a reader asks for, from the middle of a stream', () => {
    /** Keeps the values of top-level "meta" entries whole and counts the rows of "data" without building them. */
    class Reader implements JsonHandler {
      readonly assembler = new ValueAssembler();
      collecting = false;
      readonly meta: unknown[] = [];
      rows = 0;
      private tokenizer!: JsonTokenizer;
      attach(t: JsonTokenizer): void {
        this.tokenizer = t;
      }
      private forward(f: (h: JsonHandler) => void): boolean {
        if (!this.collecting) return false;
        f(this.assembler);
        if (this.assembler.done) {
          this.meta.push(this.assembler.value);
          this.collecting = false;
        }
        return true;
      }
      startObject(): void {
        this.forward(h => h.startObject());
      }
      endObject(): void {
        this.forward(h => h.endObject());
      }
      startArray(): void {
        if (!this.forward(h => h.startArray()) && this.tokenizer.depth === 3) this.rows++;
      }
      endArray(): void {
        this.forward(h => h.endArray());
      }
      key(name: string): void {
        if (this.forward(h => h.key(name))) return;
        if (this.tokenizer.depth === 1 && name.startsWith('meta')) {
          this.collecting = true;
          this.assembler.begin();
        }
      }
      string(v: string): void {
        this.forward(h => h.string(v));
      }
      number(v: number): void {
        this.forward(h => h.number(v));
      }
      literal(v: boolean | null): void {
        this.forward(h => h.literal(v));
      }
    }
    const doc = '{"meta1":{"a":[1,2,{"b":null}]},"data":[[1,2],[3,4],[5,6]],"meta2":7,"meta3":[],"meta4":"s"}';
    const reader = new Reader();
    const t = new JsonTokenizer(reader);
    reader.attach(t);
    for (const c of randomChunks(utf8(doc), seededRandom(5), 7)) t.write(c);
    t.end();
    assert.deepStrictEqual(reader.meta, [{ a: [1, 2, { b: null }] }, 7, [], 's']);
    assert.equal(reader.rows, 3);
  });
});

describe('tokenizeJsonFile', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'json-tokenizer-test-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function bigDocument(): string {
    const gen = new Generator(seededRandom(11));
    const parts: string[] = [];
    for (let i = 0; i < 300; i++) parts.push(gen.document(4).text);
    return `{"items":[${parts.join(',')}],"end":true}`;
  }

  it('streams a file in chunks with monotonic progress reaching the total', async () => {
    const doc = bigDocument();
    const path = join(dir, 'big.json');
    writeFileSync(path, '\ufeff' + doc);
    const total = Buffer.byteLength(doc) + 3;
    for (const chunkSize of [3, 7, 4096, undefined]) {
      const progress: [number, number][] = [];
      const assembler = new ValueAssembler();
      assembler.begin();
      await tokenizeJsonFile(path, assembler, { chunkSize, onProgress: (read, size) => progress.push([read, size]) });
      assert.deepStrictEqual(assembler.value, JSON.parse(doc));
      assert.ok(progress.length >= (chunkSize === undefined ? 1 : Math.floor(total / chunkSize)));
      for (let i = 0; i < progress.length; i++) {
        assert.equal(progress[i][1], total);
        if (i > 0) assert.ok(progress[i][0] > progress[i - 1][0], 'progress is monotonic');
      }
      assert.equal(progress[progress.length - 1][0], total);
    }
  });

  it('stops reading when aborted and rejects with AbortError', async () => {
    const path = join(dir, 'abort.json');
    writeFileSync(path, bigDocument());
    const controller = new AbortController();
    const calls: number[] = [];
    const rec = new Recorder();
    await assert.rejects(
      tokenizeJsonFile(path, rec, {
        chunkSize: 1000,
        signal: controller.signal,
        onProgress: read => {
          calls.push(read);
          if (calls.length === 2) controller.abort();
        },
      }),
      (e: Error) => e.name === 'AbortError' && e.message.includes(path),
    );
    assert.deepStrictEqual(calls, [1000, 2000]);
    const before = rec.events.length;
    await new Promise(resolve => setTimeout(resolve, 20));
    assert.equal(rec.events.length, before, 'no events after the rejection');
    const pre = new AbortController();
    pre.abort();
    await assert.rejects(tokenizeJsonFile(path, new Recorder(), { signal: pre.signal }), { name: 'AbortError' });
  });

  it('names the file in syntax errors, keeping the JsonSyntaxError class and position', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"a":\n  [1, 2,, 3]}');
    await assert.rejects(tokenizeJsonFile(bad, new Recorder(), { chunkSize: 4 }), (e: unknown) => {
      assert.ok(e instanceof JsonSyntaxError);
      assert.equal(e.message, `${bad}: unexpected character ',' at line 2, column 9 (byte 14): expected a value`);
      assert.deepStrictEqual([e.offset, e.line, e.column], [14, 2, 9]);
      return true;
    });
    const truncated = join(dir, 'truncated.json');
    writeFileSync(truncated, Buffer.from(bigDocument()).subarray(0, 5000));
    await assert.rejects(tokenizeJsonFile(truncated, new Recorder(), { chunkSize: 1024 }), (e: unknown) => {
      assert.ok(e instanceof JsonSyntaxError);
      assert.ok(e.message.startsWith(`${truncated}: unexpected end of input`), e.message);
      assert.equal(e.offset, 5000);
      return true;
    });
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    await assert.rejects(tokenizeJsonFile(empty, new Recorder()), /empty\.json: unexpected end of input/);
    await assert.rejects(tokenizeJsonFile(join(dir, 'missing.json'), new Recorder()), { code: 'ENOENT' });
  });
});

describe('JsonTokenizer: value length limit', () => {
  it('rejects a string longer than maxTokenBytes across chunks, naming the file and the offset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'json-token-limit-'));
    const path = join(dir, 'long.json');
    writeFileSync(path, `{"a": 1, "b": "${'x'.repeat(5000)}"}`);
    for (const chunkSize of [7, 64, 999])
      await assert.rejects(
        tokenizeJsonFile(path, new ValueAssembler(), { chunkSize, limits: { maxLineLength: 1000 } }),
        (e: Error) =>
          e instanceof ProfileReadError &&
          e.message ===
            `${path}: the value at byte 14 is longer than 1000 bytes, the longest value HPC Lens reads (the limit maxLineLength)`,
      );
    // Within the limit the value is read whole.
    const v = new ValueAssembler();
    await tokenizeJsonFile(path, v, { chunkSize: 7, limits: { maxLineLength: 6000 } });
    assert.equal((v.value as { b: string }).b.length, 5000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('raises JsonTokenTooLongError from the tokenizer itself', () => {
    const t = new JsonTokenizer(new ValueAssembler(), { maxTokenBytes: 10 });
    t.write(Buffer.from('["abcdef'));
    assert.throws(() => t.write(Buffer.from('ghijkl"]')), JsonTokenTooLongError);
  });
});

// ---------------------------------------------------------------------------------------------
// Fast paths: exact numbers past 15 digits, and values a handler skips
// ---------------------------------------------------------------------------------------------

/** A Recorder whose key() asks the tokenizer to skip the values of the given keys. */
class Skipper extends Recorder {
  constructor(private readonly skipped: ReadonlySet<string>) {
    super();
  }
  override key(name: string): boolean {
    super.key(name);
    return this.skipped.has(name);
  }
}

/** `events` without the values of the skipped keys (a key stays: key() saw it before answering). */
function withoutSkipped(events: readonly Event[], skipped: ReadonlySet<string>): Event[] {
  const out: Event[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    out.push(e);
    if (e[0] !== 'key' || !skipped.has(e[1] as string)) continue;
    // Drop the value that follows: a scalar, or a balanced container.
    let depth = 0;
    do {
      const k = events[++i]![0];
      if (k === '{' || k === '[') depth++;
      else if (k === '}' || k === ']') depth--;
    } while (depth > 0);
  }
  return out;
}

/** A Recorder that asks for the skipped keys' values raw (SKIP_RAW) and records each, parsed, as a 'raw' event. */
class RawSkipper extends Recorder {
  private pieces: Buffer[] = [];
  constructor(private readonly skipped: ReadonlySet<string>) {
    super();
  }
  override key(name: string): boolean | typeof SKIP_RAW {
    super.key(name);
    return this.skipped.has(name) ? SKIP_RAW : false;
  }
  skippedBytes(bytes: Uint8Array, start: number, end: number, done: boolean): void {
    assert.ok(end > start || done, 'a piece before the last is never empty');
    this.pieces.push(Buffer.from(bytes.subarray(start, end)));
    if (!done) return;
    const text = Buffer.concat(this.pieces).toString('utf8');
    this.pieces = [];
    this.events.push(['raw', JSON.parse(text) as unknown]);
  }
}

/** `events` with the values of the skipped keys replaced by one 'raw' event holding the value. */
function withRawSkipped(events: readonly Event[], skipped: ReadonlySet<string>): Event[] {
  const out: Event[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    out.push(e);
    if (e[0] !== 'key' || !skipped.has(e[1] as string)) continue;
    const a = new ValueAssembler();
    a.begin();
    do {
      const [k, v] = events[++i]!;
      if (k === '{') a.startObject();
      else if (k === '}') a.endObject();
      else if (k === '[') a.startArray();
      else if (k === ']') a.endArray();
      else if (k === 'key') a.key(v as string);
      else if (k === 'string') a.string(v as string);
      else if (k === 'number') a.number(v as number);
      else a.literal(v as boolean | null);
    } while (!a.done);
    out.push(['raw', a.value]);
  }
  return out;
}

function skipChunks(chunks: Uint8Array[], skipped: ReadonlySet<string>, raw = false): Event[] {
  const rec = raw ? new RawSkipper(skipped) : new Skipper(skipped);
  const t = new JsonTokenizer(rec);
  for (const c of chunks) {
    const copy = c.slice();
    t.write(copy);
    copy.fill(0x78);
  }
  t.end();
  assert.equal(t.depth, 0);
  return rec.events;
}

describe('JsonTokenizer: fast paths', () => {
  it('computes integers and decimals past 15 digits exactly (epoch-µs timestamps), also cut at every byte', () => {
    const texts = [
      '1623142623460111',
      '-1623142623460111',
      '9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '9007199254740995',
      '18014398509481985',
      '99999999999999999999',
      '1623142623460111.5',
      '1623142623460.111',
      '162314262346.0111',
      '0.9007199254740991',
      '0.09007199254740993',
      '9007199254740991e-22',
      '9007199254740991e22',
      '9007199254740991e-23',
      '9007199254740993E+1',
      '4503599627370497.5',
      '123456789012345678e-2',
      '0.000000000000000000001',
      '-0',
      '-0.0e5',
    ];
    const r = seededRandom(11);
    for (let i = 0; i < 3000; i++) {
      // 16- and 17-digit mantissas with and without fractions and exponents: the old ≤ 15-digit path missed them.
      let m = String(1 + Math.floor(r() * 9));
      const digits = 15 + Math.floor(r() * 3);
      for (let k = 1; k < digits; k++) m += Math.floor(r() * 10);
      const dot = Math.floor(r() * (digits + 1));
      const text = dot < digits && r() < 0.5 ? `${m.slice(0, dot || 1)}.${m.slice(dot || 1)}` : m;
      texts.push(`${r() < 0.3 ? '-' : ''}${text}${r() < 0.3 ? `e${Math.floor(r() * 50) - 25}` : ''}`);
    }
    const doc = `[${texts.join(',')}]`;
    const check = (events: Event[], how: string) => {
      const numbers = events.slice(1, -1).map(e => e[1]);
      for (let i = 0; i < texts.length; i++)
        assert.ok(Object.is(numbers[i], Number(texts[i])), `${texts[i]} ${how}: got ${String(numbers[i])}`);
    };
    check(parseChunks([utf8(doc)]).events, 'whole');
    for (let k = 0; k < 3; k++) check(parseChunks(randomChunks(utf8(doc), r, 7)).events, 'in 1..7-byte chunks');
    for (const text of texts.slice(0, 22)) {
      const bytes = utf8(` ${text} `);
      for (let s = 0; s <= bytes.length; s++) {
        const { value } = parseChunks(cut(bytes, [s]));
        assert.ok(Object.is(value, Number(text)), `${text} cut at ${s}: got ${String(value)}`);
      }
      // A number at the very end of the input, cut anywhere: only end() can finish it.
      const bare = utf8(text);
      for (let s = 0; s <= bare.length; s++)
        assert.ok(Object.is(parseChunks(cut(bare, [s])).value, Number(text)), `${text} (bare) cut at ${s}`);
    }
  });

  it('skips the values of keys the handler refuses, containers and strings with braces, quotes and escapes included, at every split point', () => {
    const doc =
      '{"ph":"X","args":{"a":"}{\\"]","b":[{"c":"\\u0041\\ud83d\\ude00 ]}"},[],{}],"d":"\\"}","e":-1.5e3,"f":[true,null]},' +
      '"name":"k😀","ts":1623142623460111,"x":{"args":1},"tail":"\\\\"}';
    const skipped = new Set(['args', 'x']);
    const expected = withoutSkipped(parseChunks([utf8(doc)]).events, skipped);
    assert.deepStrictEqual(expected.slice(0, 5), [
      ['{'],
      ['key', 'ph'],
      ['string', 'X'],
      ['key', 'args'],
      ['key', 'name'],
    ]);
    const bytes = utf8(doc);
    for (let s = 0; s <= bytes.length; s++) {
      assert.deepStrictEqual(skipChunks(cut(bytes, [s]), skipped), expected, `split at ${s}`);
      for (let t = s + 1; t < Math.min(bytes.length, s + 9); t++)
        assert.deepStrictEqual(skipChunks(cut(bytes, [s, t]), skipped), expected, `split at ${s},${t}`);
    }
    assert.deepStrictEqual(skipChunks(cut(bytes, [...bytes.keys()].slice(1)), skipped), expected, 'byte by byte');
  });

  it('skips keys of random documents in random chunks and gives the unskipped events otherwise', () => {
    const r = seededRandom(99);
    const gen = new Generator(r);
    for (const skipped of [new Set(['args']), new Set(['name', 'ts', '']), new Set(['ph', 'dur', '__proto__'])]) {
      for (let i = 0; i < 120; i++) {
        const { text, events } = gen.documents(1 + Math.floor(r() * 8), 4);
        const expected = withoutSkipped(events, skipped);
        const bytes = utf8(text);
        assert.deepStrictEqual(skipChunks([bytes], skipped), expected, text);
        assert.deepStrictEqual(skipChunks(randomChunks(bytes, r, 1 + Math.floor(r() * 40)), skipped), expected, text);
      }
    }
  });

  it('hands the bytes of values skipped raw (SKIP_RAW) to the handler, whole across any chunking', () => {
    const doc =
      '{"args" :  {"a":"}{\\"]","b":[{"c":"\\u0041\\ud83d\\ude00 ]}"},[],{}],"d":"\\"}","e":-1.5e3,"f":[true,null]},' +
      '"name":"k😀","ts":1623142623460111,"x":-12.5e1,"y":"\\"","z":null,"tail":"\\\\"}';
    const skipped = new Set(['args', 'x', 'y', 'z']);
    const expected = withRawSkipped(parseChunks([utf8(doc)]).events, skipped);
    assert.deepStrictEqual(expected.slice(1, 3), [
      ['key', 'args'],
      ['raw', { a: '}{"]', b: [{ c: 'A😀 ]}' }, [], {}], d: '"}', e: -1500, f: [true, null] }],
    ]);
    const bytes = utf8(doc);
    for (let s = 0; s <= bytes.length; s++) {
      assert.deepStrictEqual(skipChunks(cut(bytes, [s]), skipped, true), expected, `split at ${s}`);
      for (let t = s + 1; t < Math.min(bytes.length, s + 9); t++)
        assert.deepStrictEqual(skipChunks(cut(bytes, [s, t]), skipped, true), expected, `split at ${s},${t}`);
    }
    assert.deepStrictEqual(skipChunks(cut(bytes, [...bytes.keys()].slice(1)), skipped, true), expected, 'byte by byte');
    const r = seededRandom(7);
    const gen = new Generator(r);
    for (const keys of [new Set(['args']), new Set(['name', 'ts', '']), new Set(['ph', 'dur', '__proto__'])])
      for (let i = 0; i < 120; i++) {
        const { text, events } = gen.documents(1 + Math.floor(r() * 8), 4);
        const want = withRawSkipped(events, keys);
        const b = utf8(text);
        assert.deepStrictEqual(skipChunks([b], keys, true), want, text);
        assert.deepStrictEqual(skipChunks(randomChunks(b, r, 1 + Math.floor(r() * 40)), keys, true), want, text);
      }
  });

  it('reads a new document after reset(), also after an error or mid-document', () => {
    const rec = new Recorder();
    const t = new JsonTokenizer(rec);
    t.write(utf8('{"a":[1,'));
    t.reset();
    t.write(utf8('"x'));
    t.write(utf8('y"'));
    t.end();
    assert.throws(() => t.write(utf8('1')), /after end/);
    t.reset();
    assert.throws(() => t.write(utf8('{"a" 1}')), JsonSyntaxError);
    t.reset();
    rec.events.length = 0;
    t.write(utf8('\ufeff [true, {"k": -2.5}]'));
    t.end();
    assert.deepStrictEqual(rec.events, [['['], ['literal', true], ['{'], ['key', 'k'], ['number', -2.5], ['}'], [']']]);
  });

  it('checks skipped values as strictly as the others, at every split point', () => {
    const skipped = new Set(['args']);
    for (const doc of [
      '{"args":{"a":"\\x"}}',
      '{"args":"\\u12G4"}',
      '{"args":{"a":"\u0001"}}',
      '{"args":[1,}]}',
      '{"args":{"a" 1}}',
      '{"args":[01]}',
      '{"args":tru}',
      '{"args":{"a":1},}',
      '{"args":{"a":[1,2}}',
      '{"args":{"a":1}',
    ]) {
      assert.throws(() => JSON.parse(doc), SyntaxError, doc);
      const bytes = utf8(doc);
      for (let s = 0; s <= bytes.length; s++)
        assert.throws(() => skipChunks(cut(bytes, [s]), skipped), JsonSyntaxError, `${doc} split at ${s}`);
    }
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SaxesParser } from 'saxes';
import {
  XmlAttributes,
  XmlSyntaxError,
  XmlTokenizer,
  type XmlHandler,
  type XmlTokenizerOptions,
} from './xml-tokenizer';
import { seededRandom } from '../../stats/seeded-random';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Event = readonly ['open', string, Record<string, string>] | readonly ['close', string] | readonly ['text', string];

/** Records the event stream (attributes copied, since the tokenizer reuses them). */
class Recorder implements XmlHandler {
  readonly events: Event[] = [];
  openTag(name: string, attributes: XmlAttributes): void {
    this.events.push(['open', name, attributes.toObject()]);
  }
  closeTag(name: string): void {
    this.events.push(['close', name]);
  }
  text(content: string): void {
    this.events.push(['text', content]);
  }
}

const encoder = new TextEncoder();

/** Tokenizes `bytes` cut at the given offsets (ascending). */
function tokenize(
  bytes: Uint8Array,
  cuts: number[] = [],
  options: XmlTokenizerOptions = {},
  recorder = new Recorder(),
): Event[] {
  const t = new XmlTokenizer(recorder, options);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    t.write(bytes.subarray(at, cut));
    at = cut;
  }
  t.end();
  return recorder.events;
}

/** The error thrown for `bytes` cut at the given offsets, or null. */
function errorOf(bytes: Uint8Array, cuts: number[] = []): XmlSyntaxError | null {
  try {
    tokenize(bytes, cuts);
    return null;
  } catch (e) {
    if (!(e instanceof XmlSyntaxError)) throw e;
    return e;
  }
}

/**
 * saxes' events for the same document, the reference of the randomised comparison: CDATA as text,
 * and without the whitespace outside the root element that saxes reports.
 */
function saxesEvents(xml: string): Event[] {
  const events: Event[] = [];
  const parser = new SaxesParser({ xmlns: false });
  let depth = 0;
  parser.on('opentag', tag => {
    depth++;
    events.push(['open', tag.name, { ...(tag.attributes as Record<string, string>) }]);
  });
  parser.on('closetag', tag => {
    depth--;
    events.push(['close', tag.name]);
  });
  parser.on('text', text => {
    if (depth > 0) events.push(['text', text]);
  });
  parser.on('cdata', text => {
    if (text !== '') events.push(['text', text]);
  });
  parser.write(xml);
  parser.close();
  return events;
}

/** Random cut points (ascending) for chunks of 1..maxChunk bytes. */
function randomCuts(length: number, random: () => number, maxChunk: number): number[] {
  const cuts: number[] = [];
  for (let at = 1 + Math.floor(random() * maxChunk); at < length; at += 1 + Math.floor(random() * maxChunk))
    cuts.push(at);
  return cuts;
}

/** A document with every construct, multi-byte characters, and CR/LF/tab to normalize. */
const EVERYTHING = [
  '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n',
  '<!DOCTYPE root SYSTEM "x.dtd" [\n',
  '  <!ELEMENT root (#PCDATA)>\n',
  '  <!ATTLIST root a CDATA "a>b] \'q\'">\n',
  '  <!-- ] > in a comment -->\n',
  '  <?pi in the subset > ?>\n',
  ']>\n',
  '<!-- a comment with <tags> & ampersands -->\n',
  '<?stylesheet href="s.css"?>\n',
  '<root a="1" b = \'two\' c="&lt;&gt;&amp;&quot;&apos;" d="&#10;&#x1F600;é" e="tab\there\r\nline" \u03C0="π">\n',
  '  <child/>\r\n',
  '  <naïve x="€uro">text &amp; more — ünïcödé 😀 &#x1F600;&#65;</naïve>\n',
  '  <cdata><![CDATA[<not> & markup ]] >\r\n]]></cdata>\n',
  '  <mixed>a<!-- c -->b<?p q?>c<b/>d</mixed>\n',
  '  <empty></empty ><sq v=\'"\' w="\'"/>\n',
  '</root >\n',
  '<!-- after -->\n<?after?>\n',
].join('');

const EVERYTHING_EVENTS: Event[] = [
  ['open', 'root', { a: '1', b: 'two', c: '<>&"\'', d: '\n😀é', e: 'tab here line', π: 'π' }],
  ['open', 'child', {}],
  ['close', 'child'],
  ['open', 'naïve', { x: '€uro' }],
  ['text', 'text & more — ünïcödé 😀 😀A'],
  ['close', 'naïve'],
  ['open', 'cdata', {}],
  ['text', '<not> & markup ]] >\n'],
  ['close', 'cdata'],
  ['open', 'mixed', {}],
  ['text', 'a'],
  ['text', 'b'],
  ['text', 'c'],
  ['open', 'b', {}],
  ['close', 'b'],
  ['text', 'd'],
  ['close', 'mixed'],
  ['open', 'empty', {}],
  ['close', 'empty'],
  ['open', 'sq', { v: '"', w: "'" }],
  ['close', 'sq'],
  ['close', 'root'],
];

// ---------------------------------------------------------------------------------------------
// Random documents
// ---------------------------------------------------------------------------------------------

const NAMES = [
  'a',
  'PF',
  'M',
  'cnode',
  'x-y.z',
  'ns:el',
  '_u',
  'é',
  'наз',
  '名前',
  'long_element_name_that_exceeds_the_cache_limit_x',
];
const TEXT_PIECES = [
  'x',
  ' ',
  '\n',
  '\t',
  '12.5',
  '&amp;',
  '&lt;',
  '&gt;',
  '&quot;',
  '&apos;',
  '&#65;',
  '&#x3C0;',
  '&#x1F600;',
  'é',
  '€',
  '😀',
  'a b',
  '>',
  "'",
  '"',
  ']',
  '\r\n',
  '\r',
];

function randomName(random: () => number): string {
  return NAMES[Math.floor(random() * NAMES.length)]!;
}

function randomText(random: () => number, quote: string): string {
  let s = '';
  const n = Math.floor(random() * 6);
  for (let k = 0; k < n; k++) {
    const piece = TEXT_PIECES[Math.floor(random() * TEXT_PIECES.length)]!;
    if (piece !== quote) s += piece;
  }
  return s;
}

function randomElement(random: () => number, depth: number): string {
  const name = randomName(random);
  const used = new Set<string>();
  let attrs = '';
  const nAttrs = Math.floor(random() * 4);
  for (let k = 0; k < nAttrs; k++) {
    const a = randomName(random);
    if (used.has(a)) continue;
    used.add(a);
    const q = random() < 0.8 ? '"' : "'";
    attrs += `${random() < 0.2 ? '\n  ' : ' '}${a}${random() < 0.1 ? ' = ' : '='}${q}${randomText(random, q)}${q}`;
  }
  if (depth > 4 || random() < 0.3) return `<${name}${attrs}${random() < 0.2 ? ' ' : ''}/>`;
  let body = '';
  const nChildren = Math.floor(random() * 5);
  for (let k = 0; k < nChildren; k++) {
    const r = random();
    if (r < 0.45) body += randomElement(random, depth + 1);
    else if (r < 0.75) body += randomText(random, '').replace(/[<\]]/g, '');
    else if (r < 0.85) body += `<!--${randomText(random, '').replace(/-/g, '')}-->`;
    else if (r < 0.93) body += `<![CDATA[${randomText(random, '').replace(/]]>/g, '')}<&]]>`;
    else body += `<?pi ${randomText(random, '').replace(/\?>/g, '')}?>`;
  }
  return `<${name}${attrs}>${body}</${name}${random() < 0.1 ? ' ' : ''}>`;
}

function randomDocument(random: () => number): string {
  const prolog = random() < 0.5 ? '<?xml version="1.0"?>\n' : '';
  const doctype = random() < 0.2 ? '<!DOCTYPE r [ <!ENTITY x "y"> ]>\n' : '';
  const comment = random() < 0.3 ? '<!-- head -->\n' : '';
  return `${prolog}${doctype}${comment}${randomElement(random, 0)}\n${random() < 0.3 ? '<!-- tail -->\n' : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('XmlTokenizer: valid documents', () => {
  const bytes = encoder.encode(EVERYTHING);

  it('reads every construct: declaration, DOCTYPE with an internal subset, comments, PIs, CDATA, entities, character references', () => {
    assert.deepEqual(tokenize(bytes), EVERYTHING_EVENTS);
  });

  it('gives identical events at every split point, in three pieces, and byte by byte', () => {
    for (let cut = 0; cut <= bytes.length; cut++)
      assert.deepEqual(tokenize(bytes, [cut]), EVERYTHING_EVENTS, `split at ${cut}`);
    for (let a = 0; a <= bytes.length; a += 7) {
      for (let b = a; b <= bytes.length; b += 5)
        assert.deepEqual(tokenize(bytes, [a, b]), EVERYTHING_EVENTS, `split at ${a}, ${b}`);
    }
    assert.deepEqual(
      tokenize(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, k) => k + 1),
      ),
      EVERYTHING_EVENTS,
    );
  });

  it('delivers whitespace-only text only when asked, and no text when the handler has no text method', () => {
    const doc = encoder.encode('<a>\n  <b> </b>\n  <c>x</c>\n</a>');
    assert.deepEqual(
      tokenize(doc).filter(e => e[0] === 'text'),
      [['text', 'x']],
    );
    assert.deepEqual(
      tokenize(doc, [], { whitespaceText: true }).filter(e => e[0] === 'text'),
      [
        ['text', '\n  '],
        ['text', ' '],
        ['text', '\n  '],
        ['text', 'x'],
        ['text', '\n'],
      ],
    );
    const names: string[] = [];
    const t = new XmlTokenizer({ openTag: n => names.push(n), closeTag: () => undefined });
    t.write(doc);
    t.end();
    assert.deepEqual(names, ['a', 'b', 'c']);
  });

  it('matches saxes on random documents, whole, at every split point (small ones) and in random chunks', () => {
    const random = seededRandom(7);
    for (let k = 0; k < 400; k++) {
      const xml = randomDocument(random);
      const bytes = encoder.encode(xml);
      const expected = saxesEvents(xml);
      assert.deepEqual(tokenize(bytes, [], { whitespaceText: true }), expected, xml);
      if (k < 40) {
        for (let cut = 0; cut <= bytes.length; cut++)
          assert.deepEqual(tokenize(bytes, [cut], { whitespaceText: true }), expected, `${xml} split at ${cut}`);
      }
      assert.deepEqual(tokenize(bytes, randomCuts(bytes.length, random, 16), { whitespaceText: true }), expected, xml);
    }
  });

  it('reads start tags of the common kind (matched whole on the chunk) as the byte-by-byte lexer reads every kind', () => {
    const long = 'n'.repeat(40);
    const xml =
      `<r a="plain" b='it"s' c="it's" d="x > y" e="" f = "spaced"\n g="2"${' '}>` +
      `<s ${long}="long name" v="{[0x4011e0-0x4011e5) [0x4011f0-0x401200)}"/>` +
      '<t e="&lt;unknown file&gt; [a.out]" w="tab\there" n="line\nend" u="caf\u00e9 \u4e2d" del="\u007f"/>' +
      '<PF i="2" s="1906" l="0" lm="1904" f="1905" n="1906"><M n="2" v="2.61584e+07"/></PF></r>';
    const expected: Event[] = [
      ['open', 'r', { a: 'plain', b: 'it"s', c: "it's", d: 'x > y', e: '', f: 'spaced', g: '2' }],
      ['open', 's', { [long]: 'long name', v: '{[0x4011e0-0x4011e5) [0x4011f0-0x401200)}' }],
      ['close', 's'],
      [
        'open',
        't',
        { e: '<unknown file> [a.out]', w: 'tab here', n: 'line end', u: 'caf\u00e9 \u4e2d', del: '\u007f' },
      ],
      ['close', 't'],
      ['open', 'PF', { i: '2', s: '1906', l: '0', lm: '1904', f: '1905', n: '1906' }],
      ['open', 'M', { n: '2', v: '2.61584e+07' }],
      ['close', 'M'],
      ['close', 'PF'],
      ['close', 'r'],
    ];
    const bytes = encoder.encode(xml);
    assert.deepEqual(tokenize(bytes), expected);
    // One byte per chunk: every tag is cut, so the byte-by-byte lexer reads it from the carry.
    assert.deepEqual(
      tokenize(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, k) => k + 1),
      ),
      expected,
    );
    // A chunk that is a view into a larger buffer: offsets stay the chunk's own.
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    assert.deepEqual(tokenize(padded.subarray(4, 4 + bytes.length)), expected);
  });

  it('reads repeated names of plain start tags (remembered per first byte) as the byte-by-byte lexer reads them', () => {
    // Names and attribute names that share a first byte or a prefix, alternating, so the memo of the
    // name seen last with a first byte is right, a prefix, longer, or another name in turn.
    const xml =
      '<cube><region id="0" idx="1"/><regions id="2"/><region  id="3" i="4"/><role r="5" rr="6"/>' +
      '<r r="7"/><region_x idle="8" id="9"/><name n="a" node="b"/><node n="c" nodes="d" no="e"/>' +
      '<region id="10"/><n n="f"/><na nam="g" name="h"/><name name="i" nam="j"/></cube>';
    const bytes = encoder.encode(xml);
    const expected = tokenize(
      bytes,
      Array.from({ length: bytes.length - 1 }, (_, k) => k + 1),
    );
    assert.deepEqual(tokenize(bytes), expected);
    assert.deepEqual(tokenize(bytes), saxesEvents(xml));
    assert.deepEqual(
      expected.filter(e => e[0] === 'open').map(e => e[1]),
      ['cube', 'region', 'regions', 'region', 'role', 'r', 'region_x', 'name', 'node', 'region', 'n', 'na', 'name'],
    );
  });

  it('reads text runs and end tags from the chunk as byte by byte: entities, CR, UTF-8, names that only share a prefix', () => {
    const xml =
      '<cube>\n<name>MPI_Allreduce</name>\r\n<descr>a &lt; b\r\nand caf\u00e9</descr>' +
      '<p>x\ry</p><ab> <a>t</a ></ab>\n<row>1 2\n3</row></cube>';
    const bytes = encoder.encode(xml);
    const expected = tokenize(
      bytes,
      Array.from({ length: bytes.length - 1 }, (_, k) => k + 1),
      { whitespaceText: true },
    );
    assert.deepEqual(tokenize(bytes, [], { whitespaceText: true }), expected);
    assert.deepEqual(
      expected.filter(e => e[0] === 'text').map(e => e[1]),
      ['\n', 'MPI_Allreduce', '\n', 'a < b\nand caf\u00e9', 'x\ny', ' ', 't', '\n', '1 2\n3'],
    );
    // An end tag naming an element that only shares a prefix with the open one is still an error.
    for (const bad of ['<ab></a>', '<a></ab>', '<a></a', '<a>x</b >']) {
      const whole = errorOf(encoder.encode(bad));
      assert.ok(whole, bad);
      assert.match(whole.message, /does not match|not complete|not closed/, bad);
    }
  });

  it('gives the attributes as reused parallel arrays, with get()', () => {
    const seen: [number, string[], string | undefined][] = [];
    let first: XmlAttributes | null = null;
    const t = new XmlTokenizer({
      openTag: (_name, a) => {
        first ??= a;
        assert.equal(a, first);
        seen.push([a.count, a.names.slice(0, a.count), a.get('y')]);
      },
      closeTag: () => undefined,
    });
    t.write(encoder.encode('<r x="1" y="2" z="3"><s y="4"/><t/></r>'));
    t.end();
    assert.deepEqual(seen, [
      [3, ['x', 'y', 'z'], '2'],
      [1, ['y'], '4'],
      [0, [], undefined],
    ]);
  });

  it('reports the line of the current event, the depth and the bytes consumed', () => {
    const lines: [string, number, number][] = [];
    const t: XmlTokenizer = new XmlTokenizer({
      openTag: name => lines.push([name, t.line, t.depth]),
      closeTag: name => lines.push([`/${name}`, t.line, t.depth]),
    });
    const doc = encoder.encode('<?xml version="1.0"?>\n<a>\n<b\n x="1\n2"/>\r\n\n<c></c>\n</a>\n');
    for (let k = 0; k < doc.length; k += 3) t.write(doc.subarray(k, k + 3));
    assert.equal(t.bytesConsumed, doc.length);
    t.end();
    assert.deepEqual(lines, [
      ['a', 2, 1],
      ['b', 3, 2],
      ['/b', 3, 1],
      ['c', 7, 2],
      ['/c', 7, 1],
      ['/a', 8, 0],
    ]);
  });

  it('handles deep nesting without recursion, and constructs spanning many chunks in linear time', () => {
    const depth = 100_000;
    const deep = encoder.encode(`${'<d>'.repeat(depth)}${'</d>'.repeat(depth)}`);
    let max = 0;
    const t: XmlTokenizer = new XmlTokenizer({
      openTag: () => {
        max = Math.max(max, t.depth);
      },
      closeTag: () => undefined,
    });
    t.write(deep);
    t.end();
    assert.equal(max, depth);
    const big = 'é'.repeat(200_000);
    const doc = encoder.encode(`<r a="${big}"><!--${big}-->${big}<![CDATA[${big}]]></r>`);
    const start = performance.now();
    const events = tokenize(doc, randomCuts(doc.length, seededRandom(3), 64));
    assert.ok(performance.now() - start < 5000, 'linear in the construct length');
    assert.deepEqual(events, [
      ['open', 'r', { a: big }],
      ['text', big],
      ['text', big],
      ['close', 'r'],
    ]);
  });
});

describe('XmlTokenizer: errors', () => {
  const cases: [string, RegExp, number][] = [
    ['<a></b>', /end tag <\/b> does not match the start tag <a>/, 3],
    ['<a>', /unexpected end of input: <a> is not closed/, 3],
    ['</a>', /end tag <\/a> without a matching start tag/, 0],
    ['<a x=1/>', /unexpected character '1': expected a quoted value for attribute x of <a>/, 5],
    ['<a x="1" x="2"/>', /duplicate attribute x in the start tag of <a>/, 9],
    ['<a x="1"y="2"/>', /expected whitespace before an attribute/, 8],
    ['<a x="<"/>', /'<' is not allowed in an attribute value/, 6],
    ['<a/><b/>', /a second root element <b>: only one is allowed/, 4],
    ['<a/>text', /text after the root element/, 4],
    ['x<a/>', /text before the root element/, 0],
    ['<a>&nope;</a>', /undefined entity &nope;/, 3],
    ['<a>&amp</a>', /unterminated entity reference/, 3],
    ['<a>&#xD800;</a>', /character reference &#xD800; is not an XML character/, 3],
    ['<a>&#12a;</a>', /unexpected character 'a': expected a digit in a character reference/, 7],
    ['<a>&#;</a>', /empty character reference/, 3],
    ['<a><!-- x -- y --></a>', /'--' is not allowed inside a comment/, 10],
    ['<![CDATA[x]]><a/>', /a CDATA section outside the root element/, 0],
    ['<a/><!DOCTYPE a>', /a DOCTYPE is only allowed once, before the root element/, 4],
    ['<a><!foo></a>', /expected '--', '\[CDATA\[' or 'DOCTYPE' after '<!'/, 5],
    ['<a>< b/></a>', /unexpected character U\+0020: expected a name, '\/', '\?' or '!' after '<'/, 4],
    ['<a/>\n<?xml version="1.0"?>', /the XML declaration .* must come first/, 5],
    ['', /empty document/, 0],
    ['  \n<!-- only a comment -->\n', /no root element/, 27],
    ['<a>\n  <b>\n</a>', /end tag <\/a> does not match the start tag <b>/, 10],
    ['<a x="1\u0001"/>', /control characters are not allowed in an attribute value/, 7],
  ];

  it('rejects malformed documents with a precise message and offset, whole and at every split point', () => {
    for (const [xml, reason, offset] of cases) {
      const bytes = encoder.encode(xml);
      const whole = errorOf(bytes);
      assert.ok(whole, `${JSON.stringify(xml)} must fail`);
      assert.match(whole.message, reason, JSON.stringify(xml));
      assert.equal(whole.offset, offset, `offset of ${JSON.stringify(xml)}: ${whole.message}`);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const split = errorOf(bytes, [cut]);
        assert.equal(split?.message, whole.message, `${JSON.stringify(xml)} split at ${cut}`);
      }
    }
  });

  it('words errors with the line, the column and the byte offset', () => {
    const e = errorOf(encoder.encode('<a>\n  <b>\n  </c>\n</a>'))!;
    assert.equal(e.message, 'end tag </c> does not match the start tag <b> at line 3, column 3 (byte 12)');
    assert.deepEqual(
      [e.reason, e.line, e.column, e.offset, e.name],
      ['end tag </c> does not match the start tag <b>', 3, 3, 12, 'XmlSyntaxError'],
    );
  });

  it('throws an XmlSyntaxError for every truncation of a valid document, whole and split', () => {
    const bytes = encoder.encode(EVERYTHING.trimEnd().replace(/\s*<!-- after -->\s*<\?after\?>$/, ''));
    // The document minus trailing misc: every proper prefix that ends before the root's end tag is incomplete.
    const rootEnd = bytes.lastIndexOf(0x3e);
    for (let len = 0; len < rootEnd; len++) {
      const prefix = bytes.subarray(0, len);
      const e = errorOf(prefix);
      assert.ok(e, `the prefix of ${len} bytes must fail`);
      assert.match(e.message, /unexpected end of input|empty document/, `prefix of ${len} bytes: ${e.message}`);
      assert.equal(errorOf(prefix, [len >> 1])?.message, e.message, `prefix of ${len} bytes, split`);
    }
    const random = seededRandom(11);
    for (let k = 0; k < 100; k++) {
      const doc = encoder.encode(
        randomDocument(random)
          .trimEnd()
          .replace(/<!-- tail -->$/, '')
          .trimEnd(),
      );
      const len = Math.floor(random() * (doc.length - 1));
      assert.ok(errorOf(doc.subarray(0, len), randomCuts(len, random, 8)), `truncated at ${len}`);
    }
  });

  it('survives random mutations: every result is events or an XmlSyntaxError, the same at any split', () => {
    const random = seededRandom(5);
    const alphabet = [
      '<',
      '>',
      '/',
      '"',
      "'",
      '&',
      ';',
      '#',
      'x',
      '=',
      '!',
      '?',
      '-',
      '[',
      ']',
      ' ',
      '\n',
      '\u00e9',
      '\u{1F600}',
      'CDATA[',
      '<!--',
      '-->',
      ']]>',
      '<?',
      '?>',
    ];
    for (let k = 0; k < 1500; k++) {
      let xml = randomDocument(random);
      const n = 1 + Math.floor(random() * 3);
      for (let m = 0; m < n; m++) {
        const at = Math.floor(random() * (xml.length + 1));
        const r = random();
        const piece = alphabet[Math.floor(random() * alphabet.length)]!;
        xml =
          r < 0.33
            ? xml.slice(0, at) + xml.slice(at + 1)
            : r < 0.66
              ? xml.slice(0, at) + piece + xml.slice(at)
              : xml.slice(0, at) + piece + xml.slice(at + piece.length);
      }
      const bytes = encoder.encode(xml);
      // Byte-level mutations too: cut a multi-byte character or drop in an invalid byte.
      if (k % 5 === 0 && bytes.length > 0)
        bytes[Math.floor(random() * bytes.length)] = 0x80 + Math.floor(random() * 0x80);
      const outcome = (cuts: number[]) => {
        try {
          return tokenize(bytes, cuts);
        } catch (e) {
          if (!(e instanceof XmlSyntaxError)) throw new Error(`${JSON.stringify(xml)}: ${String(e)}`, { cause: e });
          return e.message;
        }
      };
      const whole = outcome([]);
      assert.deepEqual(outcome(randomCuts(bytes.length, random, 5)), whole, JSON.stringify(xml));
      // When saxes accepts it too (reading the same bytes), both must agree on the events.
      if (typeof whole !== 'string') {
        let reference: Event[] | null;
        try {
          reference = saxesEvents(new TextDecoder().decode(bytes)).filter(e => e[0] !== 'text' || e[1].trim() !== '');
        } catch {
          reference = null;
        }
        if (reference)
          assert.deepEqual(
            whole.filter(e => e[0] !== 'text' || e[1].trim() !== ''),
            reference,
            JSON.stringify(xml),
          );
      }
    }
  });

  it('keeps failing after an error, refuses write() after end(), and propagates handler exceptions', () => {
    const t = new XmlTokenizer(new Recorder());
    assert.throws(() => t.write(encoder.encode('<a></b>')), XmlSyntaxError);
    assert.throws(() => t.write(encoder.encode('<c/>')), /does not match/);
    assert.throws(() => t.end(), /does not match/);
    const done = new XmlTokenizer(new Recorder());
    done.write(encoder.encode('<a/>'));
    done.end();
    assert.throws(() => done.write(encoder.encode(' ')), /write\(\) after end\(\)/);
    const boom = new XmlTokenizer({
      openTag: () => {
        throw new RangeError('boom');
      },
      closeTag: () => undefined,
    });
    assert.throws(() => boom.write(encoder.encode('<a/>')), RangeError);
    assert.throws(() => boom.end(), RangeError);
  });
});

describe('XmlTokenizer: construct length limit', () => {
  it('rejects a tag or text run longer than maxConstructBytes across chunks, at its line', () => {
    const doc = Buffer.from(`<root>\n<a n="${'x'.repeat(5000)}"/></root>`);
    for (const chunk of [7, 64, 999]) {
      const t = new XmlTokenizer(new Recorder(), { maxConstructBytes: 1000 });
      assert.throws(
        () => {
          for (let i = 0; i < doc.length; i += chunk) t.write(doc.subarray(i, i + chunk));
          t.end();
        },
        (e: unknown) =>
          e instanceof XmlSyntaxError &&
          /^a tag or text run longer than 1000 bytes, the limit maxLineLength, at line 2/.test(e.message),
      );
    }
    const ok = new XmlTokenizer(new Recorder(), { maxConstructBytes: 6000 });
    for (let i = 0; i < doc.length; i += 7) ok.write(doc.subarray(i, i + 7));
    ok.end();
  });
});

describe('XmlTokenizer: unreadAttributes', () => {
  class Skipping extends Recorder {
    readonly unreadAttributes = new Set(['M']);
  }
  const run = (doc: string, cuts: number[] = []) => tokenize(encoder.encode(doc), cuts, {}, new Skipping());

  it('delivers the named elements without attributes, plain, entity-decoded or cut by a chunk, and every other element whole', () => {
    const doc = '<r><M n="2" v="1.5e+07"/><S i="5" l="3"><M n="3" v="&lt;7"/></S><M\nn="4"\tv="x"></M></r>';
    const expected: Event[] = [
      ['open', 'r', {}],
      ['open', 'M', {}],
      ['close', 'M'],
      ['open', 'S', { i: '5', l: '3' }],
      ['open', 'M', {}],
      ['close', 'M'],
      ['close', 'S'],
      ['open', 'M', {}],
      ['close', 'M'],
      ['close', 'r'],
    ];
    assert.deepEqual(run(doc), expected);
    for (let cut = 1; cut < doc.length; cut++) assert.deepEqual(run(doc, [cut]), expected, `cut at ${cut}`);
  });

  it('still reports malformed start tags of those elements', () => {
    for (const bad of [
      '<r><M n="2" v=3/></r>',
      '<r><M n="2"v="3"/></r>',
      '<r><M n="<"/></r>',
      '<r><M n="1" n="2" v="&amp;"/></r>',
    ]) {
      assert.throws(() => run(bad), XmlSyntaxError, bad);
    }
  });
});

/**
 * Seeded, reproducible damage to a valid input. Case `index` of `format` under `seed` is always the
 * same input (given the same seed corpus): the random generator is seeded from the three.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { seededRandom } from '../../src/analysis/stats/seeded-random';
import { FLIP_BYTES } from '../../test/support/mutations';
import type { Seed } from './seed-corpus';

/** One damaged input, ready to be read. */
export interface FuzzCase {
  format: string;
  index: number;
  seed: Seed;
  /** What was done, e.g. `traces/0.evt: 3 bytes flipped`. */
  description: string;
  /** The path to read: the damaged file, or the damaged copy of a directory seed. */
  path: string;
}

type Random = () => number;

/** Numbers that break naive parsers: not a number, negative, overflowing, past 2^53, past 2^64, subnormal. */
export const HOSTILE_NUMBERS = [
  'NaN',
  '-1',
  '1e308',
  '9007199254740993',
  '-0',
  '1e-400',
  'Infinity',
  '-1e308',
  '18446744073709551617',
  '4294967296',
  '0',
  '99999999999999999999999',
];

/** Depth of the nesting a deep-nesting mutation adds. */
const DEEP = 100_000;

/** FNV-1a of a string: the per-case seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function caseRandom(seed: number, format: string, index: number): Random {
  return seededRandom(hash(`${seed}:${format}:${index}`));
}

const pick = <T>(rnd: Random, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const int = (rnd: Random, lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
const randomBytes = (rnd: Random, n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rnd() * 256)));

/** A byte-level mutation of one file's content. */
type ContentMutation = (data: Buffer, rnd: Random) => [Buffer, string];

const CONTENT_MUTATIONS: [weight: number, name: string, mutate: ContentMutation][] = [
  [
    6,
    'truncate',
    (d, rnd) => {
      const n = Math.floor(rnd() * d.length);
      return [d.subarray(0, n), `truncated to ${n} of ${d.length} bytes`];
    },
  ],
  [
    8,
    'flip',
    (d, rnd) => {
      const out = Buffer.from(d);
      const k = int(rnd, 1, 8);
      for (let i = 0; i < k && out.length; i++)
        out[Math.floor(rnd() * out.length)] = rnd() < 0.7 ? pick(rnd, FLIP_BYTES) : Math.floor(rnd() * 256);
      return [out, `${k} byte${k === 1 ? '' : 's'} overwritten`];
    },
  ],
  [
    4,
    'duplicate-line',
    (d, rnd) => {
      const lines = splitLines(d);
      const i = Math.floor(rnd() * lines.length);
      // At most ~8 MB more: a long line repeated a thousand times would not fit in a string.
      const times = Math.max(
        2,
        Math.min(pick(rnd, [2, 3, 10, 1000]), Math.floor((8 << 20) / Math.max(1, lines[i]!.length))),
      );
      return [
        Buffer.concat([...lines.slice(0, i + 1), ...Array(times - 1).fill(lines[i]!), ...lines.slice(i + 1)]),
        `line ${i + 1} repeated ${times}×`,
      ];
    },
  ],
  [
    4,
    'delete-line',
    (d, rnd) => {
      const lines = splitLines(d);
      const i = Math.floor(rnd() * lines.length);
      return [Buffer.concat(lines.filter((_, k) => k !== i)), `line ${i + 1} deleted`];
    },
  ],
  [
    8,
    'number',
    (d, rnd) => {
      const text = d.toString('latin1');
      const numbers = [...text.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)];
      const value = pick(rnd, HOSTILE_NUMBERS);
      if (numbers.length === 0) return [Buffer.from(value + text, 'latin1'), `${value} prepended`];
      const k = int(rnd, 1, Math.min(4, numbers.length));
      let out = text;
      // Replace from the end so earlier offsets stay valid.
      const chosen = [...new Set(Array.from({ length: k }, () => Math.floor(rnd() * numbers.length)))].sort(
        (a, b) => b - a,
      );
      for (const n of chosen) {
        const m = numbers[n]!;
        out = out.slice(0, m.index) + value + out.slice(m.index! + m[0].length);
      }
      return [Buffer.from(out, 'latin1'), `${chosen.length} number${chosen.length === 1 ? '' : 's'} set to ${value}`];
    },
  ],
  [3, 'deep', (d, rnd) => deepen(d, rnd)],
  [1, 'empty', () => [Buffer.alloc(0), 'emptied']],
  [
    2,
    'magic-garbage',
    (d, rnd) => {
      const keep = Math.min(d.length, int(rnd, 4, 100));
      return [
        Buffer.concat([d.subarray(0, keep), randomBytes(rnd, Math.min(Math.max(0, d.length - keep), 1 << 16))]),
        `the first ${keep} bytes kept, then random bytes`,
      ];
    },
  ],
  [1, 'garbage', (d, rnd) => [randomBytes(rnd, Math.min(d.length, 1 << 16)), 'replaced by random bytes']],
  [
    2,
    'gzip-garbage',
    (_, rnd) =>
      rnd() < 0.5
        ? [gzipSync(randomBytes(rnd, 4096)), 'gzip of random bytes']
        : [Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(rnd, 2000)]), 'gzip magic, then random bytes'],
  ],
  [
    2,
    'long-line',
    (d, rnd) => {
      const lines = splitLines(d);
      const i = Math.floor(rnd() * lines.length);
      const line = lines[i]!.toString('latin1').replace(/\r?\n$/, '');
      const repeat = Math.max(1, Math.floor((2 << 20) / Math.max(1, line.length)));
      return [
        Buffer.concat([...lines.slice(0, i), Buffer.from(line.repeat(repeat) + '\n', 'latin1'), ...lines.slice(i + 1)]),
        `line ${i + 1} made ${repeat}× longer`,
      ];
    },
  ],
];

function splitLines(d: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = d.indexOf(10); i >= 0; i = d.indexOf(10, i + 1)) {
    out.push(d.subarray(start, i + 1));
    start = i + 1;
  }
  if (start < d.length || out.length === 0) out.push(d.subarray(start));
  return out;
}

/**
 * 100,000 levels of nesting where the format nests: arrays around a JSON value, elements inside an
 * XML element, a stack of frames in a line-oriented profile (the separator of the line: `;`, `/`,
 * ` => `, `,`).
 */
function deepen(d: Buffer, rnd: Random): [Buffer, string] {
  const text = d.toString('latin1');
  const head = text.trimStart()[0];
  if (head === '{' || head === '[') {
    const values = [...text.matchAll(/:\s*(-?\d[\d.eE+-]*|"[^"\\]{0,40}"|true|false|null)/g)];
    if (values.length) {
      const m = pick(rnd, values);
      const at = m.index! + m[0].indexOf(m[1]!);
      const open = rnd() < 0.5 ? '['.repeat(DEEP) : '{"a":'.repeat(DEEP);
      const close = open.startsWith('[') ? ']'.repeat(DEEP) : '}'.repeat(DEEP);
      return [
        Buffer.from(text.slice(0, at) + open + m[1] + close + text.slice(at + m[1]!.length), 'latin1'),
        `a JSON value nested ${DEEP} levels deep`,
      ];
    }
  }
  if (head === '<') {
    const tags = [...text.matchAll(/<([A-Za-z][\w.-]*)[^>]*[^/]>/g)];
    if (tags.length) {
      const m = pick(rnd, tags);
      const at = m.index! + m[0].length;
      const tag = pick(rnd, [m[1]!, 'x']);
      return [
        Buffer.from(text.slice(0, at) + `<${tag}>`.repeat(DEEP) + `</${tag}>`.repeat(DEEP) + text.slice(at), 'latin1'),
        `${DEEP} nested <${tag}> elements`,
      ];
    }
  }
  const lines = splitLines(d);
  const i = Math.floor(rnd() * lines.length);
  const line = lines[i]!.toString('latin1');
  const sep = [';', ' => ', '/', ','].find(s => line.includes(s)) ?? ';';
  const cut = line.indexOf(sep);
  const frame = (cut > 0 ? line.slice(0, cut) : 'f').slice(0, 24);
  const rest = cut > 0 ? line.slice(cut) : line;
  return [
    Buffer.concat([
      ...lines.slice(0, i),
      Buffer.from(Array(DEEP).fill(frame).join(sep) + rest, 'latin1'),
      ...lines.slice(i + 1),
    ]),
    `line ${i + 1} nested ${DEEP} frames deep`,
  ];
}

/** Files of a directory seed, relative paths, sorted (so a case picks the same member every time). */
function memberFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...memberFiles(p, base));
    else if (e.isFile()) out.push(relative(base, p));
  }
  return out;
}

/**
 * Writes case `index` of `format` into `caseDir`: picks one of the format's seeds, then either damages
 * the content of the file (or of one member file of a directory seed: gzipped afterwards one time in
 * ten), or its structure: a directory or a symbolic-link loop in place of the file, a member deleted.
 */
export function writeCase(
  seeds: readonly Seed[],
  format: string,
  index: number,
  seed: number,
  caseDir: string,
): FuzzCase {
  const rnd = caseRandom(seed, format, index);
  const candidates = seeds.filter(s => s.format === format);
  if (candidates.length === 0) throw new Error(`no seed for format ${format}`);
  const source = pick(rnd, candidates);
  rmSync(caseDir, { recursive: true, force: true });
  mkdirSync(caseDir, { recursive: true });
  const path = join(caseDir, basename(source.path));
  let target = path;
  let where = '';
  if (source.isDirectory) {
    cpSync(source.path, path, { recursive: true });
    const members = memberFiles(path);
    const member = pick(rnd, members);
    target = join(path, member);
    where = `${member}: `;
  } else {
    writeFileSync(path, readFileSync(source.path));
  }
  const structural = rnd();
  let description: string;
  if (structural < 0.04) {
    rmSync(target);
    mkdirSync(target);
    if (rnd() < 0.5) writeFileSync(join(target, basename(target)), 'x');
    description = 'a directory in place of the file';
  } else if (structural < 0.08) {
    rmSync(target);
    symlinkSync(target, target);
    description = 'a symbolic link loop in place of the file';
  } else if (structural < 0.1 && source.isDirectory) {
    rmSync(target);
    description = 'deleted';
  } else {
    const total = CONTENT_MUTATIONS.reduce((s, [w]) => s + w, 0);
    let r = rnd() * total;
    const [, , mutate] = CONTENT_MUTATIONS.find(([w]) => (r -= w) < 0) ?? CONTENT_MUTATIONS[0]!;
    let [data, what] = mutate(readFileSync(target), rnd);
    if (rnd() < 0.1 && data.length) {
      data = gzipSync(data);
      what += ', then gzipped';
    }
    writeFileSync(target, data);
    description = what;
  }
  return {
    format,
    index,
    seed: source,
    description: `${source.origin}: ${where}${description}`,
    path,
  };
}

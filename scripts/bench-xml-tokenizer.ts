/**
 * Throughput of the streaming XML tokenizer (src/analysis/formats/xml/xml-tokenizer.ts) against
 * saxes (fed through a streaming TextDecoder, as the readers did), on HPCToolkit's experiment.xml
 * of the osu-allgather database (skipped when /work/shared is absent) and on a generated ~50 MB
 * experiment.xml-like document; then the median read time of that database through our reader.
 * Both parsers feed a handler that looks at every attribute, in 1 MiB chunks already in memory.
 *
 *   npx tsx scripts/bench-xml-tokenizer.ts [--mb 50] [--runs 5] [--reads 200]
 *
 * The generated document is written to os.tmpdir() and deleted at the end.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SaxesParser } from 'saxes';
import { readProfile } from '../src/analysis/formats';
import { XmlTokenizer, type XmlAttributes, type XmlHandler } from '../src/analysis/formats/xml/xml-tokenizer';
import { seededRandom } from '../src/analysis/stats/seeded-random';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const targetBytes = arg('mb', 50) * 1e6;
const runs = arg('runs', 5);
const reads = arg('reads', 200);
const OSU = '/work/shared/data/hpctoolkit-xml/osu-allgather-10ranks-2threads';
const CHUNK = 1 << 20;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Touches every name and value, so neither parser can skip the work. */
class CountingHandler implements XmlHandler {
  elements = 0;
  chars = 0;
  openTag(name: string, a: XmlAttributes): void {
    this.elements++;
    this.chars += name.length;
    for (let k = 0; k < a.count; k++) this.chars += a.names[k]!.length + a.values[k]!.length;
  }
  closeTag(): void {}
}

function chunksOf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, at + CHUNK));
  return out;
}

function runOurs(chunks: Buffer[]): number {
  const h = new CountingHandler();
  const t = new XmlTokenizer(h);
  for (const c of chunks) t.write(c);
  t.end();
  return h.chars;
}

function runSaxes(chunks: Buffer[]): number {
  let chars = 0;
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', tag => {
    chars += tag.name.length;
    const a = tag.attributes as Record<string, string>;
    for (const k in a) chars += k.length + a[k]!.length;
  });
  const decoder = new TextDecoder('utf-8');
  for (const c of chunks) parser.write(decoder.decode(c, { stream: true }));
  parser.write(decoder.decode());
  parser.close();
  return chars;
}

/** Median ms of `f` over `n` runs after `warm` warm-up runs. */
function time(f: () => unknown, n: number, warm: number): number {
  for (let k = 0; k < warm; k++) f();
  const xs: number[] = [];
  for (let k = 0; k < n; k++) {
    const t = performance.now();
    f();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

function compare(label: string, bytes: Buffer, n: number, warm: number): void {
  const chunks = chunksOf(bytes);
  if (runOurs(chunks) !== runSaxes(chunks)) throw new Error(`${label}: the parsers disagree`);
  const ours = time(() => runOurs(chunks), n, warm);
  const saxes = time(() => runSaxes(chunks), n, warm);
  const mbs = (ms: number) => (bytes.length / 1e6 / (ms / 1000)).toFixed(0);
  console.log(
    `${label} (${(bytes.length / 1e6).toFixed(2)} MB): ours ${ours.toFixed(2)} ms = ${mbs(ours)} MB/s, saxes ${saxes.toFixed(2)} ms = ${mbs(saxes)} MB/s, ${(saxes / ours).toFixed(1)}× faster`,
  );
}

/** An experiment.xml-like document: header tables, then nested PF/C/L/S scopes with <M> values. */
function writeExperiment(path: string): void {
  const r = seededRandom(1);
  const fd = openSync(path, 'w');
  let pending =
    '<?xml version="1.0"?>\n<!DOCTYPE HPCToolkitExperiment [\n<!ELEMENT HPCToolkitExperiment (Header)>\n]>\n<HPCToolkitExperiment version="2.2">\n<SecCallPathProfile i="0" n="bench">\n<SecHeader>\n<ProcedureTable>\n';
  for (let k = 0; k < 2000; k++)
    pending += `<Procedure i="${k}" n="ns::Solver&lt;double&gt;::step_${k}(int, double const*)" f="0"/>\n`;
  pending += '</ProcedureTable>\n</SecHeader>\n<SecCallPathProfileData>\n';
  let written = 0;
  let id = 1;
  const flush = () => {
    if (pending.length > 1 << 20) {
      written += writeSync(fd, pending);
      pending = '';
    }
  };
  const scope = (depth: number): void => {
    const tag = depth % 2 === 0 ? 'PF' : r() < 0.3 ? 'L' : 'C';
    pending += `<${tag} i="${id++}" s="${Math.floor(r() * 5000)}" l="${Math.floor(r() * 900)}"${tag === 'PF' ? ` lm="1" f="2" n="${Math.floor(r() * 2000)}"` : ''}>\n`;
    pending += `<M n="${Math.floor(r() * 4)}" v="${(r() * 1e7).toPrecision(6)}"/><M n="4" v="${Math.floor(r() * 1e5)}"/>\n`;
    for (let s = Math.floor(r() * 3); s > 0; s--)
      pending += `<S i="${id++}" s="${Math.floor(r() * 5000)}" l="${Math.floor(r() * 900)}">\n<M n="0" v="${(r() * 1e5).toPrecision(6)}"/>\n</S>\n`;
    flush();
    if (depth < 12)
      for (let c = r() < 0.5 ? 1 : 2; c > 0 && written + pending.length < targetBytes; c--) scope(depth + 1);
    pending += `</${tag}>\n`;
  };
  while (written + pending.length < targetBytes) scope(0);
  writeSync(fd, `${pending}</SecCallPathProfileData>\n</SecCallPathProfile>\n</HPCToolkitExperiment>\n`);
  closeSync(fd);
}

async function main(): Promise<void> {
  if (existsSync(OSU)) {
    compare('osu experiment.xml', readFileSync(join(OSU, 'experiment.xml')), 200, 50);
    for (let k = 0; k < 20; k++) await readProfile(OSU);
    const xs: number[] = [];
    for (let k = 0; k < reads; k++) {
      const t = performance.now();
      await readProfile(OSU);
      xs.push(performance.now() - t);
    }
    console.log(
      `hpctoolkit-xml osu-allgather-10ranks-2threads read: median ${median(xs).toFixed(2)} ms of ${reads} reads`,
    );
  } else {
    console.log(`${OSU} is absent: skipping the osu dataset`);
  }
  const path = join(tmpdir(), `hpc-lens-bench-${process.pid}.xml`);
  try {
    writeExperiment(path);
    compare('generated experiment.xml', readFileSync(path), runs, 1);
  } finally {
    rmSync(path, { force: true });
  }
}

void main();

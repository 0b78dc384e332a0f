/**
 * Throughput of the streaming XML tokenizer (src/analysis/formats/xml/xml-tokenizer.ts) against
 * saxes (fed through a streaming TextDecoder, as the readers did), on HPCToolkit's experiment.xml
 * of the osu-allgather database (skipped when /work/shared is absent) and on a generated ~50 MB
 * experiment.xml-like document; then the median read time of that database through our reader.
 * Both parsers feed a handler that looks at every attribute, in 1 MiB chunks already in memory.
 *
 *   npm run bench -- xml-tokenizer     (HPC_LENS_BENCH_TOKENIZER_MB=50, HPC_LENS_BENCH_XML_RUNS=5,
 *                                       HPC_LENS_BENCH_XML_READS=200)
 *
 * The generated document is written to os.tmpdir() and deleted at the end. Medians, CPU beside wall.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SaxesParser } from 'saxes';
import { readProfile } from '../src/analysis/formats';
import { XmlTokenizer, type XmlAttributes, type XmlHandler } from '../src/analysis/formats/xml/xml-tokenizer';
import { seededRandom } from '../src/analysis/stats/seeded-random';
import { formatMBs, formatTiming, timeRepeated } from './bench-timing';

const OSU = join(resolve(__dirname, '..', '..', 'shared'), 'data/hpctoolkit-xml/osu-allgather-10ranks-2threads');
const CHUNK = 1 << 20;

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

async function compare(label: string, bytes: Buffer, n: number, warm: number): Promise<void> {
  const chunks = chunksOf(bytes);
  if (runOurs(chunks) !== runSaxes(chunks)) throw new Error(`${label}: the parsers disagree`);
  const ours = await timeRepeated(() => runOurs(chunks), { repeats: n, warmup: warm });
  const saxes = await timeRepeated(() => runSaxes(chunks), { repeats: n, warmup: warm });
  const mbs = (ms: number) => formatMBs(bytes.length, ms, 0);
  console.log(
    `${label} (${(bytes.length / 1e6).toFixed(2)} MB): ours ${formatTiming(ours, { digits: 2 })} = ${mbs(ours.wallMs)}, ` +
      `saxes ${formatTiming(saxes, { digits: 2 })} = ${mbs(saxes.wallMs)}, ${(saxes.wallMs / ours.wallMs).toFixed(1)}× faster`,
  );
}

/** An experiment.xml-like document: header tables, then nested PF/C/L/S scopes with <M> values. */
function writeExperiment(path: string, targetBytes: number): void {
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

/** The section: the shared osu experiment.xml (when present) and a generated one of about `mb` MB. */
export async function benchXmlTokenizer(
  options: { mb?: number; runs?: number; reads?: number; osuRuns?: number } = {},
): Promise<void> {
  const {
    mb = Number(process.env.HPC_LENS_BENCH_TOKENIZER_MB ?? 50),
    runs = Number(process.env.HPC_LENS_BENCH_XML_RUNS ?? 5),
    reads = Number(process.env.HPC_LENS_BENCH_XML_READS ?? 200),
    osuRuns = 200,
  } = options;
  console.log('\nXML tokenizer against saxes (median of runs):');
  if (existsSync(OSU)) {
    await compare('osu experiment.xml', readFileSync(join(OSU, 'experiment.xml')), osuRuns, Math.ceil(osuRuns / 4));
    const read = await timeRepeated(() => readProfile(OSU), { repeats: reads, warmup: Math.min(20, reads) });
    console.log(
      `hpctoolkit-xml osu-allgather-10ranks-2threads read: median ${formatTiming(read, { digits: 2 })} of ${reads} reads`,
    );
  } else {
    console.log(`${OSU} is absent: skipping the osu dataset`);
  }
  const path = join(tmpdir(), `hpc-lens-bench-${process.pid}.xml`);
  try {
    writeExperiment(path, mb * 1e6);
    await compare('generated experiment.xml', readFileSync(path), runs, 1);
  } finally {
    rmSync(path, { force: true });
  }
}

/**
 * A memory-samples dataset: the samples of one file plus, when one is found, the machine topology
 * they ran on. MemAxes and Mitos lay a run out as a folder, `data/<samples file>` with
 * `hardware.xml` beside `data/`; a samples file opened on its own finds its `hardware.xml` the same
 * way (beside it, or beside its `data/` folder), unless a topology file is named explicitly.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sampleFile } from '../file-sample';
import { ProfileReadError, type FileSample, type ReadOptions } from '../reader';
import type { MachineTopology } from '../../topology/machine';
import type { MemorySampleFormat, MemorySamples } from '../../memory/model/memory-samples';
import { readMemaxesCsv, sniffMemaxesCsv } from './memaxes-csv';
import { readPerfMemScript, sniffPerfMemScript } from './perf-mem-script';

export interface MemoryDataset {
  samples: MemorySamples;
  /** The machine the samples ran on; null when no topology was found (code and data views still work). */
  machine: MachineTopology | null;
  /** The topology file read, or null. */
  topologyPath: string | null;
}

export interface MemoryReadOptions extends ReadOptions {
  /** A topology file to use instead of the `hardware.xml` found beside the samples. */
  topology?: string;
}

/** The MemAxes folder layout: a `data/` folder and `hardware.xml` side by side. */
function isMemaxesFolder(entries: readonly string[]): boolean {
  return entries.includes('data') && entries.includes('hardware.xml');
}

/**
 * The format of a memory-samples file (or MemAxes run folder), or null: `memaxes` for MemAxes and
 * Mitos CSV files, `perf-mem` for `perf script` memory samples.
 */
export function memoryFormatOf(sample: FileSample): MemorySampleFormat | null {
  if (sample.isDirectory) return isMemaxesFolder(sample.entries) ? 'memaxes' : null;
  if (sniffPerfMemScript(sample) > 0) return 'perf-mem';
  if (sniffMemaxesCsv(sample) > 0) return 'memaxes';
  return null;
}

/** Confidence in [0, 1] that `sample` is a memory-samples file or a MemAxes run folder (0: not one). */
export function sniffMemorySamples(sample: FileSample): number {
  if (sample.isDirectory) return isMemaxesFolder(sample.entries) ? 0.8 : 0;
  return Math.max(sniffPerfMemScript(sample), sniffMemaxesCsv(sample));
}

/** Reads one samples file, its format told by content. */
export async function readMemorySamplesFile(path: string, options: ReadOptions = {}): Promise<MemorySamples> {
  const sample = await sampleOrFail(path);
  if (sample.isDirectory) throw new ProfileReadError(path, 'a folder, not a samples file');
  if (sample.size === 0) throw new ProfileReadError(path, 'the file is empty');
  const format = memoryFormatOf(sample);
  if (format === 'perf-mem') return readPerfMemScript(path, options);
  if (format === 'memaxes') return readMemaxesCsv(path, options);
  throw new ProfileReadError(
    path,
    'not memory samples (HPC Lens reads MemAxes and Mitos CSV files and perf script -F …,addr,weight,data_src output)',
  );
}

async function sampleOrFail(path: string): Promise<FileSample> {
  try {
    return await sampleFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ProfileReadError(path, code === 'ENOENT' ? 'no such file or directory' : (e as Error).message, {
      cause: e,
    });
  }
}

/** The samples file of a MemAxes run folder: the one under `data/` (named `samples…` when there are several). */
async function samplesFileOfFolder(folder: string): Promise<string> {
  const data = join(folder, 'data');
  if (!existsSync(data) || !statSync(data).isDirectory())
    throw new ProfileReadError(
      folder,
      'no data/ folder with a samples file (the MemAxes layout is data/ + hardware.xml)',
    );
  const candidates: string[] = [];
  for (const name of readdirSync(data).sort()) {
    const p = join(data, name);
    if (!statSync(p).isFile()) continue;
    if (memoryFormatOf(await sampleFile(p))) candidates.push(p);
  }
  if (candidates.length === 0) throw new ProfileReadError(folder, 'data/ holds no memory-samples file');
  if (candidates.length === 1) return candidates[0]!;
  const named = candidates.filter(p => /^samples\b/i.test(basename(p)));
  if (named.length === 1) return named[0]!;
  throw new ProfileReadError(
    folder,
    `data/ holds ${candidates.length} sample files (${candidates.map(p => basename(p)).join(', ')}); open one of them`,
  );
}

/** `hardware.xml` beside a samples file, or beside the `data/` folder holding it; null when there is none. */
export function topologyBeside(samplesPath: string): string | null {
  const dir = dirname(samplesPath);
  const here = join(dir, 'hardware.xml');
  if (existsSync(here)) return here;
  if (basename(dir) === 'data') {
    const up = join(dirname(dir), 'hardware.xml');
    if (existsSync(up)) return up;
  }
  return null;
}

/**
 * Reads a memory-samples dataset from a samples file or a MemAxes run folder, with its topology:
 * `options.topology` when given, else the `hardware.xml` found beside the samples, else none.
 */
export async function readMemoryDataset(path: string, options: MemoryReadOptions = {}): Promise<MemoryDataset> {
  const top = await sampleOrFail(path);
  const samplesPath = top.isDirectory ? await samplesFileOfFolder(path) : path;
  const samples = await readMemorySamplesFile(samplesPath, options);
  const topologyPath = options.topology ?? topologyBeside(samplesPath);
  // Loaded here, not at import: sniffing memory samples (every `hpc-lens inspect`) needs no XML reader.
  const machine = topologyPath
    ? await import('../machine/machine-file').then(m => m.readMachineTopology(topologyPath, options))
    : null;
  return { samples, machine, topologyPath };
}

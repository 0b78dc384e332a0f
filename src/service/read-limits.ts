import type { ReadOptions } from '../analysis/formats/reader';

/**
 * The limits a read runs under (line length, decompressed size, …): the readers' own options minus
 * the per-call signal and progress, so every limit a reader learns is settable through the service.
 * `systems` carries what a system that opens datasets by path reads them with from the settings, by
 * system name (the PDES system: `hpcLens.pdes.handlers` and the folders its handler sources are in);
 * each system checks its own entry.
 */
export type ReadLimits = Partial<Omit<ReadOptions, 'signal' | 'onProgress'>> & {
  systems?: Readonly<Record<string, unknown>>;
};

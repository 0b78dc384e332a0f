import type { ReadOptions } from '../analysis/formats/reader';

/**
 * The limits a read runs under (line length, decompressed size, …): the readers' own options minus
 * the per-call signal and progress, so every limit a reader learns is settable through the service.
 */
export type ReadLimits = Partial<Omit<ReadOptions, 'signal' | 'onProgress'>>;

import type { FileSample } from '../../src/analysis/formats/reader';

/**
 * The sample sampleFile takes of a plain (uncompressed, text) file whose first bytes are `head`, for
 * sniffer tests; `over` changes fields (a tail, a directory's entries, gzip).
 */
export function textSample(head: string, over: Partial<FileSample> = {}): FileSample {
  return {
    path: 'x',
    isDirectory: false,
    size: head.length,
    head,
    tail: '',
    entries: [],
    gzip: false,
    binary: false,
    ...over,
  };
}

import { contentHead, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is Caliper json-split: the cheap test the registry runs before loading the reader. */
export const caliperJsonSplitSniffer: FormatSniffer = {
  id: 'caliper-json-split',
  name: 'Caliper json-split',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = contentHead(sample);
    if (!head.startsWith('{')) return 0;
    const text = head + sample.tail;
    const has = (k: string) => text.includes(`"${k}"`);
    // json-split keeps the big "data" first and "columns"/"nodes" last: look at both ends.
    if (has('columns') && has('nodes') && (has('column_metadata') || has('data'))) return 0.95;
    if (/^\{\s*"data"\s*:\s*\[\s*\[/.test(head)) return 0.6;
    return 0;
  },
};

import { contentHead, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is Hatchet literal (JSON): the cheap test the registry runs before loading the reader. */
export const hatchetLiteralSniffer: FormatSniffer = {
  id: 'hatchet-literal',
  name: 'Hatchet literal (JSON)',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = contentHead(sample);
    // The first root opens with one of the keys to_literal writes (in its order or sorted).
    // startsWith first: the expression is compiled on first use in every process that sniffs with it.
    if (!head.startsWith('[') || !/^\[\s*\{\s*"(name|frame|metrics|attributes|children)"\s*:/.test(head)) return 0;
    if (!head.includes('"metrics"')) return 0;
    if (head.includes('"frame"')) return 0.9;
    return head.includes('"name"') ? 0.6 : 0;
  },
};

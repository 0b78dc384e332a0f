import { withoutBom, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is gprof2dot DOT call graph: the cheap test the registry runs before loading the reader. */
export const gprof2dotDotSniffer: FormatSniffer = {
  id: 'gprof2dot-dot',
  name: 'gprof2dot DOT call graph',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = withoutBom(sample.head);
    if (!/^\s*(?:(?:\/\/|#)[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*(?:strict\s+)?digraph\b/i.test(head)) return 0;
    // gprof2dot's node labels: a percentage line followed by a parenthesised one and a call count.
    if (/label="[^"]*\\n\d+(?:\.\d+)?%\\n\(\d+(?:\.\d+)?%\)(?:\\n\d+\s*×)?"/.test(head)) return 0.9;
    return 0;
  },
};

import { withoutBom, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is gprof2dot DOT call graph: the cheap test the registry runs before loading the reader. */
export const gprof2dotDotSniffer: FormatSniffer = {
  id: 'gprof2dot-dot',
  name: 'gprof2dot DOT call graph',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = withoutBom(sample.head);
    // The pattern below can only match from one of these first characters; deciding that first
    // spares most files compiling and running it (this runs on every file opened).
    const first = head.trimStart().charAt(0);
    if (first !== '/' && first !== '#' && first !== 's' && first !== 'S' && first !== 'd' && first !== 'D') return 0;
    if (!/^\s*(?:(?:\/\/|#)[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*(?:strict\s+)?digraph\b/i.test(head)) return 0;
    // gprof2dot's node labels: a percentage line followed by a parenthesised one and a call count.
    if (/label="[^"]*\\n\d+(?:\.\d+)?%\\n\(\d+(?:\.\d+)?%\)(?:\\n\d+\s*×)?"/.test(head)) return 0.9;
    return 0;
  },
};

import type { FileSample, FormatSniffer } from '../reader';

/** `frame;frame;… count`; frames may hold spaces, the count is the last token (integer or decimal). */
const FOLDED_LINE = /^\S.*?[ \t]+\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\s*$/;

/** The start of a stack: a frame (not JSON, XML or a comment) and more frames after it. */
const STACK_START = /^[^\s{[<#"][^;\n]*;[^\n]*;/;
/** The end of a folded line: the last frame, whitespace, then the count (the frame may begin before the tail). */
const STACK_END = /\S[ \t]+\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[ \t\r]*\n?$/;

/**
 * The score of a sample whose head is one unfinished line (a stack tens of thousands of frames
 * deep is longer than the sampled head): frames separated by `;` at the start and, when the tail
 * was sampled, `frame count` at the end of the file.
 */
function longStackScore(line: string, sample: FileSample): number {
  if (sample.binary || !STACK_START.test(line)) return 0;
  if (sample.gzip) return 0.3; // no tail to check
  return STACK_END.test(sample.tail) ? 0.6 : 0;
}

/** Whether a file is Folded (collapsed) stacks: the cheap test the registry runs before loading the reader. */
export const foldedStacksSniffer: FormatSniffer = {
  id: 'folded-stacks',
  name: 'Folded (collapsed) stacks',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    let head = sample.head;
    // UTF-16 decoded as UTF-8: a mangled BOM, then NUL between ASCII characters.
    if (/^(\uFFFD\uFFFD|\uFEFF)/.test(head) || head.slice(0, 64).includes('\u0000'))
      head = head
        .replace(/^(\uFFFD\uFFFD|\uFEFF)/, '')
        .split('\u0000')
        .join('');
    const cut = sample.size > sample.head.length || sample.gzip;
    if (cut && !head.includes('\n')) return longStackScore(head, sample);
    let seen = 0,
      withSemicolon = 0;
    // Line by line (as split on /\r?\n/), stopping at the first line that is not folded stacks.
    for (let start = 0; start <= head.length;) {
      let end = head.indexOf('\n', start);
      if (end < 0) {
        if (cut) break; // the last line may be cut short
        end = head.length;
      }
      const line = head.slice(start, end < head.length && head.charCodeAt(end - 1) === 13 ? end - 1 : end);
      start = end + 1;
      if (!line.trim()) continue;
      if (!FOLDED_LINE.test(line)) return 0;
      if (line.includes(';')) withSemicolon++;
      if (++seen === 50) break;
    }
    if (seen === 0) return 0;
    return withSemicolon > 0 ? 0.7 : 0.2;
  },
};

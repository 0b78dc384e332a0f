import type { FileSample, FormatSniffer } from '../reader';
import { parseSampleHeader } from '../perf-script/lines';

/** Whether a file is Linux perf script: the cheap test the registry runs before loading the reader. */
export const perfScriptSniffer: FormatSniffer = {
  id: 'perf-script',
  name: 'Linux perf script',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    // Of the first 200 lines, the first that is neither a comment nor blank (index k) and the one
    // after it, found without splitting the rest of the head.
    const head = sample.head;
    const lineAt = (start: number) => {
      const end = head.indexOf('\n', start);
      return end < 0 ? head.slice(start) : head.slice(start, end);
    };
    let k = 0;
    let start = 0;
    let first: string | undefined;
    for (; k < 200 && start <= head.length; k++) {
      const line = lineAt(start);
      if (!line.startsWith('#') && line.trim()) {
        first = line;
        break;
      }
      start += line.length + 1;
    }
    if (k > 0 && /^# perf version :/m.test(head) && /^# =+\s*$/m.test(head)) return 0.9;
    const h = first !== undefined ? parseSampleHeader(first.replace(/\r$/, '')) : null;
    if (!h || !h.seconds) return 0;
    const afterFirst = start + first!.length + 1;
    const next = k + 1 < 200 && afterFirst <= head.length ? lineAt(afterFirst) : undefined;
    if (next !== undefined && /^\s+[0-9a-fA-F]+ \S/.test(next)) return 0.9;
    return h.event ? 0.5 : 0;
  },
};

import type { FileSample, FormatSniffer } from '../reader';
import { looksLikeAnchor } from '../otf2/anchor';

/** Anchor files of a directory listing: `*.otf2` with a `.def` of the same name beside them. */
export function findAnchors(entries: string[]): string[] {
  const names = new Set(entries);
  return entries
    .filter(e => e.endsWith('.otf2') && names.has(`${e.slice(0, -5)}.def`))
    .sort((x, y) => (x === 'traces.otf2' ? -1 : y === 'traces.otf2' ? 1 : x.localeCompare(y)));
}

/** Whether a file is OTF2 trace (Score-P): the cheap test the registry runs before loading the reader. */
export const otf2Sniffer: FormatSniffer = {
  id: 'otf2',
  name: 'OTF2 trace (Score-P)',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return findAnchors(sample.entries).length ? 0.95 : 0;
    return looksLikeAnchor(sample.head) ? 0.95 : 0;
  },
};

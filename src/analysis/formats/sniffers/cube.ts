import { contentHead, type FileSample, type FormatSniffer } from '../reader';
import { hasUstarMagic, headerString } from '../cube/tar-archive';

/** The format id of CUBE profiles (Score-P writes them). */
export const CUBE_FORMAT_ID = 'scorep-cube';

/** Entry names that open a `.cubex` archive as Score-P and Cube's tools write it. */
const CUBEX_FIRST_ENTRY = /^(\.\/)?(anchor\.xml|remapping\.spec|\d+\.(index|data))$/;

/** A sniffed head that is a tar archive whose first entry is a CUBE part, or that mentions CUBE parts. */
function looksLikeCubex(head: string): boolean {
  // The head is the file start decoded as UTF-8; a tar header is ASCII apart from the names, which re-encode exactly.
  const bytes = Buffer.from(head.slice(0, 1024), 'utf8');
  if (!hasUstarMagic(bytes)) return false;
  if (CUBEX_FIRST_ENTRY.test(headerString(bytes, 0, 100))) return true;
  return head.includes('CUBEX.INDEX') || head.includes('CUBEX.DATA') || /<cube\s+version=/.test(head);
}

/** Whether a file is CUBE (Score-P, Scalasca): the cheap test the registry runs before loading the reader. */
export const cubeSniffer: FormatSniffer = {
  id: CUBE_FORMAT_ID,
  name: 'CUBE (Score-P, Scalasca)',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    if (looksLikeCubex(sample.head)) return 0.95;
    const text = contentHead(sample);
    if (!text.startsWith('<')) return 0;
    const version = /<cube\s+version\s*=\s*["'](\d+)/.exec(text.slice(0, 8192))?.[1];
    if (version === undefined) return 0;
    // CUBE3 files are complete profiles; a lone CUBE4 anchor.xml is read only to say where its values are.
    return version === '3' ? 0.95 : 0.5;
  },
};

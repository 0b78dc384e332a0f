import { join } from 'node:path';
import { readHeadBytes } from '../file-sample';
import { withoutBom, type FileSample, type FormatSniffer } from '../reader';

/** The names experiment.xml has in a database directory. */
export const EXPERIMENT_XML = ['experiment.xml', 'experiment.xml.gz'];

/** The first bytes of a file as text, gunzipped when compressed ('' when unreadable). */
function readHead(path: string): string {
  return readHeadBytes(path, 16 * 1024).toString('utf8');
}

/**
 * How sure a file head is experiment.xml: HPCToolkit's root element (or its DOCTYPE). Versions
 * after 2.x came with other value files, so they are left to a reader that knows them.
 */
function experimentHeadScore(head: string): number {
  const text = withoutBom(head).trimStart();
  if (!text.startsWith('<') || !/<(!DOCTYPE\s+)?HPCToolkitExperiment[\s>]/.test(text)) return 0;
  const version = /<HPCToolkitExperiment\s+version\s*=\s*["'](\d+)\./.exec(text);
  return version && Number(version[1]) > 2 ? 0.5 : 0.95;
}

/** Whether a file is HPCToolkit database (experiment.xml): the cheap test the registry runs before loading the reader. */
export const hpctoolkitXmlSniffer: FormatSniffer = {
  id: 'hpctoolkit-xml',
  name: 'HPCToolkit database (experiment.xml)',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) {
      const name = EXPERIMENT_XML.find(n => sample.entries.includes(n));
      return name ? experimentHeadScore(readHead(join(sample.path, name))) : 0;
    }
    return experimentHeadScore(sample.head);
  },
};

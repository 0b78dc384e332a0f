import { quoteContent } from '../errors/escape-control';
import type { Profile } from '../model/profile';
import { RecordTable } from './caliper/record-table';
import { forEachLine } from './io/file-input';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
import { caliperExpandSniffer } from './sniffers/caliper-expand';

/**
 * Caliper's `expand` output (`cali-query -e`, or `-q "… format expand"`): one record per line as
 * `attribute=value` pairs separated by commas, each nested attribute on its own with its values
 * joined by `/`, numbers as written:
 *
 *   function=main/solve,loop=lulesh.cycle,mpi.rank=0,sum#time.duration=0.25
 *
 * The form has no escaping: a `,` inside a value is read as part of the value when the text after
 * it has no `=` (an entry cannot be split from it). It carries no run metadata.
 */
export const caliperExpandReader: ProfileReader = {
  ...caliperExpandSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const table = new RecordTable(path, 'caliper-expand');
    const onLine = (text: string, n: number) => {
      if (n === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.trim() === '') return;
      const where = `line ${n}`;
      table.beginRecord();
      let key: string | null = null;
      let value = '';
      for (const entry of text.split(',')) {
        const eq = entry.indexOf('=');
        if (eq < 0) {
          if (key === null) throw new ProfileReadError(path, `${where}: not a key=value record: ${quoteContent(text)}`);
          value += `,${entry}`;
          continue;
        }
        if (key !== null) table.field(key, value, where);
        key = entry.slice(0, eq);
        value = entry.slice(eq + 1);
        if (key === '') throw new ProfileReadError(path, `${where}: an entry has no attribute name before "="`);
      }
      if (key !== null) table.field(key, value, where);
      table.endRecord();
    };
    try {
      await forEachLine(path, onLine, {
        signal: options.signal,
        limits: options.limits,
        onProgress: f => options.onProgress?.(0.9 * f, 'Reading Caliper expand'),
      });
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      throw new ProfileReadError(path, (e as Error).message, { cause: e });
    }
    throwIfAborted(options.signal);
    options.onProgress?.(0.9, 'Building the call tree');
    const profile = table.build();
    options.onProgress?.(1);
    return profile;
  },
};

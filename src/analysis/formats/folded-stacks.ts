import { quoteContent } from '../errors/escape-control';
import type { NodeAttributes } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { forEachLine, readBytes, readChunks } from './io/file-input';
import { ProfileReadError, type ProfileReader, type ReadOptions } from './reader';
import { SampledProfile } from './sampled-stacks/sampled-profile';
import { foldedStacksSniffer } from './sniffers/folded-stacks';

/** FlameGraph's frame annotations (`func_[k]`): what they say about the frame, as a module hint. */
const ANNOTATION_MODULES: Record<string, string> = { k: '[kernel]', j: '[jit]', i: '[inlined]', w: '[waker]' };
const ANNOTATION = /_\[([kjiw])\]$/;

/**
 * Folded ("collapsed") stacks as written by FlameGraph's stackcollapse-* scripts, `perf script |
 * stackcollapse-perf.pl`, py-spy, speedscope and many others: one stack per line, root first,
 * frames separated by `;`, then a sample count. No timestamps and no threads, so the result is a
 * profile only (one context), with the `samples` metric exclusive at each stack's leaf. UTF-8 or
 * UTF-16 (with a byte-order mark), CRLF or LF, gzip or not.
 */
export const foldedStacksReader: ProfileReader = {
  ...foldedStacksSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const sp = new SampledProfile('folded-stacks', path);
    const b = sp.builder;
    const context = b.context({});
    const frameOf = new Map<string, number>();
    let stack = new Int32Array(64);
    let rows = 0;
    const frameId = (raw: string): number => {
      let id = frameOf.get(raw);
      if (id === undefined) {
        const m = ANNOTATION.exec(raw);
        const name = (m ? raw.slice(0, -4) : raw) || '[unknown]'; // `_[k]` alone
        const attrs: NodeAttributes = m ? { module: ANNOTATION_MODULES[m[1]!]! } : {};
        id = sp.stacks.frame(name, attrs);
        frameOf.set(raw, id);
      }
      return id;
    };
    const onLine = (text: string, lineNumber: number): void => {
      const line = text.trimEnd();
      if (!line) return;
      const cut = Math.max(line.lastIndexOf(' '), line.lastIndexOf('\t'));
      const count = cut > 0 ? Number(line.slice(cut + 1)) : NaN;
      if (!(count >= 0) || !Number.isFinite(count)) {
        throw new ProfileReadError(path, `line ${lineNumber} is not "frame;frame;… count": ${quoteContent(line)}`);
      }
      const body = line.slice(0, cut).trimEnd();
      let n = 0;
      for (let at = 0; at <= body.length;) {
        let end = body.indexOf(';', at);
        if (end < 0) end = body.length;
        if (n === stack.length) {
          const grown = new Int32Array(n * 2);
          grown.set(stack);
          stack = grown;
        }
        // Empty frames (`a;;b`, a trailing `;`) are artefacts of the collapsing scripts.
        if (end > at) stack[n++] = frameId(body.slice(at, end));
        at = end + 1;
      }
      if (n === 0) throw new ProfileReadError(path, `line ${lineNumber} has a count but no frames`);
      sp.addSample(sp.stacks.path(stack, n, true), context, count);
      rows++;
    };
    const input = {
      signal: options.signal,
      limits: options.limits,
      onProgress: (f: number) => options.onProgress?.(0.95 * f, 'Reading stacks'),
    };
    const utf16 = await utf16Encoding(path, options.signal);
    if (utf16) {
      // UTF-16 files (Windows redirections) are small; decode them whole (512 MiB keeps the text within V8's string limit).
      const text = new TextDecoder(utf16).decode(await readBytes(path, { ...input, maxBytes: 512 << 20 }));
      let lineNumber = 0;
      for (let at = 0; at < text.length;) {
        let end = text.indexOf('\n', at);
        if (end < 0) end = text.length;
        onLine(text.slice(at, end).replace(/\r$/, ''), ++lineNumber);
        at = end + 1;
      }
    } else {
      await forEachLine(path, onLine, input);
    }
    if (rows === 0) throw new ProfileReadError(path, 'no stacks: the file holds no "frame;frame;… count" lines');
    b.metadata['stacks'] = rows;
    if (utf16) b.metadata['encoding'] = utf16;
    options.onProgress?.(1);
    return sp.finish();
  },
};

/** 'utf-16le' or 'utf-16be' when the (gunzipped) content starts with that byte-order mark. */
async function utf16Encoding(path: string, signal: AbortSignal | undefined): Promise<'utf-16le' | 'utf-16be' | null> {
  for await (const chunk of readChunks(path, { signal, chunkSize: 1 << 16 })) {
    if (chunk[0] === 0xff && chunk[1] === 0xfe) return 'utf-16le';
    if (chunk[0] === 0xfe && chunk[1] === 0xff) return 'utf-16be';
    return null;
  }
  return null;
}

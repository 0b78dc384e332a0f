import type { Profile } from '../model/profile';

/** What a reader may look at to decide whether a file is its format (content, not extension). */
export interface FileSample {
  path: string;
  isDirectory: boolean;
  size: number;
  /** The first bytes of a file decoded as UTF-8 (empty for directories). */
  head: string;
  /** The last bytes of a file decoded as UTF-8 (empty for directories and small files). */
  tail: string;
  /** Names of the entries of a directory (empty for files). */
  entries: string[];
  /** The file is gzip-compressed; `head` is then the start of the decompressed content. */
  gzip: boolean;
  /** The head holds NUL characters: a binary file, which text-format sniffers can dismiss at once. */
  binary: boolean;
}

/** `text` without a leading UTF-8 byte-order mark (editors on Windows write one). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The head of a sample as text formats see it: no byte-order mark, no leading whitespace. */
export function contentHead(sample: FileSample): string {
  return withoutBom(sample.head).trimStart();
}

export interface ReadOptions {
  signal?: AbortSignal;
  /** Progress in [0, 1] with an optional phase message. */
  onProgress?: (fraction: number, message?: string) => void;
}

export interface ProfileReader {
  /** Stable id, also reported as `format` by `hpc-lens inspect`. */
  readonly id: string;
  /** Human name for messages. */
  readonly name: string;
  /** Confidence in [0, 1] that the sample is this reader's format; 0 means "not mine". */
  sniff(sample: FileSample): number;
  read(path: string, options?: ReadOptions): Promise<Profile>;
}

/** A file could not be read as a profile. The message always names the file and the reason. */
export class ProfileReadError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${reason}`, options);
    this.name = 'ProfileReadError';
  }
}

/** A file-system error as a reader's reason: `no such file or directory`, `permission denied`, or the message. */
export function fileErrorReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? 'no such file or directory'
    : code === 'EACCES'
      ? 'permission denied'
      : (e as Error).message;
}

// Cancellation lives in the model layer so graphs and analyses below the readers can use it too.
export { isAbortError, throwIfAborted } from '../model/cancellation';

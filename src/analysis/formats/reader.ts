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

/**
 * Bounds on what one input may cost, so that a hostile or broken file ends in a clear error instead
 * of exhausting memory or time. Every field is optional (see {@link DEFAULT_INPUT_LIMITS}); the
 * editor exposes them as settings.
 */
export interface InputLimits {
  /** Longest line the line-oriented readers accept, in characters (UTF-16 code units; bytes for ASCII). */
  maxLineLength?: number;
  /** Most bytes a compressed (gzip) file may decompress to. */
  maxDecompressedBytes?: number;
  /**
   * Most decompressed bytes per compressed byte: a decompression bomb expands a thousandfold, real
   * profiles 5–50×. Only applies once the output passes {@link DECOMPRESSION_RATIO_FLOOR}.
   */
  maxDecompressionRatio?: number;
  /** Largest (decompressed) file the formats that need a whole file in memory read (databases, archives, protobuf). */
  maxWholeFileBytes?: number;
}

export const DEFAULT_INPUT_LIMITS: Readonly<Required<InputLimits>> = {
  maxLineLength: 16 * 1024 ** 2,
  maxDecompressedBytes: 8 * 1024 ** 3,
  maxDecompressionRatio: 200,
  maxWholeFileBytes: 2 * 1024 ** 3,
};

/** Output below this size is never a decompression bomb, whatever the ratio (small files compress well). */
export const DECOMPRESSION_RATIO_FLOOR = 64 * 1024 ** 2;

export interface ReadOptions {
  signal?: AbortSignal;
  /** Progress in [0, 1] with an optional phase message. */
  onProgress?: (fraction: number, message?: string) => void;
  /** Bounds on line length, decompression and whole-file reads (defaults: {@link DEFAULT_INPUT_LIMITS}). */
  limits?: InputLimits;
}

/**
 * A format's cheap content test (sniffers/), kept apart from its reader so that sniffing a file never
 * loads the readers of other formats (registry.ts loads the one that matched).
 */
export interface FormatSniffer {
  /** Stable id, also reported as `format` by `hpc-lens inspect`. */
  readonly id: string;
  /** Human name for messages. */
  readonly name: string;
  /**
   * Confidence in [0, 0.95] that the sample is this reader's format; 0 means "not mine". 0.95 is
   * certainty (`CERTAIN` in registry.ts): sniffing stops at the first format that is certain.
   */
  sniff(sample: FileSample): number;
}

/** A format's reader: its sniffer (spread in, so both answer the same) plus the reading. */
export interface ProfileReader extends FormatSniffer {
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

// Cancellation lives in the model layer so graphs and analyses below the readers can use it too.
export { isAbortError, throwIfAborted } from '../model/cancellation';

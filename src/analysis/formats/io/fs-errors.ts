import { ProfileReadError } from '../reader';

/**
 * What the user is told for each file-system error code: the reason after `PATH: `. Node's own
 * messages (`EISDIR: illegal operation on a directory, read`) name neither the file nor, in plain
 * words, the problem.
 */
const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory, where a file was expected',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'is a symbolic link loop',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EMFILE: 'too many open files (the system limit was reached)',
  ENFILE: 'too many open files (the system limit was reached)',
  ENAMETOOLONG: 'the path is too long',
  EIO: 'an input/output error (a failing disk or network file system?)',
  ENXIO: 'is a device or socket that cannot be read',
  ENODEV: 'is a device that cannot be read',
  EAGAIN: 'is not ready to be read (a pipe or a non-blocking device?)',
  ESTALE: 'is a stale network file handle',
  ETIMEDOUT: 'timed out (a network file system?)',
  EOVERFLOW: 'is too large for this system',
  EFBIG: 'is too large for this system',
  ENOMEM: 'not enough memory to read it',
};

/** True for errors raised by Node's file-system calls (they carry an errno `code` and a `syscall`). */
export function isFileSystemError(e: unknown): e is NodeJS.ErrnoException {
  return (
    e instanceof Error &&
    typeof (e as NodeJS.ErrnoException).code === 'string' &&
    typeof (e as NodeJS.ErrnoException).syscall === 'string'
  );
}

/** The plain-words reason for a file-system error (`permission denied`, `is a symbolic link loop`, …). */
export function fileSystemReason(e: NodeJS.ErrnoException): string {
  return REASONS[e.code!] ?? `cannot be read (${e.code}, ${e.syscall})`;
}

/**
 * `e` as users must see it: a file-system error becomes a ProfileReadError naming the file it
 * concerns (the member of a database or archive when Node names one, else `path`) and the reason;
 * anything else is returned unchanged.
 */
export function fromFileSystemError(e: unknown, path: string): unknown {
  if (!isFileSystemError(e)) return e;
  return new ProfileReadError(e.path ?? path, fileSystemReason(e), { cause: e });
}

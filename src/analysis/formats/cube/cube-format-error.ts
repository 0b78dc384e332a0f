/**
 * Something is wrong inside a CUBE file (tar structure, anchor.xml, index or data). The reader adds
 * the file's path and rethrows it as a ProfileReadError.
 */
export class CubeFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CubeFormatError';
  }
}

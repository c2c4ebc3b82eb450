/** The index's own errors: a caller (cli, serve) tells them apart by class. */

/** A segment or manifest failed its checksum or could not be parsed: names the file and what failed. */
export class CorruptIndexError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`corrupt index: ${file}: ${problem}`);
    this.name = 'CorruptIndexError';
  }
}

/** Opening an index (or adding documents) with other parameters: names each difference. */
export class IndexParameterError extends Error {
  constructor(
    readonly differences: readonly string[],
    what: string,
  ) {
    super(`${what}: ${differences.join('; ')}`);
    this.name = 'IndexParameterError';
  }
}

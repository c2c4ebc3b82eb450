/**
 * Standard input and pipes copied to a file (src/pipeline/shared/spool.ts), for the commands that read their corpus
 * twice: the input keeps its name (`-`, the pipe's path) in ids and messages, and every reader opens the copy instead
 * (openDecompressed). Process-wide, as standard input is: a run spools an input at most once.
 */

export interface SpooledInput {
  /** The copy: a registered temporary, removed on every exit. */
  readonly file: string;
  /** Its bytes, as they came in (compressed or not). */
  readonly size: number;
}

const spooled = new Map<string, SpooledInput>();

/** From now on `path` (`-` or a pipe) is read from `copy`. */
export function setSpooled(path: string, copy: SpooledInput): void {
  spooled.set(path, copy);
}

/** The copy `path` is read from, or undefined when it was not spooled. */
export function spooledInput(path: string): SpooledInput | undefined {
  return spooled.get(path);
}

/**
 * One command line run in this process, as `gpudedup` runs it: the program built for its command, parsed and run.
 * main.ts runs the process's own here; the tests run refusals here too, many to a process (test/support/cli.ts).
 */
import { CommanderError, type Command } from 'commander';
import { readableMessage } from '../errors.js';

/**
 * Resolves with the exit status. Errors reaching here are the user's to read (bad input, refused resume, no
 * adapter...): one line on standard error; GPUDEDUP_DEBUG=1 shows the stack, for bug reports. `configure` sees the
 * program before it parses (the tests make commander's exits into errors).
 */
export async function runCommandLine(
  argv: readonly string[],
  version: string,
  configure?: (program: Command) => void,
): Promise<number> {
  // Loaded only here: main.ts's filtering parent never needs the commands' modules.
  const { buildProgram } = await import('./program.js');
  const program = await buildProgram(version, argv[2]);
  configure?.(program);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const debug = process.env.GPUDEDUP_DEBUG === '1';
    // A system call's raw failure (ENOSPC, EACCES) worded as every command words it: `file: reason (CODE, op)`.
    const message = error instanceof Error && debug ? String(error.stack) : readableMessage(error);
    process.stderr.write(`gpudedup: ${message}\n`);
    return 1;
  }
}

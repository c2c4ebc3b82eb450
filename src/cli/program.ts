/**
 * The `gpudedup` program: every command registered (or the one a run names), nothing parsed or run.
 * main.ts runs it; scripts/docs-cli.mjs walks its commands and options to
 * generate the CLI reference (docs/cli.md), so the reference is the help.
 */
import { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every command, in the order the help lists them, each module loaded only when
 * needed: a run of one command (`gpudedup sign …`) loads that command's modules
 * alone, not every command's (over 400 modules, most of a process's start-up).
 */
export const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  sign: async () => (await import('./sign.js')).registerSignCommand,
  dedup: async () => (await import('./dedup.js')).registerDedupCommand,
  params: async () => (await import('./params.js')).registerParamsCommand,
  doctor: async () => (await import('./doctor.js')).registerDoctorCommand,
  cluster: async () => (await import('./cluster.js')).registerClusterCommand,
  bench: async () => (await import('./bench.js')).registerBenchCommand,
  index: async () => (await import('./indexCommands.js')).registerIndexCommand,
  query: async () => (await import('./query.js')).registerQueryCommand,
  serve: async () => (await import('./serve.js')).registerServeCommand,
  substrings: async () => (await import('./substrings.js')).registerSubstringsCommand,
};

/**
 * The program with every command, or with `only` alone where it names one (its
 * help, options and errors are the same either way); anything else, such as
 * `--help`, `help sign` or a mistyped command, gets them all.
 */
export async function buildProgram(version: string, only?: string): Promise<Command> {
  const program = new Command()
    .name('gpudedup')
    .description('Near-duplicate detection for text corpora with MinHash LSH, signed on WebGPU or the CPU')
    .version(version);

  const names = only !== undefined && Object.hasOwn(COMMANDS, only) ? [only] : Object.keys(COMMANDS);
  for (const register of await Promise.all(names.map((name) => COMMANDS[name]()))) register(program);
  // A mistyped option gets its one-line error and where to look, not the whole help.
  program.showHelpAfterError("(see 'gpudedup --help')");
  for (const command of program.commands) {
    command.showHelpAfterError(`(see 'gpudedup ${command.name()} --help')`);
    for (const sub of command.commands)
      sub.showHelpAfterError(`(see 'gpudedup ${command.name()} ${sub.name()} --help')`);
  }
  return program;
}

/**
 * The `gpudedup` program: every command registered, nothing parsed or run.
 * main.ts runs it; scripts/docs-cli.mjs walks its commands and options to
 * generate the CLI reference (docs/cli.md), so the reference is the help.
 */
import { Command } from 'commander';
import { registerSignCommand } from './sign.js';
import { registerDedupCommand } from './dedup.js';
import { registerParamsCommand } from './params.js';
import { registerDoctorCommand } from './doctor.js';
import { registerClusterCommand } from './cluster.js';
import { registerBenchCommand } from './bench.js';
import { registerIndexCommand } from './indexCommands.js';
import { registerQueryCommand } from './query.js';
import { registerServeCommand } from './serve.js';
import { registerSubstringsCommand } from './substrings.js';

export function buildProgram(version: string): Command {
  const program = new Command()
    .name('gpudedup')
    .description('Near-duplicate detection for text corpora with MinHash LSH, signed on WebGPU or the CPU')
    .version(version);

  registerSignCommand(program);
  registerDedupCommand(program);
  registerParamsCommand(program);
  registerDoctorCommand(program);
  registerClusterCommand(program);
  registerBenchCommand(program);
  registerIndexCommand(program);
  registerQueryCommand(program);
  registerServeCommand(program);
  registerSubstringsCommand(program);
  // A mistyped option gets its one-line error and where to look, not the whole help.
  program.showHelpAfterError("(see 'gpudedup --help')");
  for (const command of program.commands) {
    command.showHelpAfterError(`(see 'gpudedup ${command.name()} --help')`);
    for (const sub of command.commands)
      sub.showHelpAfterError(`(see 'gpudedup ${command.name()} ${sub.name()} --help')`);
  }
  return program;
}

/**
 * The CLI reference (docs/cli.md), the README's table of commands and the library's options table are generated
 * from the program (scripts/docs-cli.mjs, `npm run docs`): the committed files must be what it generates now, and
 * every flag of every command must be in its command's table, once.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { expect, it } from 'vitest';
import '../support/cli.js'; // a stale dist/ fails first: the script reads the program from dist/
import { buildProgram } from '../../src/cli/program.js';

it('the generated sections are what npm run docs generates from the program now', () => {
  const check = spawnSync(process.execPath, ['scripts/docs-cli.mjs', '--check'], { encoding: 'utf8' });
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
});

/** Every command and subcommand with its full name. */
function commands(command: Command, prefix = 'gpudedup'): { name: string; command: Command }[] {
  return command.commands.flatMap((c) => {
    const name = `${prefix} ${c.name()}`;
    return [{ name, command: c }, ...commands(c, name)];
  });
}

it("docs/cli.md lists every flag of every command once, in that command's section", async () => {
  const reference = readFileSync('docs/cli.md', 'utf8');
  const sections = new Map(
    reference
      .split(/^### /m)
      .slice(1)
      .map((section) => [/^`([^`]+)`/.exec(section)?.[1] ?? '', section] as const),
  );
  const program = await buildProgram('0.0.0');
  for (const { name, command } of commands(program)) {
    const section = sections.get(name);
    expect(section, `docs/cli.md: no section for ${name}`).toBeDefined();
    const flags = [...(section ?? '').matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    const args = command.registeredArguments.map((a) => a.name());
    expect(flags.filter((f) => !args.includes(f)).sort(), name).toEqual(command.options.map((o) => o.flags).sort());
  }
  expect([...sections.keys()].sort()).toEqual(
    commands(program)
      .map((c) => c.name)
      .sort(),
  );
});

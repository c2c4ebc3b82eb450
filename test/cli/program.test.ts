/** buildProgram: every command in the help's order, or the one a run names alone, under the name it is looked up by. */
import { expect, it } from 'vitest';
import { buildProgram, COMMANDS } from '../../src/cli/program.js';

it('registers every command in order, or only the one named (its key is the name it registers)', async () => {
  const all = await buildProgram('0.0.0');
  expect(all.commands.map((c) => c.name())).toEqual(Object.keys(COMMANDS));
  for (const name of Object.keys(COMMANDS)) {
    const one = await buildProgram('0.0.0', name);
    expect(one.commands.map((c) => c.name())).toEqual([name]);
    // The same command, options and all, as in the full program.
    const full = all.commands.find((c) => c.name() === name)!;
    expect(one.commands[0].helpInformation()).toBe(full.helpInformation());
  }
  for (const other of ['--help', 'help', 'sing', 'constructor', undefined])
    expect((await buildProgram('0.0.0', other)).commands.map((c) => c.name())).toEqual(Object.keys(COMMANDS));
});

/**
 * The CLI's options come from the options table (src/options.ts): the same
 * flags, defaults and checks, so a bad value gets the library's message, and
 * every command refuses what `sign` refuses (`params -k 100000`).
 */
import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { minhash } from '../../src/api.js';
import { registerDedupCommand } from '../../src/cli/dedup.js';
import { registerParamsCommand } from '../../src/cli/params.js';
import { registerSignCommand } from '../../src/cli/sign.js';
import { registerClusterCommand } from '../../src/cli/cluster.js';
import { registerBenchCommand } from '../../src/cli/bench.js';
import { registerSubstringsCommand } from '../../src/cli/substrings.js';
import { OPTIONS, type OptionName } from '../../src/options.js';
import { runCli, runCliHere } from '../support/cli.js';

function commands(): Command[] {
  const program = new Command();
  for (const register of [
    registerDedupCommand,
    registerSignCommand,
    registerParamsCommand,
    registerClusterCommand,
    registerBenchCommand,
    registerSubstringsCommand,
  ])
    register(program);
  return program.commands as Command[];
}

/** The table entry a commander option stands for (its attribute is the code name; --ngram's is n). */
const tableName = (option: Option): OptionName | undefined => {
  const name = option.attributeName() === 'ngram' ? 'n' : option.attributeName();
  return Object.hasOwn(OPTIONS, name) ? (name as OptionName) : undefined;
};

describe('the CLI reads the options table', () => {
  it("every table option of dedup, sign, params and bench has the table's flag, default and choices", () => {
    let checked = 0;
    for (const command of commands()) {
      for (const option of command.options as Option[]) {
        const name = tableName(option);
        if (name === undefined) continue;
        const spec = OPTIONS[name];
        expect(option.long, `${command.name()} ${option.flags}`).toBe(spec.flag);
        if (command.name() === 'cluster' && name === 'threshold')
          expect(option.defaultValue).toBeUndefined(); // the shards' threshold
        else if ((name === 'seed' || name === 'slotBits') && option.defaultValue === undefined) {
          // sign and dedup leave them to the scheme (makeParams: datasketch-* has its own); elsewhere the table's
        } else if (command.name() === 'sign' && (name === 'verify' || name === 'keep'))
          expect(option.defaultValue).toBeUndefined(); // --shard only: runSignShard fills them in
        else if (!(command.name() === 'cluster' && name === 'keep'))
          expect(option.defaultValue, `${command.name()} ${option.flags}`).toEqual(spec.default);
        if (spec.choices && !(command.name() === 'cluster' && name === 'keep'))
          expect(option.argChoices).toEqual(spec.choices);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('flags and code names match: dedup has no flag whose attribute is not its camelCase name', () => {
    const dedupCommand = commands().find((c) => c.name() === 'dedup')!;
    const names = (dedupCommand.options as Option[]).map((o) => o.attributeName());
    expect(names).toContain('maxBucketPairs');
    expect(names).toContain('estimateError');
    expect(names).not.toContain('maxAllPairs');
  });
});

describe('the same message for the same bad value, CLI and library', () => {
  it('params -k 100000 refuses what sign refuses, and what minhash refuses', async () => {
    const message = 'k must be an integer from 1 to 4096, got 100000';
    await expect(minhash(['a b c d e'], { k: 100000, backend: 'cpu' })).rejects.toThrow(message);
    const params = await runCli(['params', '-k', '100000']);
    const sign = await runCliHere([
      'sign',
      'no-such-input.jsonl',
      '-o',
      'never.npy',
      '-k',
      '100000',
      '--backend',
      'cpu',
    ]);
    for (const run of [params, sign]) {
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe('');
    }
  });

  it('a misspelled backend, verify mode or keep policy, and a threshold out of range, named with the flag', async () => {
    const cases: [string[], string][] = [
      [
        ['--backend', 'gpu'],
        `option '--backend <name>' argument 'gpu' is invalid. backend must be one of auto, cpu or webgpu, got "gpu"`,
      ],
      [
        ['--verify', 'exactt'],
        `argument 'exactt' is invalid. verify must be one of hybrid, estimate, exact or none, got "exactt"`,
      ],
      [
        ['--keep', 'shortest'],
        `argument 'shortest' is invalid. keep must be first, longest or field:NAME, got "shortest"`,
      ],
      [
        ['-t', '1.5', '--bands', '2', '--rows', '4'],
        `argument '1.5' is invalid. threshold must be a number strictly between 0 and 1, got 1.5`,
      ],
      [['--max-bucket-pairs', '0'], `argument '0' is invalid. maxBucketPairs must be a positive integer, got 0`],
    ];
    for (const [args, message] of cases) {
      const run = await runCliHere(['dedup', 'no-such-input.jsonl', '--dry-run', ...args]);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr, args.join(' ')).toContain(message);
    }
  });
});

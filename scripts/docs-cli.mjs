#!/usr/bin/env node
/**
 * The generated parts of the docs, from the built program (dist/, `npm run build` first; `npm run docs` does both):
 * - docs/cli.md, the CLI reference: every command and subcommand of commander's program (src/cli/program.ts) with
 *   its arguments and one table row per flag: its help text, default, and the values the options table
 *   (src/options.ts) or commander's choices accept;
 * - README.md, the table of commands;
 * - docs/library.md, the options table as the library takes it, and which options define an index.
 * Each goes between `<!-- BEGIN GENERATED: NAME -->` and `<!-- END GENERATED: NAME -->` in its file; the rest of the
 * file is written by hand. `--check` writes nothing and exits 1 naming each region that differs from what the
 * program gives (test/docs/cliReference.test.ts runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (path) => import(new URL(`../dist/src/${path}`, import.meta.url).href);
const { buildProgram } = await dist('cli/program.js');
const { tableSpecOf } = await dist('cli/options.js');
const { OPTIONS } = await dist('options.js');
const { INDEX_OPTIONS } = await dist('lshIndex/options.js');

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const program = await buildProgram(version);

/** Text for a Markdown table cell: pipes escaped, angle brackets shown as text. */
const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ');
const code = (text) => `\`${String(text).replace(/\|/g, '\\|')}\``;

/** The default a flag's row shows; blank where the flag is off, or its default depends on others (its help says). */
function shownDefault(option) {
  if (option.defaultValueDescription !== undefined) return code(option.defaultValueDescription);
  const value = option.defaultValue;
  if (value === undefined || typeof value === 'boolean' || (Array.isArray(value) && value.length === 0)) return '';
  return code(typeof value === 'object' ? JSON.stringify(value) : value);
}

/** What values a flag takes: commander's choices, else the options table's rule. */
function shownValues(option) {
  if (option.argChoices) return option.argChoices.map(code).join(', ');
  const spec = tableSpecOf(option);
  const takesValue = option.required || option.optional;
  return spec && takesValue ? cell(spec.rule) : '';
}

function optionRow(option) {
  const env = option.envVar ? ` (environment: ${code(option.envVar)})` : '';
  const what = `${cell(option.description)}${env}`;
  return `| ${code(option.flags)} | ${shownDefault(option)} | ${shownValues(option)} | ${what} |`;
}

const fullName = (command) => (command.parent ? `${fullName(command.parent)} ${command.name()}` : command.name());

function commandSection(command) {
  const name = fullName(command);
  const args = command.registeredArguments.map((a) => {
    const name = `${a.name()}${a.variadic ? '...' : ''}`;
    return a.required ? `<${name}>` : `[${name}]`;
  });
  const usage = command.commands.length > 0 ? `${name} <command>` : [name, '[options]', ...args].join(' ');
  const lines = [`### \`${name}\``, '', `${cell(command.description())}.`, '', `Usage: ${code(usage)}`, ''];
  if (command.registeredArguments.length > 0) {
    lines.push('| argument | what |', '| --- | --- |');
    for (const a of command.registeredArguments) lines.push(`| ${code(a.name())} | ${cell(a.description)} |`);
    lines.push('');
  }
  const options = command.options.filter((o) => !o.hidden);
  if (options.length > 0) {
    lines.push('| flag | default | values | what |', '| --- | --- | --- | --- |', ...options.map(optionRow), '');
  }
  return [lines.join('\n'), ...command.commands.map(commandSection)];
}

/** Every command and subcommand, in the program's order. */
const allCommands = (command) => command.commands.flatMap((c) => [c, ...allCommands(c)]);
const anchor = (command) => `gpudedup-${fullName(command).split(' ').slice(1).join('-')}`;

function cliReference() {
  const from = 'Generated from the program (src/cli/program.ts) by `npm run docs`';
  const lines = [`${from}; \`gpudedup COMMAND --help\` prints the same.`, ''];
  lines.push('| flag | default | values | what |', '| --- | --- | --- | --- |', ...program.options.map(optionRow), '');
  return [lines.join('\n'), ...program.commands.flatMap(commandSection)].join('\n');
}

function commandTable() {
  const rows = allCommands(program).filter((c) => c.commands.length === 0);
  const lines = ['| command | what |', '| --- | --- |'];
  for (const c of rows) lines.push(`| [${code(fullName(c))}](docs/cli.md#${anchor(c)}) | ${cell(c.description())} |`);
  return lines.join('\n');
}

function libraryOptions() {
  const lines = ['| option | flag | default | values | defines an index |', '| --- | --- | --- | --- | --- |'];
  for (const [name, spec] of Object.entries(OPTIONS)) {
    const value = spec.default;
    const shown = value === undefined ? '' : code(typeof value === 'object' ? JSON.stringify(value) : value);
    const index = INDEX_OPTIONS.includes(name) ? 'yes' : '';
    lines.push(`| ${code(name)} | ${code(spec.flag)} | ${shown} | ${cell(spec.rule)} | ${index} |`);
  }
  const others = INDEX_OPTIONS.filter((name) => !Object.hasOwn(OPTIONS, name));
  lines.push(
    '',
    `An index is also defined by ${others.map(code).join(' and ')}: [a persistent index](#a-persistent-index).`,
  );
  return lines.join('\n');
}

const REGIONS = [
  { file: 'docs/cli.md', name: 'cli-reference', text: cliReference },
  { file: 'README.md', name: 'commands', text: commandTable },
  { file: 'docs/library.md', name: 'library-options', text: libraryOptions },
];

/** `text` with region `name`'s body replaced by `body`. */
function withRegion(file, text, name, body) {
  const begin = `<!-- BEGIN GENERATED: ${name} (npm run docs) -->`;
  const end = `<!-- END GENERATED: ${name} -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file}: no region "${begin}" … "${end}"`);
  return `${text.slice(0, from + begin.length)}\n${body}\n${text.slice(to)}`;
}

const check = process.argv.includes('--check');
const stale = [];
for (const { file, name, text } of REGIONS) {
  const path = join(ROOT, file);
  const before = readFileSync(path, 'utf8');
  const after = withRegion(file, before, name, text());
  if (after === before) continue;
  stale.push(`${file} (${name})`);
  if (!check) writeFileSync(path, after);
}
if (check && stale.length > 0) {
  process.stderr.write(`generated docs differ from the program: ${stale.join(', ')}; run npm run docs\n`);
  process.exit(1);
}
if (!check) process.stdout.write(stale.length > 0 ? `rewrote ${stale.join(', ')}\n` : 'docs up to date\n');

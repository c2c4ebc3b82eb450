/** The shell blocks of the docs (README.md and docs/*.md) and the gpudedup commands in them. */
import { readdirSync, readFileSync } from 'node:fs';

export interface ShellBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The fence's words after the language: `no-run: REASON` marks a block not run. */
  readonly marks: string;
  /** Its commands: blank and comment-only lines dropped, `\` continuations joined. */
  readonly commands: readonly string[];
}

/** The files whose commands are run: the README and every page of docs/. */
export function docFiles(): string[] {
  const pages = readdirSync('docs').filter((name) => name.endsWith('.md'));
  return ['README.md', ...pages.sort().map((name) => `docs/${name}`)];
}

const SHELLS = new Set(['sh', 'bash', 'shell']);

export function shellBlocks(file: string): ShellBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    if (SHELLS.has(open[1]))
      blocks.push({ file, line: i + 1, marks: open[2].trim(), commands: commandsOf(lines.slice(i + 1, end)) });
    i = end;
  }
  return blocks;
}

function commandsOf(lines: readonly string[]): string[] {
  const commands: string[] = [];
  let pending = '';
  for (const line of lines) {
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const command = pending + line;
    pending = '';
    if (command.trim() !== '' && !command.trim().startsWith('#')) commands.push(command);
  }
  return commands;
}

/** A command word of gpudedup: `gpudedup`, `npx gpudedup` or `node dist/src/cli/main.js`, after `|`, `;`, `&&` or env settings. */
const GPUDEDUP =
  /(^|[|;&(]\s*)((?:[A-Z_][A-Z0-9_]*=(?:"[^"]*"|'[^']*'|\S+)\s+)*)(npx\s+gpudedup|node\s+dist\/src\/cli\/main\.js|gpudedup)(?=\s|$)/g;

export const runsGpudedup = (command: string): boolean => new RegExp(GPUDEDUP.source).test(command);

/** The command as the test runs it: every spelling of the CLI as `gpudedup`, the shim the test puts on PATH. */
export const asShimmed = (command: string): string =>
  command.replace(GPUDEDUP, (_, before: string, env: string) => `${before}${env}gpudedup`);

/** The command without a trailing `# comment` (a `#` after white space, outside quotes). */
export function withoutComment(command: string): string {
  let quote = '';
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(command[i - 1]))) {
      return command.slice(0, i).trimEnd();
    }
  }
  return command.trimEnd();
}

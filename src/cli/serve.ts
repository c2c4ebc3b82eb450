/** `gpudedup serve DIR`: an index over HTTP (JSON on node:http; the server is src/server). */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { checkIsIndex } from '../pipeline/index/indexOutputs.js';
import { counted } from '../format.js';
import type { BackendChoice } from '../options.js';
import { SERVE_DEFAULTS } from '../server/http.js';
import { serveIndex } from '../server/serve.js';
import { tableOption } from './options.js';
import { byteSize } from './params.js';

interface ServeCliOptions {
  host: string;
  port: number;
  maxBody: number;
  token?: string;
  allowHost: string[];
  allowOrigin: string[];
  queue: number;
  readOnly: boolean;
  backend?: BackendChoice;
  threads?: number;
  quiet: boolean;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port from 0 to 65535 (0: any free port)');
  return n;
}

function nonNegativeInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || value.trim() === '')
    throw new InvalidArgumentError('expected an integer of at least 0');
  return n;
}

/** A repeatable option's values, in order. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Said on stderr when the token is given as --token rather than GPUDEDUP_TOKEN. */
export const TOKEN_ARGUMENT_WARNING =
  'gpudedup serve: warning: --token on the command line is visible to every local user (ps, /proc/PID/cmdline); set ' +
  'GPUDEDUP_TOKEN instead';

export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description('serve an index over HTTP: POST /query, /add, /remove; GET /stats, /health (JSON)')
    .argument('<dir>', 'the index directory (from `gpudedup index create`)')
    .option(
      '--host <address>',
      'address to listen on; beyond loopback (127.0.0.1, ::1) it needs --token',
      SERVE_DEFAULTS.host,
    )
    .option('--port <n>', 'port to listen on (0: any free port, printed on start)', port, SERVE_DEFAULTS.port)
    .addOption(
      new Option('--max-body <size>', 'largest request body, e.g. 4MiB (at least 1 MiB); past it, 413')
        .argParser(byteSize)
        .default(SERVE_DEFAULTS.maxBody, '16MiB'),
    );
  addAccessOptions(command)
    .option(
      '--queue <n>',
      'writes that may wait behind the running one, and queries in progress at once; past it, 503 with Retry-After',
      nonNegativeInteger,
      SERVE_DEFAULTS.queue,
    )
    .option(
      '--read-only',
      "no writer (no lock): /add and /remove answer 403, queries follow the commits of the index's writer (another " +
        'process) within a second',
      false,
    )
    .addOption(
      tableOption(
        'backend',
        '--backend <name>',
        'signing backend (default cpu: a request of a few documents signs faster on the CPU than through a GPU)',
        { withDefault: false },
      ),
    )
    .addOption(
      tableOption(
        'threads',
        '--threads <n>',
        'threads that answer queries, each with its own view of the index, the forests and postings shared ' +
          "(default: one per core; 1: the server's thread), and the CPU backend's worker threads for adds",
      ),
    )
    .option('-q, --quiet', 'print errors only (not the line on start and stop)', false)
    .action(runServeCommand);
}

/** Who may call the server: the bearer token, the Host header's names and the web origins. */
function addAccessOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--token <token>',
        'bearer token every route but /health needs ("Authorization: Bearer TOKEN"); prefer the GPUDEDUP_TOKEN ' +
          'environment variable: an argument is visible in ps',
      ).env('GPUDEDUP_TOKEN'),
    )
    .addOption(
      new Option(
        '--allow-host <name>',
        "another name the Host header may give (a proxy's, a DNS name; NAME for any port, NAME:PORT for one), besides " +
          'the address listened on; repeatable',
      )
        .argParser(collect)
        .default([], 'none'),
    )
    .addOption(
      new Option(
        '--allow-origin <origin>',
        'a web origin (https://app.example.com) whose pages may call the server, with CORS headers; requests with any ' +
          'other Origin are refused; repeatable',
      )
        .argParser(collect)
        .default([], 'none'),
    );
}

async function runServeCommand(dir: string, options: ServeCliOptions, command: Command): Promise<void> {
  if (command.getOptionValueSource('token') === 'cli') process.stderr.write(`${TOKEN_ARGUMENT_WARNING}\n`);
  const say = (line: string): void => {
    if (!options.quiet) process.stdout.write(`${line}\n`);
  };
  await checkIsIndex(dir);
  await serveIndex(
    {
      dir,
      host: options.host,
      port: options.port,
      maxBody: options.maxBody,
      token: options.token,
      allowHosts: options.allowHost,
      allowOrigins: options.allowOrigin,
      queue: options.queue,
      readOnly: options.readOnly,
      backend: options.backend ?? 'cpu',
      threads: options.threads,
    },
    {
      // Tests and scripts read this line for the address (--port 0).
      onListening: (server, stats) =>
        say(
          `gpudedup serve: ${dir} ` +
            `(${counted(stats.documents, 'document')}${options.readOnly ? ', read-only' : ''}) on ${server.url}`,
        ),
      onStopping: (signal) =>
        say(`gpudedup serve: ${signal}: stopping (the write in progress finishes; a second signal ends it at once)`),
      onNote: (line) => process.stderr.write(`gpudedup serve: ${line}\n`),
    },
  );
  say('gpudedup serve: stopped, index closed');
}

/** A command timed by GNU time (wall, user + sys, peak RSS), and the load average: for the benchmarks that run the CLI. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

export interface Timed {
  wall: number;
  cpu: number;
  peakGiB: number;
}

/** Runs a command under GNU time; throws with its output on failure. */
export function timed(command: string, args: readonly string[], cwd?: string, stdout?: string): Timed {
  const shell = `ulimit -Sn 100000; exec /usr/bin/time -f '%e %U %S %M' -o time.out "$@"${stdout ? ` > '${stdout}'` : ''}`;
  const result = spawnSync('bash', ['-c', shell, 'bash', command, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.slice(-2000)}`);
  const [wall, user, sys, kb] = readFileSync(join(cwd ?? '.', 'time.out'), 'utf8')
    .trim()
    .split('\n')
    .pop()!
    .split(' ')
    .map(Number);
  return { wall, cpu: user + sys, peakGiB: kb / 2 ** 20 };
}

/**
 * The process's CPU time and its main thread's, for the report's per-stage CPU seconds: process.cpuUsage() for the
 * process, and on Linux the main thread's own lines in /proc (Node 20 has no process.threadCpuUsage). Elsewhere there
 * is no clock, and the report has no CPU seconds.
 */
import { readFileSync } from 'node:fs';
import type { CpuClock } from '../../dedup/stageTimer.js';

/** /proc counts in clock ticks: USER_HZ, 100 a second on every Linux. */
const MS_PER_TICK = 10;

export function nodeCpuClock(): CpuClock | undefined {
  const mainMs = threadClock(`/proc/self/task/${process.pid}`);
  if (mainMs === undefined) return undefined;
  return () => {
    const usage = process.cpuUsage();
    return { processMs: (usage.user + usage.system) / 1000, mainMs: mainMs() };
  };
}

/**
 * A thread's CPU time in ms: its schedstat's first field (ns) where the kernel has it, else utime + stime of its stat
 * line, in ticks of 10 ms (a short run's main thread can read 0 there); undefined where neither can be read.
 */
export function threadClock(thread = '/proc/thread-self'): (() => number) | undefined {
  for (const [file, read] of [
    ['schedstat', schedstatMs],
    ['stat', statMs],
  ] as const) {
    const path = `${thread}/${file}`;
    if (read(path) !== undefined) return () => read(path) ?? 0;
  }
  return undefined;
}

function schedstatMs(path: string): number | undefined {
  try {
    const ns = Number(readFileSync(path, 'latin1').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** utime + stime of the thread's stat line: fields 14 and 15, counted after the command's closing parenthesis. */
function statMs(path: string): number | undefined {
  try {
    const stat = readFileSync(path, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * MS_PER_TICK : undefined;
  } catch {
    return undefined;
  }
}

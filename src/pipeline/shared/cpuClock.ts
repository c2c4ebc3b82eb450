/**
 * The process's CPU time and its main thread's, for the report's per-stage CPU seconds: process.cpuUsage() for the
 * process, and on Linux the main thread's own line in /proc (Node 20 has no process.threadCpuUsage). Elsewhere there
 * is no clock, and the report has no CPU seconds.
 */
import { readFileSync } from 'node:fs';
import type { CpuClock } from '../../dedup/stageTimer.js';

/** /proc counts in clock ticks: USER_HZ, 100 a second on every Linux. */
const MS_PER_TICK = 10;

export function nodeCpuClock(): CpuClock | undefined {
  const path = `/proc/self/task/${process.pid}/stat`;
  if (mainThreadMs(path) === undefined) return undefined;
  return () => {
    const usage = process.cpuUsage();
    return { processMs: (usage.user + usage.system) / 1000, mainMs: mainThreadMs(path)! };
  };
}

/** utime + stime of the thread's stat line: fields 14 and 15, counted after the command's closing parenthesis. */
function mainThreadMs(path: string): number | undefined {
  try {
    const stat = readFileSync(path, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * MS_PER_TICK : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each step's peak resident set, sampled: the process's VmRSS (Linux's
 * /proc/self/status) every few milliseconds while the step runs, and once
 * more at its end. The high-water mark (VmHWM) is not reset for this: a reset
 * would also lower what `/usr/bin/time` and getrusage report as the run's
 * peak. Where /proc is absent, no figure.
 */
import { readFileSync } from 'node:fs';

/** The process's resident set in bytes (VmRSS), or undefined without /proc. */
export function residentBytes(): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` while sampling the resident set every `intervalMs` (the engine's queries run off the event loop, so
 * the samples keep coming): `peak` gets the largest sample in bytes, where the system gives one.
 */
export async function withStepPeak<T>(
  work: () => Promise<T>,
  peak: (bytes: number) => void,
  intervalMs = 25,
): Promise<T> {
  let highest = residentBytes();
  const sample = (): void => {
    const bytes = residentBytes();
    if (bytes !== undefined && bytes > (highest ?? 0)) highest = bytes;
  };
  const timer = highest === undefined ? undefined : setInterval(sample, intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    sample();
    if (highest !== undefined) peak(highest);
  }
}

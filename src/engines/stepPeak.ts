/**
 * Each step's peak resident set: Linux's high-water mark (VmHWM in
 * /proc/PID/status), reset before the step by writing 5 to /proc/PID/clear_refs.
 * Where the reset is refused the mark is the process's peak so far, still an
 * upper bound of the step's; where /proc is absent, no figure (undefined).
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** The high-water mark of the process's resident set in bytes, or undefined without /proc. */
export function peakResidentBytes(pid: number | 'self' = 'self'): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** Sets the high-water mark back to the present resident set; false where it cannot. */
export function resetPeakResident(pid: number | 'self' = 'self'): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` between a reset and a reading of the mark: `peak` gets the step's peak in bytes (when known). */
export async function withStepPeak<T>(work: () => Promise<T>, peak: (bytes: number) => void): Promise<T> {
  resetPeakResident();
  try {
    return await work();
  } finally {
    const bytes = peakResidentBytes();
    if (bytes !== undefined) peak(bytes);
  }
}

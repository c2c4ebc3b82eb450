/** The message of anything thrown: an Error's message, else its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A system call's failure in words, for a message that names the file:
 * "ENOSPC: no space left on device, write" → "no space left on device (ENOSPC, write)".
 */
export function systemReason(error: unknown): string {
  if (typeof error !== 'object' || error === null || typeof (error as { code?: unknown }).code !== 'string')
    return errorMessage(error);
  const e = error as { code: string; syscall?: string; message: string };
  const reason = e.message.replace(/^[A-Z]+: /, '').replace(/, (\w+).*$/, '');
  return `${reason} (${e.code}${e.syscall ? `, ${e.syscall}` : ''})`;
}

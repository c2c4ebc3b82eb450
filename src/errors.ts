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

/** A system call's raw message as Node words it: "EACCES: permission denied, mkdir '/x/idx'". */
const RAW_SYSTEM_MESSAGE = /\b(E[A-Z0-9]+): ([^,\n]+), (\w+)(?: '([^'\n]*)')?/;

/**
 * A message for the user with any raw system-call text in it reworded as every command words it, `file: reason
 * (CODE, op)`: "EACCES: permission denied, mkdir '/x/idx'" → "/x/idx: permission denied (EACCES, mkdir)";
 * "idx/seg.sig: EFBIG: file too large, write" → "idx/seg.sig: file too large (EFBIG, write)". `where` names the
 * file when the message names none.
 */
export function readableMessage(error: unknown, where?: string): string {
  const message = errorMessage(error);
  const raw = RAW_SYSTEM_MESSAGE.exec(message);
  if (raw === null) return message;
  const [whole, code, reason, syscall, path] = raw;
  const before = message.slice(0, raw.index);
  const named = path ?? (before === '' ? ((error as { path?: string }).path ?? where) : undefined);
  const prefix = before === '' && named !== undefined ? `${named}: ` : before;
  return `${prefix}${reason} (${code}, ${syscall})${message.slice(raw.index + whole.length)}`;
}

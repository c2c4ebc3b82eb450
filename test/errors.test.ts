/** readableMessage: a system call's raw failure worded `file: reason (CODE, op)` (issue 40, item 8). */
import { describe, expect, it } from 'vitest';
import { readableMessage } from '../src/errors.js';

const systemError = (message: string, fields: Record<string, string>): Error =>
  Object.assign(new Error(message), fields);

describe('readableMessage', () => {
  it('rewords raw system messages, naming the file from the message, the error or the caller', () => {
    expect(
      readableMessage(
        systemError("EACCES: permission denied, mkdir '/x/idx'", { code: 'EACCES', syscall: 'mkdir', path: '/x/idx' }),
      ),
    ).toBe('/x/idx: permission denied (EACCES, mkdir)');
    expect(readableMessage(new Error('idx/seg.sig: EFBIG: file too large, write'))).toBe(
      'idx/seg.sig: file too large (EFBIG, write)',
    );
    expect(
      readableMessage(systemError('ENOSPC: no space left on device, write', { code: 'ENOSPC' }), 'index idx'),
    ).toBe('index idx: no space left on device (ENOSPC, write)');
    expect(readableMessage(new Error('a.jsonl:3: malformed JSON'))).toBe('a.jsonl:3: malformed JSON');
  });
});

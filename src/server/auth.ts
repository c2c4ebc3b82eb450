/** Who may bind where, and the bearer token's check. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** Whether `host` only reaches this machine: 127.0.0.0/8, ::1, localhost (and ::ffff:127.x). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * A check of `Authorization: Bearer <token>` against `token`. Both sides are
 * hashed first, so `timingSafeEqual` compares equal lengths and the time
 * taken says nothing about the token, not even its length.
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    return timingSafeEqual(digest(match ? match[1] : ''), expected) && match !== null;
  };
}

/** Refuses a server reachable beyond this machine without a token (the message says what to do). */
export function checkExposure(host: string, token: string | undefined): void {
  if (token !== undefined && token === '') throw new Error('serve: --token must not be empty');
  if (!isLoopback(host) && token === undefined) {
    throw new Error(
      `serve: --host ${host} reaches beyond this machine, so it needs --token T (clients send "Authorization: Bearer T"); ` +
        'or bind 127.0.0.1 (the default) and put a proxy in front',
    );
  }
}

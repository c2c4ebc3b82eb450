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

/**
 * `Host`'s name (brackets dropped, lowercased, a trailing dot dropped) and port (undefined when absent); undefined when
 * it is not a host.
 */
export function parseHost(value: string): { name: string; port: number | undefined } | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^:[\]/\s@]+))(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) return undefined;
  const name = (match[1] ?? match[2]).toLowerCase().replace(/\.$/, '');
  const port = match[3] === undefined ? undefined : Number(match[3]);
  if (name === '' || (port !== undefined && port > 65535)) return undefined;
  return { name, port };
}

/** An `--allow-host` value, checked: a name or address, optionally with `:PORT` (without one, any port). */
export function allowedHostEntry(value: string): { name: string; port: number | undefined } {
  const parsed = parseHost(value);
  if (parsed === undefined)
    throw new Error(
      `serve: --allow-host takes a host name or address, optionally with :PORT (e.g. dedup.example.com or ` +
        `[::1]:8443), got ${JSON.stringify(value)}`,
    );
  return parsed;
}

/** An `--allow-origin` value, checked and normalized: `http(s)://HOST[:PORT]`, as browsers send `Origin`. */
export function allowedOriginEntry(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const origin = url?.origin;
  if (
    url === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    value.replace(/\/$/, '').toLowerCase() !== origin
  ) {
    throw new Error(
      `serve: --allow-origin takes an origin, http(s)://HOST[:PORT] with no path (e.g. https://app.example.com), got ` +
        `${JSON.stringify(value)}`,
    );
  }
  return origin!;
}

/**
 * The names a server bound to `address` answers to by default: the address itself, and loopback's names when it is
 * loopback (every interface's address when it is a wildcard).
 */
export function defaultHostNames(address: string, interfaceAddresses: readonly string[]): string[] {
  const names = [address.toLowerCase()];
  const wildcard = address === '0.0.0.0' || address === '::';
  if (isLoopback(address) || wildcard) names.push('127.0.0.1', '::1', 'localhost');
  if (wildcard) names.push(...interfaceAddresses.map((a) => a.toLowerCase()));
  return [...new Set(names)];
}

/**
 * Whether a request's `Host` names this server: one of `names` at `port`
 * (no port: 80, as a client leaves it out), or an `--allow-host` entry (its
 * port, or any when it has none). A missing `Host` (HTTP/1.0) passes: a
 * browser always sends one, and DNS rebinding is what this check stops.
 */
export function hostCheck(
  names: readonly string[],
  port: number,
  allowed: readonly { name: string; port: number | undefined }[],
): (host: string | undefined) => boolean {
  const own = new Set(names);
  return (host) => {
    if (host === undefined) return true;
    const parsed = parseHost(host);
    if (parsed === undefined) return false;
    if (own.has(parsed.name) && (parsed.port ?? 80) === port) return true;
    return allowed.some(
      (entry) => entry.name === parsed.name && (entry.port === undefined || entry.port === parsed.port),
    );
  };
}

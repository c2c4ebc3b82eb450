/**
 * Ids must be valid Unicode. A JavaScript string may hold a lone surrogate
 * (JSON's "\ud800" parses to one); UTF-8 cannot carry it, so every encoder
 * writes U+FFFD instead, and "\ud800" and "\ufffd" would become one id once
 * stored, hashed or compared as UTF-8 (an index, a shard, the unique-id
 * check). Refused, as a JSON → UTF-8 pipeline would: no id is stored in a
 * form it does not have.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `id` cannot be an id (a lone surrogate, named by its code and place), or undefined when it can. */
export function invalidIdReason(id: string): string | undefined {
  const found = LONE_SURROGATE.exec(id);
  if (found === null) return undefined;
  const code = found[0].charCodeAt(0).toString(16);
  return (
    `is not valid Unicode: it holds a lone surrogate (\\u${code} at UTF-16 unit ${found.index}), which UTF-8 ` +
    `cannot carry (it would become U+FFFD and equal other ids)`
  );
}

/**
 * Is this the start of a binary file rather than text? A NUL byte (text in
 * UTF-8 never has one; UTF-16 text has many), or more than 10 % of the decoded
 * characters being U+FFFD replacements for invalid UTF-8. Browser-safe.
 */
export const BINARY_SNIFF_BYTES = 8192;

export function looksBinary(head: Uint8Array): boolean {
  const bytes = head.subarray(0, BINARY_SNIFF_BYTES);
  if (bytes.includes(0)) return true;
  // stream: true holds back a sequence cut at the end instead of counting it invalid.
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes, { stream: true });
  if (decoded.length === 0) return false;
  let replaced = 0;
  for (let i = 0; i < decoded.length; i++) if (decoded.charCodeAt(i) === 0xfffd) replaced++;
  // A U+FFFD written in the file itself is three valid bytes (EF BF BD): count only the invalid ones.
  let literal = 0;
  for (let i = 0; i + 2 < bytes.length; i++)
    if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) literal++;
  return (replaced - literal) / decoded.length > 0.1;
}

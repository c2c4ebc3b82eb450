/**
 * Binary files are not documents. A file is taken as binary, as git and grep
 * decide, when its first 8,000 bytes hold a NUL byte, or when more than 10 %
 * of them are not valid UTF-8 (text in another encoding passes the NUL test).
 */
const SNIFF_BYTES = 8000;
const MAX_INVALID_SHARE = 0.1;

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  let invalid = 0;
  for (let i = 0; i < end; ) {
    const b = bytes[i];
    if (b === 0) return true;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) {
      invalid++;
      i++;
      continue;
    }
    let ok = true;
    // A sequence cut by the sniff window's end is not counted against the file.
    for (let j = 1; j < length && i + j < end; j++) if ((bytes[i + j] & 0xc0) !== 0x80) ok = false;
    if (!ok) invalid++;
    i += ok ? length : 1;
  }
  return end > 0 && invalid / end > MAX_INVALID_SHARE;
}

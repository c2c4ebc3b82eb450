/**
 * Parquet's RLE/bit-packed hybrid encoding of small non-negative integers (dictionary indexes, levels) into a typed
 * buffer, with the very runs hyparquet-writer's writeRleBitPackedHybrid chooses (a run of 8 or more equal values is
 * RLE, the rest is bit-packed in groups of 8), so the bytes are the same; that one appended each byte through a
 * DataView and a bounds check (issue 38: a tenth of the shards' main thread).
 */

/** Values 0 ≤ v < 2^bitWidth, bitWidth ≤ 24: the encoded bytes (no length prefix). */
export function rleBitPacked(values: ArrayLike<number>, count: number, bitWidth: number): Uint8Array {
  const out = new Uint8Array(rleBitPackedBound(count, bitWidth));
  return out.subarray(0, rleBitPackedInto(values, count, bitWidth, out, 0));
}

/** Bytes rleBitPacked's encoding of `count` values takes at most. */
export function rleBitPackedBound(count: number, bitWidth: number): number {
  // Every 8 values cost at most bitWidth bytes packed or a run's header and value; 10 bytes a varint header at most.
  return Math.ceil(count / 8) * (bitWidth + 10) + 16;
}

/** rleBitPacked's bytes written into `out` from byte `start` (rleBitPackedBound of room there); returns their end. */
export function rleBitPackedInto(
  values: ArrayLike<number>,
  count: number,
  bitWidth: number,
  out: Uint8Array,
  start: number,
): number {
  if (!(bitWidth >= 0 && bitWidth <= 24)) throw new RangeError(`internal: bit width ${bitWidth}`);
  const width = (bitWidth + 7) >> 3;
  let at = start;
  let pending = 0;
  let packedStart = 0;
  let i = 0;
  const varint = (value: number): void => {
    while (value > 0x7f) {
      out[at++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 128);
    }
    out[at++] = value;
  };
  const flush = (): void => {
    if (pending === 0) return;
    varint(pending * 2 + 1);
    at = packGroups(values, count, packedStart, pending, bitWidth, out, at);
    pending = 0;
  };
  while (i < count) {
    const first = values[i];
    let run = 1;
    while (i + run < count && values[i + run] === first) run++;
    if (run >= 8) {
      flush();
      varint(run * 2);
      for (let j = 0; j < width; j++) out[at++] = (first >>> (8 * j)) & 0xff;
      i += run;
    } else {
      if (pending === 0) packedStart = i;
      pending++;
      i += 8;
    }
  }
  flush();
  return at;
}

/** `groups` groups of 8 values from `start` (past `count`: zeros), least significant bit first; returns the new end. */
function packGroups(
  values: ArrayLike<number>,
  count: number,
  start: number,
  groups: number,
  bitWidth: number,
  out: Uint8Array,
  at: number,
): number {
  if (bitWidth === 0) return at;
  const end = start + 8 * groups;
  let buffer = 0;
  let bits = 0;
  for (let i = start; i < end; i++) {
    buffer |= (i < count ? values[i] : 0) << bits;
    bits += bitWidth;
    while (bits >= 8) {
      out[at++] = buffer & 0xff;
      buffer >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) out[at++] = buffer & 0xff;
  return at;
}

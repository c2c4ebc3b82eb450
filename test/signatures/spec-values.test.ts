// The check values printed in the specification (issue "Signing core"), seed 42, k 128.
import { describe, expect, it } from 'vitest';
import { makeHashFamily, splitmix64 } from '../../src/signatures/hashFamily.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { toHex64, u64 } from '../../src/math/u64.js';
import { EMPTY_SLOT_WORD } from '../../src/signatures/backend.js';

const hex = (pairs: Uint32Array, i: number): string => toHex64(u64(pairs[2 * i + 1], pairs[2 * i]));

describe('specification check values', () => {
  const family = makeHashFamily(128, u64(0, 42));

  it('splitmix64(42)', () => {
    expect(toHex64(splitmix64(u64(0, 42)))).toBe('0xbdd732262feb6e95');
  });

  it('a_0, b_0, a_127, b_127', () => {
    expect(hex(family.a, 0)).toBe('0x1dd732262feb6ea0');
    expect(hex(family.b, 0)).toBe('0x1a69ec90eb4fef8d');
    expect(hex(family.a, 127)).toBe('0x1778459bd2fcd113');
    expect(hex(family.b, 127)).toBe('0x19d25157778b9ceb');
  });

  it('the shingle of "the quick brown fox jumps"', () => {
    const s = shingleDocument('the quick brown fox jumps');
    expect(s.length).toBe(2);
    expect(hex(s, 0)).toBe('0x1f999d177290542c');
  });

  it('"Hello  World": one shingle and its first two slots', () => {
    const s = shingleDocument('Hello  World');
    expect(s.length).toBe(2);
    expect(hex(s, 0)).toBe('0x182dee88cd5a2828');
    const sig = signBatchOnCpu(family, { shingles: s, offsets: Uint32Array.of(0, 1) });
    expect(hex(sig, 0)).toBe('0x1843da0b76560140');
    expect(hex(sig, 1)).toBe('0x131b5e89a5a490f3');
  });

  it('an empty document has every slot all-ones', () => {
    const s = shingleDocument(' \t\n\u3000 ');
    expect(s.length).toBe(0);
    const sig = signBatchOnCpu(family, { shingles: s, offsets: Uint32Array.of(0, 0) });
    expect(sig.length).toBe(256);
    expect(sig.every((w) => w === EMPTY_SLOT_WORD)).toBe(true);
  });
});

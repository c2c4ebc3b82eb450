// Exact Parquet values: timestamps against Date (where Date reaches) and round trips over all of int64,
// decimals against BigInt arithmetic, two's complement bytes against BigInt.asIntN.
import { describe, expect, it } from 'vitest';
import {
  decimalText,
  decimalUnscaled,
  timestampText,
  timestampValue,
  unscaledDecimal,
  type TimeUnit,
} from '../../src/io/parquetValues.js';
import { rng } from '../support/reference.js';

function randomInt64(next: () => number): bigint {
  const hi = BigInt(Math.floor(next() * 2 ** 32));
  const lo = BigInt(Math.floor(next() * 2 ** 32));
  return BigInt.asIntN(64, (hi << 32n) | lo);
}

describe('timestampText and timestampValue', () => {
  it('matches Date.toISOString to the millisecond over Date years 0000-9999, with every digit of the unit after', () => {
    const next = rng(5);
    const min = Date.parse('0000-01-01T00:00:00Z');
    const max = Date.parse('9999-12-31T23:59:59.999Z');
    for (let i = 0; i < 2000; i++) {
      const ms = Math.floor(min + next() * (max - min));
      const extra = BigInt(Math.floor(next() * 1_000_000));
      const iso = new Date(ms).toISOString().slice(0, -1);
      expect(timestampText(BigInt(ms), 'MILLIS', true)).toBe(`${iso}Z`);
      expect(timestampText(BigInt(ms) * 1_000n + (extra % 1000n), 'MICROS', false)).toBe(
        `${iso}${String(extra % 1000n).padStart(3, '0')}`,
      );
      expect(timestampText(BigInt(ms) * 1_000_000n + extra, 'NANOS', true)).toBe(
        `${iso}${String(extra).padStart(6, '0')}Z`,
      );
    }
  });

  it('round-trips every int64 in every unit (years beyond 0000-9999 as ±YYYYYY)', () => {
    const next = rng(6);
    const values = [
      0n,
      -1n,
      1n,
      -(2n ** 63n),
      2n ** 63n - 1n,
      ...Array.from({ length: 3000 }, () => randomInt64(next)),
    ];
    for (const unit of ['MILLIS', 'MICROS', 'NANOS'] as TimeUnit[]) {
      for (const value of values) expect(timestampValue(timestampText(value, unit, false), unit)).toBe(value);
    }
    expect(timestampText(2n ** 63n - 1n, 'NANOS', false)).toBe('2262-04-11T23:47:16.854775807');
    expect(timestampText(-1n, 'MICROS', true)).toBe('1969-12-31T23:59:59.999999Z');
  });

  it('refuses text with more digits than the unit holds', () => {
    expect(() => timestampValue('2024-01-01T00:00:00.1234', 'MILLIS')).toThrow(RangeError);
  });
});

describe('decimals', () => {
  it('writes the unscaled integer with exactly `scale` fraction digits and reads it back', () => {
    const next = rng(7);
    for (let i = 0; i < 2000; i++) {
      const unscaled =
        BigInt.asIntN(128, (randomInt64(next) << 64n) | BigInt.asUintN(64, randomInt64(next))) >>
        BigInt(Math.floor(next() * 120));
      const scale = Math.floor(next() * 40);
      const text = decimalText(unscaled, scale);
      const magnitude = unscaled < 0n ? -unscaled : unscaled;
      const power = 10n ** BigInt(scale);
      const reference = `${unscaled < 0n ? '-' : ''}${magnitude / power}${scale > 0 ? '.' + String(magnitude % power).padStart(scale, '0') : ''}`;
      expect(text).toBe(reference);
      expect(decimalUnscaled(text, scale)).toBe(unscaled);
    }
    expect(decimalText(-1n, 5)).toBe('-0.00001');
    expect(decimalText(123456789012312345n, 5)).toBe('1234567890123.12345');
  });

  it('reads big-endian two’s complement bytes of any width', () => {
    const next = rng(8);
    for (let i = 0; i < 1000; i++) {
      const width = 1 + Math.floor(next() * 32);
      const bytes = Uint8Array.from({ length: width }, () => Math.floor(next() * 256));
      const unsigned = [...bytes].reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
      expect(unscaledDecimal(bytes)).toBe(BigInt.asIntN(8 * width, unsigned));
    }
    expect(unscaledDecimal(7)).toBe(7n);
    expect(unscaledDecimal(-7n)).toBe(-7n);
  });
});

/**
 * The builders of the options table (src/options.ts): an option's spec from its name, flag, default and rule,
 * with the check and the message every front end gives. Browser-safe, as the table is.
 */
import { parseKeepPolicy, type KeepPolicy } from './text/keepPolicy.js';
import { parseU64 } from './math/u64.js';

export interface OptionSpec<T> {
  /** The code name (library option, commander attribute, config field). */
  readonly name: string;
  /** The CLI flag, e.g. `--max-bucket-pairs`. */
  readonly flag: string;
  /** undefined: none (the option is optional, or its default depends on others; `note` says which). */
  readonly default: T | undefined;
  /** What a valid value is, as the messages say it: "an integer from 1 to 4096". */
  readonly rule: string;
  /** The accepted values, for options that are one of a list. */
  readonly choices?: readonly string[];
  /** The value, checked: throws a RangeError "NAME must be RULE, got VALUE". */
  check(value: unknown): T;
  /** A value given as text (a flag's argument, a form field), checked as `check` does. */
  parse(text: string): T;
}

/** Bytes a unit of a size: KB/MB/GB/TB are powers of 1000, K/M/G/T and KiB/MiB/GiB/TiB of 1024; none or B, bytes. */
export const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  k: 2 ** 10,
  kib: 2 ** 10,
  m: 2 ** 20,
  mib: 2 ** 20,
  g: 2 ** 30,
  gib: 2 ** 30,
  t: 2 ** 40,
  tib: 2 ** 40,
};

const shown = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** The message every front end gives for a bad value. */
export function optionError(name: string, rule: string, value: unknown): RangeError {
  return new RangeError(`${name} must be ${rule}, got ${shown(value)}`);
}

/** A number from text: '' and whitespace are not 0. */
const numberFrom = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

export function spec<T>(
  name: string,
  flag: string,
  defaultValue: T | undefined,
  rule: string,
  valid: (value: unknown) => boolean,
  fromText: (text: string) => unknown,
  choices?: readonly string[],
): OptionSpec<T> {
  const check = (value: unknown): T => {
    if (!valid(value)) throw optionError(name, rule, value);
    return value as T;
  };
  // Text that is not a number is shown as given ("abc"), not as what it became (NaN).
  const parse = (text: string): T => {
    const value = fromText(text);
    if (!valid(value)) throw optionError(name, rule, Number.isNaN(value) ? text : value);
    return value as T;
  };
  return { name, flag, default: defaultValue, rule, choices, check, parse };
}

export function integer(
  name: string,
  flag: string,
  defaultValue: number | undefined,
  min: number,
  max = Infinity,
): OptionSpec<number> {
  const rule =
    max === Infinity
      ? min === 1
        ? 'a positive integer'
        : `an integer of at least ${min}`
      : `an integer from ${min} to ${max}`;
  return spec(
    name,
    flag,
    defaultValue,
    rule,
    (v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max,
    numberFrom,
  );
}

export function real(
  name: string,
  flag: string,
  defaultValue: number | undefined,
  rule: string,
  valid: (v: number) => boolean,
): OptionSpec<number> {
  return spec(
    name,
    flag,
    defaultValue,
    rule,
    (v) => typeof v === 'number' && Number.isFinite(v) && valid(v),
    numberFrom,
  );
}

export function oneOf<T extends string | number>(
  name: string,
  flag: string,
  defaultValue: T,
  choices: readonly T[],
): OptionSpec<T> {
  const words = choices.map(String);
  const rule = `${words.length > 2 ? 'one of ' : ''}${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
  const fromText = typeof choices[0] === 'number' ? numberFrom : (text: string) => text;
  return spec(name, flag, defaultValue, rule, (v) => (choices as readonly unknown[]).includes(v), fromText, words);
}

export function flag(name: string, cliFlag: string): OptionSpec<boolean> {
  return spec(
    name,
    cliFlag,
    false,
    'true or false',
    (v) => typeof v === 'boolean',
    (text) => text === 'true' || (text === 'false' ? false : text),
  );
}

export function fieldName(name: string, cliFlag: string, defaultValue: string): OptionSpec<string> {
  return spec(
    name,
    cliFlag,
    defaultValue,
    'a field or column name',
    (v) => typeof v === 'string' && v !== '',
    (text) => text,
  );
}

export const isU64 = (v: unknown): boolean => {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0;
  if (typeof v !== 'string') return false;
  try {
    parseU64(v);
    return true;
  } catch {
    return false;
  }
};

const keepRule = 'first, longest or field:NAME';
export const keep: OptionSpec<KeepPolicy> = {
  name: 'keep',
  flag: '--keep',
  default: { kind: 'first' },
  rule: keepRule,
  /** A policy object ({ kind: 'longest' }) or the CLI's spelling ('longest', 'field:quality'). */
  check(value) {
    if (typeof value === 'string') {
      try {
        return parseKeepPolicy(value);
      } catch {
        throw optionError('keep', keepRule, value);
      }
    }
    const policy = value as Partial<{ kind: string; field: unknown }> | null;
    if (policy?.kind === 'first' || policy?.kind === 'longest') return { kind: policy.kind };
    if (policy?.kind === 'field' && typeof policy.field === 'string' && policy.field !== '')
      return { kind: 'field', field: policy.field };
    throw optionError('keep', keepRule, typeof value === 'object' ? JSON.stringify(value) : value);
  },
  parse(text) {
    return this.check(text);
  },
};

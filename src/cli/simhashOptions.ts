/**
 * `dedup --scheme simhash`'s flags: near-duplicates are fingerprints within Hamming distance
 * `--max-hamming` h, found by Manku's permuted block tables (bands/simhashBands.ts: h + m blocks, a table for each
 * m of them, since a pair within h bits agrees on m whole blocks), and decided at the threshold 1 − h / 64: a pair
 * beyond h bits is rejected whatever the mode; within h, by the fraction of equal bits (--verify estimate: exactly
 * "Hamming distance ≤ h"), or by the exact angular similarity 1 − θ / π of the shingle vectors as well (exact, and
 * hybrid inside its margin: cos θ ≥ cos(π·h / 64)).
 */
import type { Command } from 'commander';
import type { LshParams } from '../bands/lshParams.js';
import { simhashBanding, simhashParams } from '../bands/simhashBands.js';
import type { VerifyMode } from '../options.js';
import { SIMHASH_BITS } from '../signatures/simhash.js';
import { tableOption } from './options.js';

export function addSimhashOptions(
  command: Command,
  what = "--scheme simhash: fingerprints differing in at most h of 64 bits are near-duplicates (Manku's block tables)",
): Command {
  return command.addOption(tableOption('maxHamming', '--max-hamming <h>', what));
}

export interface SimhashRun {
  readonly threshold: number;
  readonly lsh: LshParams;
  readonly verify: VerifyMode;
}

/** The banding and threshold of a SimHash run, `verify` as given; refuses the flags that do not apply to it. */
export function simhashRun(maxHamming: number, cmd: Command, verify: VerifyMode): SimhashRun {
  const given = (name: string): boolean => cmd.getOptionValueSource(name) === 'cli';
  for (const [name, flag] of [
    ['threshold', '--threshold'],
    ['bands', '--bands'],
    ['rows', '--rows'],
    ['audit', '--audit'],
  ] as const)
    if (given(name)) throw new RangeError(`--scheme simhash bands by --max-hamming, not ${flag}`);
  return { ...simhashBanding(maxHamming), verify };
}

export function simhashParamsText(maxHamming: number): string {
  const p = simhashParams(maxHamming);
  const range = ({ least, most }: { least: number; most: number }): string =>
    least === most ? String(least) : `${least}–${most}`;
  return [
    `simhash, max Hamming distance ${maxHamming}: ${p.blocks} blocks of ${range(p.bitsPerBlock)} bits, ` +
      `${p.tables} block tables of ${p.blocksPerTable} (${range(p.bitsPerTable)} bits); a pair within ${maxHamming} ` +
      `bits differs in at most ${maxHamming} blocks, so it agrees on ${p.blocksPerTable}: every such pair is a candidate`,
    'each bit differs with probability θ / π (θ the angle between the weighted shingle vectors), so a distance of d',
    `of ${SIMHASH_BITS} bits estimates θ = π·d / ${SIMHASH_BITS}; Hamming ≤ ${maxHamming} asks for cosine ≳ ${p.cosineAtMaxHamming.toFixed(4)}`,
    '',
    'Hamming  angle (rad)  cosine',
    ...p.distances.map(
      (d) => `${String(d.hamming).padStart(7)}  ${d.angle.toFixed(4).padStart(11)}  ${d.cosine.toFixed(4)}`,
    ),
  ].join('\n');
}

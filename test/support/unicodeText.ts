/** Seeded random Unicode text for the datasketch tests. */

/** The tests' deterministic PRNG (mulberry32). */
export { rng as mulberry32 } from './reference.js';

/** Random Unicode: ASCII words, accented Latin, CJK, emoji (astral), odd spaces. */
export function randomUnicodeText(random: () => number, words: number): string {
  const pools = ['abcdefghij', 'éüßøñçà', '漢字仮名交じり文', '😀🎉🚀👍', 'Ωβγδ', 'абвгд'];
  const spaces = [' ', '  ', '\t', '\n', '\u3000', '\u00a0'];
  const parts: string[] = [];
  for (let w = 0; w < words; w++) {
    const pool = Array.from(pools[Math.floor(random() * pools.length)]);
    const length = 1 + Math.floor(random() * 8);
    parts.push(Array.from({ length }, () => pool[Math.floor(random() * pool.length)]).join(''));
    parts.push(spaces[Math.floor(random() * spaces.length)]);
  }
  return parts.join('');
}

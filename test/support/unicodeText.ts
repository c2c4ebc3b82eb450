/** Seeded random Unicode text for the datasketch tests. */

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

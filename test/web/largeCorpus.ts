/**
 * A generated JSONL corpus of a given size for the browser's scale tests and
 * bench/web-scale.ts: documents of 150–450 pseudo-words from a 20,000-word
 * vocabulary, with planted exact duplicates (5 %, case and spacing changed) and
 * near-duplicates (8 %, two or three words replaced). Written in chunks, never
 * held whole.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { rng } from '../support/reference.js';

export interface LargeCorpus {
  readonly documents: number;
  readonly bytes: number;
}

export async function writeLargeCorpus(path: string, targetBytes: number, seed = 1): Promise<LargeCorpus> {
  const next = rng(seed);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 've', 'da', 'go', 'hu', 'zi', 'be', 'fa', 'xo'];
  const vocabulary = Array.from({ length: 20_000 }, (_, i) => {
    let word = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / 16)) word += syllables[n % 16];
    return word;
  });
  const out = createWriteStream(path);
  const recent: string[] = [];
  let bytes = 0;
  let documents = 0;
  let buffer = '';
  while (bytes < targetBytes) {
    const roll = next();
    let text: string;
    if (roll < 0.05 && recent.length > 0) {
      text = recent[Math.floor(next() * recent.length)].toUpperCase().replace(/ /g, '  ');
    } else if (roll < 0.13 && recent.length > 0) {
      const words = recent[Math.floor(next() * recent.length)].split(' ');
      const edits = 2 + Math.floor(next() * 2);
      for (let e = 0; e < edits; e++) words[Math.floor(next() * words.length)] = `edit${documents}x${e}`;
      text = words.join(' ');
    } else {
      const length = 150 + Math.floor(next() * 300);
      text = Array.from({ length }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ');
      recent.push(text);
      if (recent.length > 200) recent.shift();
    }
    const line = JSON.stringify({ id: `doc-${documents}`, text }) + '\n';
    documents++;
    bytes += Buffer.byteLength(line);
    buffer += line;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return { documents, bytes };
}

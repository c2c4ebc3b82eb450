/** The longest-first list names test files that exist, each once (a renamed file would silently start late). */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { LONGEST_FIRST } from './sequencer.js';

it('lists existing test files, each once', () => {
  expect(LONGEST_FIRST.filter((file) => !existsSync(file) || !file.endsWith('.test.ts'))).toEqual([]);
  expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
});

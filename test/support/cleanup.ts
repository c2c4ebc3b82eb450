/** Vitest setup file (vitest.config.ts): every test file's temporary directories go when it ends. */
import { afterAll } from 'vitest';
import { removeTempDirs } from './tempDirs.js';

afterAll(removeTempDirs);

#!/usr/bin/env node
// Runs a command with the harmless native GPU warnings filtered out of its standard error
// (the list is the CLI's, src/cli/quietNative.ts). `npm test` runs vitest through it.
import { spawn } from 'node:child_process';
import { LineFilter } from '../dist/src/cli/quietNative.js';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, {
  stdio: ['inherit', 'inherit', process.env.GPUDEDUP_DEBUG === '1' ? 'inherit' : 'pipe'],
});
const filter = new LineFilter((text) => process.stderr.write(text));
child.stderr?.on('data', (chunk) => filter.push(chunk.toString('utf8')));
child.on('close', (code, signal) => {
  filter.end();
  process.exit(code ?? (signal ? 1 : 0));
});

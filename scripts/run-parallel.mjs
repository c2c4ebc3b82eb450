#!/usr/bin/env node
// Runs shell commands side by side (`npm test`'s build and checks: tsc is single-threaded, so one after the
// other they left a core idle): each command's output is printed whole when it ends, under its name, so that
// no two interleave. Exits 1 if any command failed, after all have ended; none is stopped early.
//
//   node scripts/run-parallel.mjs 'tsc -p bench/tsconfig.json' 'biome check .'
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.mjs COMMAND...\n');
  process.exit(2);
}

function run(command) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
      const output = Buffer.concat(chunks).toString('utf8');
      process.stdout.write(
        `> ${command}: ${status} in ${seconds} s\n${output}${output.endsWith('\n') || !output ? '' : '\n'}`,
      );
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(commands.map(run));
process.exit(results.every(Boolean) ? 0 : 1);

/**
 * Dawn and the Vulkan loader print harmless warnings from native code straight
 * to file descriptor 2, where no JavaScript can intercept them. So a command
 * that may open a GPU runs as a child process whose standard error passes
 * through a line filter here; GPUDEDUP_DEBUG=1 shows everything. Progress bars
 * still draw: the child is told its standard error reaches a terminal. The
 * child dies with the parent, even one killed by SIGKILL: a watchdog thread
 * in the child sees the end of a pipe (fd 4) that only the parent holds open,
 * removes the child's temporaries and ends it with SIGKILL, however busy its
 * main thread is.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import { observeTemporaries, removeTemporaries } from '../formats/files/temporaries.js';
import { GC_FLAG, HEAP_FLAG } from './heapFlags.js';

/** Lines known to be harmless, matched from their start. */
export const HARMLESS_NATIVE_LINES: readonly RegExp[] = [
  /^Warning: maxDynamic(Uniform|Storage)BuffersPerPipelineLayout artificially reduced/,
  /^WARNING: lavapipe is not a conformant vulkan implementation/,
  /^MESA: error: XDG_RUNTIME_DIR/,
  /^error: XDG_RUNTIME_DIR is invalid or not set/,
  // A Vulkan loader without any driver (the usual GPU-less server): Dawn finds no Vulkan adapter, and says so per
  // instance.
  /^Warning: vkCreateInstance: Found no drivers!/,
  /^Warning: vkCreateInstance failed with VK_ERROR_INCOMPATIBLE_DRIVER/,
];

/**
 * Dawn follows some warnings with a source location and a blank line
 * (`    at CheckVkSuccessImpl (…/VulkanError.cpp:106)`): after a harmless
 * line, those go too.
 */
const LOCATION = /^[ \t]+at \S/;

const CHILD = 'GPUDEDUP_FILTERED_CHILD';

/** The child's end of a pipe the parent never writes to: it ends (EOF) when the parent is gone, even by SIGKILL. */
const LIFELINE_FD = 4;

/**
 * The child's watchdog, a thread of its own: the main thread may be busy for
 * seconds in synchronous work (reading, signing, banding), during which no
 * event of its own ('disconnect' included) is seen. The watchdog waits for the
 * lifeline's end; then it removes every temporary the main thread has
 * registered (it keeps a copy, told of each change through a port), and ends
 * the process with SIGKILL, so that nothing is renamed into place after the
 * parent has died.
 */
const WATCHDOG = `
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const { rmSync } = require('node:fs');
const { Socket } = require('node:net');
const { port, fd, pid } = workerData;
const live = new Set();
const apply = ([path, isLive]) => (isLive ? live.add(path) : live.delete(path));
port.on('message', apply);
let ending = false;
const die = () => {
  if (ending) return;
  ending = true;
  for (let message; (message = receiveMessageOnPort(port)) !== undefined; ) apply(message.message);
  for (const path of live) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {}
  }
  process.kill(pid, 'SIGKILL');
};
const lifeline = new Socket({ fd, readable: true, writable: false });
lifeline.on('data', () => {});
lifeline.on('end', die);
lifeline.on('close', die);
lifeline.on('error', die);
`;

export function isFilteredChild(): boolean {
  return process.env[CHILD] === '1';
}

/** In the child: behave as if standard error were the parent's terminal, and die with the parent. */
export function adoptParentTerminal(): void {
  if (process.env.GPUDEDUP_STDERR_TTY === '1') {
    Object.defineProperty(process.stderr, 'isTTY', { value: true });
    Object.defineProperty(process.stderr, 'columns', { value: Number(process.env.GPUDEDUP_STDERR_COLUMNS) || 80 });
  }
  // The parent killed (even by SIGKILL) closes this channel: stop at once, as the parent did, leaving no temporary.
  process.on('disconnect', () => {
    removeTemporaries();
    process.kill(process.pid, 'SIGKILL');
  });
  process.channel?.unref();
  // Already gone (killed while this process started): stop before doing anything.
  const parent = Number(process.env.GPUDEDUP_PARENT_PID);
  if (parent > 0 && process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
  // That event waits for the main thread, which may be busy for seconds: the watchdog thread does not.
  if (process.env.GPUDEDUP_LIFELINE === '1') {
    const { port1, port2 } = new MessageChannel();
    const watchdog = new Worker(WATCHDOG, {
      eval: true,
      workerData: { port: port2, fd: LIFELINE_FD, pid: process.pid },
      transferList: [port2],
    });
    watchdog.unref();
    observeTemporaries((path, live) => port1.postMessage([path, live]));
    port1.unref();
  }
}

/** Runs this same command line as a child with filtered standard error; resolves to its exit code. */
export function runFiltered(): Promise<number> {
  const child = spawn(process.execPath, [HEAP_FLAG, GC_FLAG, ...process.execArgv, ...process.argv.slice(1)], {
    // fd 4: the lifeline, never written; the child's watchdog sees its end when this process is gone.
    stdio: ['inherit', 'inherit', 'pipe', 'ipc', 'pipe'],
    env: {
      ...process.env,
      [CHILD]: '1',
      GPUDEDUP_LIFELINE: '1',
      GPUDEDUP_PARENT_PID: String(process.pid),
      GPUDEDUP_STDERR_TTY: process.stderr.isTTY ? '1' : '',
      GPUDEDUP_STDERR_COLUMNS: String(process.stderr.columns ?? ''),
    },
  });
  const filter = new LineFilter((text) => process.stderr.write(text));
  child.stderr!.on('data', (chunk: Buffer) => filter.push(chunk.toString('utf8')));
  // Signals go on to the child, which removes its temporaries and exits 128 + the signal's number. A Ctrl-C
  // reaches the child twice (from the terminal's process group and from here); it acts on the first.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const forward = (signal: NodeJS.Signals) => (): void => void child.kill(signal);
  const handlers = signals.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      filter.end();
      for (const [name, handler] of handlers) process.off(name, handler);
      // Ended by a signal it did not handle (SIGKILL): report it as a shell would, 128 + its number.
      resolve(signal !== null ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
}

/**
 * Drops harmless whole lines; passes everything else through at once, even a
 * line still being written (a progress bar redraws without a newline), unless
 * it may yet become a harmless line.
 */
export class LineFilter {
  private pending = '';
  /** After a harmless line ('warning'), a location line is dropped too; after that ('location'), one blank line. */
  private after: 'other' | 'warning' | 'location' = 'other';

  constructor(private readonly write: (text: string) => void) {}

  push(text: string): void {
    this.pending += text;
    let newline: number;
    while ((newline = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, newline + 1);
      this.pending = this.pending.slice(newline + 1);
      this.line(line);
    }
    // A partial line that may yet be a location line after a warning waits for its end too.
    if (
      this.pending !== '' &&
      !mayBecomeHarmless(this.pending) &&
      !(this.after !== 'other' && /^[ \t]/.test(this.pending))
    ) {
      this.after = 'other';
      this.write(this.pending);
      this.pending = '';
    }
  }

  end(): void {
    if (this.pending !== '' && !isHarmless(this.pending) && !(this.after !== 'other' && LOCATION.test(this.pending)))
      this.write(this.pending);
    this.pending = '';
  }

  private line(line: string): void {
    if (this.after !== 'other' && LOCATION.test(line)) {
      this.after = 'location';
      return;
    }
    if (this.after === 'location' && /^\r?\n$/.test(line)) {
      this.after = 'other';
      return;
    }
    this.after = isHarmless(line) ? 'warning' : 'other';
    if (this.after === 'other') this.write(line);
  }
}

function isHarmless(line: string): boolean {
  return HARMLESS_NATIVE_LINES.some((pattern) => pattern.test(line));
}

/** Whether `partial` is a prefix of some harmless line (their fixed prefixes are at least 8 characters). */
function mayBecomeHarmless(partial: string): boolean {
  const starts = [
    'Warning: maxDynamic',
    'WARNING: lavapipe',
    'MESA: error: XDG',
    'error: XDG_RUNTIME_DIR',
    'Warning: vkCreateInstance',
  ];
  return starts.some((start) => start.startsWith(partial) || partial.startsWith(start));
}

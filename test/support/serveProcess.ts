/** `gpudedup serve` in a child process (loopback, port 0): resolves with its address once it prints it. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: () => string;
  /** Sends SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Runs `command` (argv, e.g. bash -c '… serve DIR --port 0'), which must print `on http://127.0.0.1:PORT`. */
export function startServe(command: readonly string[]): Promise<ServeProcess> {
  const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const stop = (): Promise<number | null> => {
    child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start: ${output}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output); // the whole line: a chunk may end within the port
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/** POST a JSON body; the status and the parsed reply. */
export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

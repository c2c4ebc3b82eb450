/**
 * A standalone Spark cluster on 127.0.0.1 for tests: a master and N workers started from pip's PySpark
 * (`bin/spark-class`, its sbin has no start-master.sh), on ports the JVMs pick themselves (port 0, read back
 * from the master's log), and `spark-submit` against it. Every process runs under `timeout` in a process
 * group of its own (the workers' executors inherit it), so each is gone after `limitSeconds` even if the
 * test runner dies; stop() and the runner's exit kill the groups before that.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Standalone {
  /** spark://127.0.0.1:PORT */
  readonly master: string;
  /** Runs `spark-submit --master <master> …args` (bounded by `seconds`): its exit code and output's tail. */
  submit(args: readonly string[], seconds: number): Promise<{ code: number; output: string; seconds: number }>;
  /** Per worker, the executors it ran ("app-…/0"), from the workers' work folders. */
  executors(): string[][];
  stop(): Promise<void>;
}

interface Options {
  readonly workers: number;
  readonly coresPerWorker: number;
  readonly memoryPerWorker: string;
  /** Every process of the cluster, and each submission, is killed after this many seconds. */
  readonly limitSeconds: number;
}

/** PySpark's folder (its bin/spark-class and bin/spark-submit), from the Python that runs the Spark tests. */
export function sparkHome(): string {
  const python = process.env.GPUDEDUP_PYTHON ?? 'python3';
  const home = execFileSync(python, ['-c', 'import os, pyspark; print(os.path.dirname(pyspark.__file__))'], {
    encoding: 'utf8',
  }).trim();
  for (const tool of ['spark-class', 'spark-submit'])
    if (!existsSync(join(home, 'bin', tool))) throw new Error(`PySpark at ${home} has no bin/${tool}`);
  return home;
}

const live = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

process.on('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});

/** Starts `command args` under `timeout` in a new process group, keeping its output's last 64 KB. */
function start(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  seconds: number,
): { child: ChildProcess; output: () => string; closed: Promise<number> } {
  const child = spawn('timeout', ['-k', '5', String(seconds), command, ...args], {
    detached: true,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const take = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-65536);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const closed = new Promise<number>((resolve) =>
    child.on('close', (code) => {
      live.delete(child);
      resolve(code ?? 1);
    }),
  );
  return { child, output: () => output, closed };
}

async function stopAll(children: readonly { child: ChildProcess; closed: Promise<number> }[]): Promise<void> {
  for (const { child } of children) killGroup(child, 'SIGTERM');
  const grace = new Promise((resolve) => setTimeout(resolve, 5000));
  await Promise.race([Promise.all(children.map((c) => c.closed)), grace]);
  for (const { child } of children) killGroup(child, 'SIGKILL');
  await Promise.all(children.map((c) => c.closed));
}

/** Resolves with what `found` makes of the process's output once it is not undefined; rejects when the process exits or time runs out. */
function waitFor<T>(
  proc: ReturnType<typeof start>,
  found: (output: string) => T | undefined,
  what: string,
  seconds: number,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const value = found(proc.output());
      if (value !== undefined) resolve(value);
      else if (proc.child.exitCode !== null || proc.child.signalCode !== null || Date.now() > deadline)
        reject(new Error(`the Spark master: no ${what} in ${seconds} s:\n${proc.output().slice(-3000)}`));
      else return;
      clearInterval(timer);
    }, 200);
  });
}

/** A master and `workers` workers on 127.0.0.1, each worker registered with the master, under `dir`. */
export async function startStandalone(dir: string, options: Options): Promise<Standalone> {
  const home = sparkHome();
  const sparkClass = join(home, 'bin', 'spark-class');
  const env = {
    SPARK_HOME: home,
    SPARK_LOCAL_IP: '127.0.0.1',
    SPARK_LOCAL_HOSTNAME: '127.0.0.1',
    SPARK_LOCAL_DIRS: join(dir, 'local'),
    // The master and the workers only schedule: a small heap, and the C1 compiler only.
    SPARK_DAEMON_MEMORY: '256m',
    SPARK_DAEMON_JAVA_OPTS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC',
    // The master's REST submission server listens on a fixed port (6066) otherwise: two runs at once would clash.
    SPARK_MASTER_OPTS: '-Dspark.master.rest.enabled=false',
    PYSPARK_PYTHON: process.env.GPUDEDUP_PYTHON ?? 'python3',
  };
  mkdirSync(join(dir, 'local'), { recursive: true });
  const processes: ReturnType<typeof start>[] = [];
  const limit = options.limitSeconds;
  try {
    const masterClass = 'org.apache.spark.deploy.master.Master';
    const master = start(
      sparkClass,
      [masterClass, '--host', '127.0.0.1', '--port', '0', '--webui-port', '0'],
      env,
      limit,
    );
    processes.push(master);
    const url = await waitFor(
      master,
      (o) => /Starting Spark master at (spark:\/\/127\.0\.0\.1:\d+)/.exec(o)?.[1],
      'start',
      120,
    );
    const workDirs = Array.from({ length: options.workers }, (_, i) => join(dir, `worker-${i + 1}`));
    for (const work of workDirs) {
      mkdirSync(work, { recursive: true });
      processes.push(
        start(
          sparkClass,
          [
            'org.apache.spark.deploy.worker.Worker',
            ...['--host', '127.0.0.1', '--port', '0', '--webui-port', '0'],
            ...['--cores', String(options.coresPerWorker), '--memory', options.memoryPerWorker],
            ...['--work-dir', work, url],
          ],
          env,
          limit,
        ),
      );
    }
    const registered = (o: string): true | undefined =>
      (o.match(/Registering worker /g) ?? []).length >= options.workers || undefined;
    await waitFor(master, registered, `${options.workers} workers registering`, 120);
    return {
      master: url,
      async submit(args, seconds) {
        const t = performance.now();
        const submit = join(home, 'bin', 'spark-submit');
        const job = start(submit, ['--master', url, '--conf', 'spark.driver.host=127.0.0.1', ...args], env, seconds);
        processes.push(job);
        const code = await job.closed;
        return { code, output: job.output(), seconds: (performance.now() - t) / 1000 };
      },
      executors: () =>
        workDirs.map((work) =>
          readdirSync(work).flatMap((app) => readdirSync(join(work, app)).map((executor) => `${app}/${executor}`)),
        ),
      stop: () => stopAll(processes),
    };
  } catch (error) {
    await stopAll(processes);
    throw error;
  }
}

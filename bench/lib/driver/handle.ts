// The bench process's side of the driver: forks ./main.ts and calls it over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import type { DriverApi, DriverMethod, DriverRequest, DriverResponse } from './protocol.js';

export interface Driver {
  call<M extends DriverMethod>(method: M, params: DriverApi[M][0]): Promise<DriverApi[M][1]>;
  /** Asks the driver to stop cleanly, then makes sure it is gone. */
  stop(): Promise<void>;
  readonly pid: number | undefined;
}

export async function startDriver(): Promise<Driver> {
  // Only tsx's loader: the driver must not inherit flags meant for the bench process, such as
  // --cpu-prof (the profile is to show the gateway alone).
  const child: ChildProcess = fork(new URL('./main.ts', import.meta.url), [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });

  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; method: string }>();
  child.on('message', (message: DriverResponse) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if ('error' in message) waiter.reject(new Error(`driver ${waiter.method}: ${message.error}`));
    else waiter.resolve(message.result);
  });
  child.on('exit', (code, signal) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`driver exited (${signal ?? code}) during ${waiter.method}`));
    pending.clear();
  });

  return {
    pid: child.pid,
    call<M extends DriverMethod>(method: M, params: DriverApi[M][0]): Promise<DriverApi[M][1]> {
      return new Promise((resolve, reject) => {
        if (!child.connected) return reject(new Error(`driver is gone; cannot ${method}`));
        const id = nextId++;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, method });
        const request: DriverRequest = { id, method, params };
        child.send(request);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        if (child.connected) {
          const id = nextId++;
          child.send({ id, method: 'shutdown', params: null } satisfies DriverRequest);
          await Promise.race([new Promise((resolve) => pending.set(id, { resolve, reject: resolve, method: 'shutdown' })), exited, sleep(5_000)]);
          child.disconnect();
        }
      } finally {
        const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

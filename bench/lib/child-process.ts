// A child process the bench process calls over IPC: the driver (the v4 server and every client)
// and the server processes (a gateway or the naive BFF, measured on their own). `Api` maps each
// method to [params, result]; every child answers `shutdown` before it is disconnected.
import { fork, type ChildProcess } from 'node:child_process';

export type IpcApi = { shutdown: [null, null] } & Record<string, [unknown, unknown]>;

export interface ChildRequest {
  id: number;
  method: string;
  params: unknown;
}

export type ChildResponse = { id: number; result: unknown } | { id: number; error: string };

export interface Child<Api extends IpcApi> {
  call<M extends keyof Api & string>(method: M, params: Api[M][0]): Promise<Api[M][1]>;
  /** Asks the child to stop cleanly, then makes sure it is gone. */
  stop(): Promise<void>;
  readonly pid: number | undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Forks `entry` with exactly `execArgv` (never the bench process's own flags, such as --cpu-prof,
 * which are meant for it alone); `name` tells the child apart in errors.
 */
export async function forkChild<Api extends IpcApi>(entry: URL | string, execArgv: string[], name: string): Promise<Child<Api>> {
  const child: ChildProcess = fork(entry, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });

  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; method: string }>();
  child.on('message', (message: ChildResponse) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if ('error' in message) waiter.reject(new Error(`${name} ${waiter.method}: ${message.error}`));
    else waiter.resolve(message.result);
  });
  child.on('exit', (code, signal) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${name} exited (${signal ?? code}) during ${waiter.method}`));
    pending.clear();
  });

  return {
    pid: child.pid,
    call<M extends keyof Api & string>(method: M, params: Api[M][0]): Promise<Api[M][1]> {
      return new Promise((resolve, reject) => {
        if (!child.connected) return reject(new Error(`${name} is gone; cannot ${method}`));
        const id = nextId++;
        pending.set(id, { resolve: resolve, reject, method });
        const request: ChildRequest = { id, method, params };
        child.send(request);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        if (child.connected) {
          const id = nextId++;
          child.send({ id, method: 'shutdown', params: null } satisfies ChildRequest);
          await Promise.race([
            new Promise((resolve) => pending.set(id, { resolve, reject: resolve, method: 'shutdown' })),
            exited,
            sleep(5_000),
          ]);
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

export type Handlers<Api extends IpcApi> = { [M in keyof Api]: (params: Api[M][0]) => Promise<Api[M][1]> | Api[M][1] };

/** The child's side: answers each request with its handler; exits when the bench process goes away. */
export function answerParent<Api extends IpcApi>(handlers: Handlers<Api>): void {
  const reply = (response: ChildResponse) => process.send?.(response);
  process.on('message', (message: ChildRequest) => {
    const handler = handlers[message.method];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`no method ${message.method}`);
        return handler(message.params);
      })
      .then(
        (result) => reply({ id: message.id, result: result ?? null }),
        (error: unknown) => reply({ id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      );
  });
  // The bench process owns this one: when it goes away, so do we, whatever state we are in.
  process.on('disconnect', () => process.exit(0));
}

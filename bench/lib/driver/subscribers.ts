// Many graphql-ws subscribers over a few WebSocket connections: graphql-ws multiplexes any number
// of operations on one socket, as a browser tab with several widgets would.
import { createClient, type Client } from 'graphql-ws';
import type { Dispatcher } from 'undici';
import WebSocket from 'ws';
import type { SimulatorState } from '../../../simulator/index.js';
import type { ChangeRound, SubscriberStats } from './protocol.js';

interface Subscriber {
  runnerId: number;
  /** The gateway replica it subscribed on (an index into the URLs `open` was given). */
  gateway: number;
  /** The paused state the current change round waits for. */
  expected?: boolean;
  /** When the message with the expected state arrived (performance.now()). */
  arrivedAt?: number;
  dispose: () => void;
}

interface RunnerEvent {
  data?: { ciRunnerStatusUpdated?: { paused?: boolean } } | null;
  errors?: unknown[];
}

const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  // graphql-ws reports a closed socket as its CloseEvent, and GraphQL errors as an array.
  if (typeof error === 'object' && error !== null && 'code' in error) return `socket closed with ${String(error.code)}`;
  return JSON.stringify(error).slice(0, 300);
}

export class Subscribers {
  /** The connections to each gateway (one list per replica), and how many subscriptions each list got so far. */
  private clients: Client[][] = [];
  private assigned: number[] = [];
  private subscribers: Subscriber[] = [];
  private events = 0;
  private errors = 0;
  private firstError: string | undefined;
  private waiting = 0;

  private fail(error: unknown): void {
    this.errors++;
    this.firstError ??= describe(error);
  }

  /**
   * Opens the connections (credential in `connection_init`), connection i to `wsUrls[i % U]` (the
   * replicas of a gateway, round-robin), and waits until each is acknowledged.
   */
  async open(wsUrls: string[], token: string, connections: number, timeoutMs: number): Promise<number> {
    let connected = 0;
    this.clients = wsUrls.map(() => []);
    this.assigned = wsUrls.map(() => 0);
    for (let index = 0; index < connections; index++) {
      this.clients[index % wsUrls.length]!.push(
        createClient({
          url: wsUrls[index % wsUrls.length]!,
          webSocketImpl: WebSocket,
          lazy: false,
          retryAttempts: 0,
          connectionParams: { 'PRIVATE-TOKEN': token },
          onNonLazyError: (error) => this.fail(error),
          on: { connected: () => void connected++ },
        }),
      );
    }
    const deadline = performance.now() + timeoutMs;
    while (connected < connections && this.errors === 0 && performance.now() < deadline) await sleep(10);
    return connected;
  }

  /**
   * Subscriptions offset..offset+count-1; subscription i watches runner `runnerIds[i % M]`. With one
   * gateway it goes on connection `i % C`. With U replicas, the k-th subscription to a runner goes to
   * replica `(runner's index + k) % U`, so every runner is watched on every replica (plain `i % U`
   * would keep runner r on replica r % U alone whenever U divides M), each replica's share on its
   * connections in turn.
   */
  subscribe(query: string, runnerIds: number[], offset: number, count: number): void {
    for (let index = offset; index < offset + count; index++) {
      const runners = runnerIds.length;
      const replica = ((index % runners) + Math.floor(index / runners)) % this.clients.length;
      const connections = this.clients[replica] ?? [];
      const client = connections[this.assigned[replica]! % connections.length];
      this.assigned[replica]!++;
      const runnerId = runnerIds[index % runnerIds.length];
      if (!client || runnerId === undefined) throw new Error('open connections and give runner ids first');
      const subscriber: Subscriber = { runnerId, gateway: replica, dispose: () => {} };
      subscriber.dispose = client.subscribe<RunnerEvent['data']>(
        { query, variables: { id: gid(runnerId) } },
        {
          next: (event) => {
            this.events++;
            const { data, errors } = event as RunnerEvent;
            if (errors !== undefined) return this.fail(errors);
            const paused = data?.ciRunnerStatusUpdated?.paused;
            if (subscriber.expected !== undefined && paused === subscriber.expected && subscriber.arrivedAt === undefined) {
              subscriber.arrivedAt = performance.now();
              this.waiting--;
            }
          },
          error: (error) => this.fail(error),
          complete: () => {},
        },
      );
      this.subscribers.push(subscriber);
    }
  }

  /**
   * Flips the paused state of every given runner with `PUT /runners/:id` (REST, straight to the v4
   * server, as another user of GitLab would) and times each subscriber's message. A subscriber's
   * delay counts from its runner's PUT response, when the change is surely committed.
   */
  async change(state: SimulatorState, rest: Dispatcher, basePath: string, runnerIds: number[], token: string, timeoutMs: number): Promise<ChangeRound> {
    const target = new Map<number, boolean>();
    for (const id of runnerIds) {
      const runner = state.runners.get(id);
      if (!runner) throw new Error(`runner ${id} does not exist`);
      // Flip: an active runner gets paused, a paused one resumed. Read only; the change itself
      // goes through REST below.
      target.set(id, runner.active);
    }
    const watched = this.subscribers.filter((subscriber) => target.has(subscriber.runnerId));
    for (const subscriber of watched) {
      subscriber.expected = target.get(subscriber.runnerId)!;
      delete subscriber.arrivedAt;
    }
    this.waiting = watched.length;

    const committedAt = new Map<number, number>();
    const putMs: number[] = [];
    await Promise.all(
      runnerIds.map(async (id) => {
        const sent = performance.now();
        const { statusCode, body } = await rest.request({
          method: 'PUT',
          path: `${basePath}/runners/${id}`,
          headers: { 'private-token': token, 'content-type': 'application/json' },
          body: JSON.stringify({ paused: target.get(id) }),
        });
        await body.dump();
        if (statusCode !== 200) throw new Error(`PUT /runners/${id} answered ${statusCode}`);
        committedAt.set(id, performance.now());
        putMs.push(performance.now() - sent);
      }),
    );

    const deadline = performance.now() + timeoutMs;
    while (this.waiting > 0 && performance.now() < deadline) await sleep(5);
    const delaysMs: number[] = [];
    const maxDelayMsByGateway = this.clients.map(() => 0);
    let missing = 0;
    for (const subscriber of watched) {
      if (subscriber.arrivedAt === undefined) missing++;
      else {
        // A poll already on the wire may read the change before the PUT's answer reaches us: 0.
        const delay = Math.max(0, subscriber.arrivedAt - committedAt.get(subscriber.runnerId)!);
        delaysMs.push(delay);
        maxDelayMsByGateway[subscriber.gateway] = Math.max(maxDelayMsByGateway[subscriber.gateway]!, delay);
      }
      delete subscriber.expected;
    }
    return { runners: runnerIds.length, delaysMs, maxDelayMsByGateway, missing, putMs };
  }

  stats(): SubscriberStats {
    return {
      subscriptions: this.subscribers.length,
      events: this.events,
      errors: this.errors,
      ...(this.firstError !== undefined ? { firstError: this.firstError } : {}),
    };
  }

  async close(): Promise<void> {
    for (const subscriber of this.subscribers) subscriber.dispose();
    await Promise.all(
      this.clients.flat().map(async (client) => {
        await client.dispose();
      }),
    );
    this.clients = [];
    this.assigned = [];
    this.subscribers = [];
  }
}

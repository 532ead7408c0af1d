import type { Credential } from '../datasources/credentials.js';
import { RestSession, type RestClient } from '../datasources/rest-client.js';
import { RestError } from '../datasources/rest-error.js';
import { RunnersApi, type RunnerSchema } from '../datasources/runners.js';
import { randomCredentialDigest, type CredentialDigest } from '../shared-state/credential-digest.js';
import { localCoordination, type PollerCoordination, type PollerMembership } from './poller-coordination.js';
import { PushIterator } from './push-iterator.js';

/** What a subscriber receives: the runner after a change, or the error that ended the watch. */
export type RunnerStatusEvent = { runner: RunnerSchema } | { error: RestError };

export interface RunnerStatusPollersOptions {
  restClient: RestClient;
  /** Milliseconds between two polls of one runner. */
  intervalMs: number;
  /** Names credentials in poller keys (default: a keyed hash with a secret of this process's own). */
  credentialDigest?: CredentialDigest;
  /** Which replica polls a key (default: this one, always). */
  coordination?: PollerCoordination;
}

/** What the replica that polls a key tells the others watching it: the runner it saw, or the error that ended the watch. */
type PollMessage = { runner: RunnerSchema } | { ended: Pick<RestError, 'method' | 'path' | 'status' | 'body'> };

/** REST answers after which polling again cannot help: the watch ends with that error. */
const FINAL_STATUSES = new Set([401, 403, 404, 410]);

function isPaused(runner: RunnerSchema): boolean {
  return runner.paused ?? runner.active === false;
}

function fingerprint(runner: RunnerSchema): string {
  return `${runner.status ?? ''}|${isPaused(runner)}`;
}

/**
 * One runner watched for one credential: polls `GET /runners/:id` once per interval, whoever and
 * however many are subscribed, and pushes the runner to each subscriber when its status or paused
 * state changes. With several replicas, only the one holding the key's lease polls; the others
 * receive what it saw (`receive`) and push the same changes to their own subscribers.
 */
class RunnerPoller {
  private readonly subscribers = new Set<PushIterator<RunnerStatusEvent>>();
  private readonly api: RunnersApi;
  private readonly membership: PollerMembership;
  private timer: NodeJS.Timeout | undefined;
  private last: string | undefined;
  private stopped = false;
  /**
   * Settles with the first poll: the baseline, and the check that the caller may see the runner.
   * It always runs here, with this subscriber's own credential, whichever replica polls later.
   */
  readonly ready: Promise<void>;

  constructor(
    restClient: RestClient,
    credential: Credential,
    key: string,
    private readonly runnerId: number,
    private readonly intervalMs: number,
    coordination: PollerCoordination,
    private readonly onIdle: () => void,
  ) {
    this.api = new RunnersApi(new RestSession(restClient, credential));
    this.membership = coordination.join(key, (message) => this.receive(message as PollMessage));
    this.ready = this.api.show(runnerId).then(
      (runner) => {
        // What another replica published while this poll was on its way is as new or newer.
        this.last ??= fingerprint(runner);
        this.membership.compete();
        this.schedule();
      },
      (error: unknown) => {
        if (error instanceof RestError && FINAL_STATUSES.has(error.status)) throw error;
        // A passing fault (timeout, 5xx, a reused socket the upstream had closed) must not end
        // the watch before it starts: the next poll sets the baseline instead.
        this.membership.compete();
        this.schedule();
      },
    );
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Whether this replica polls the runner now (rather than another replica for it). */
  get polling(): boolean {
    return !this.stopped && this.membership.polls;
  }

  subscribe(): PushIterator<RunnerStatusEvent> {
    const iterator = new PushIterator<RunnerStatusEvent>(() => {
      this.subscribers.delete(iterator);
      if (this.subscribers.size === 0) void this.stop();
    });
    this.subscribers.add(iterator);
    return iterator;
  }

  /** Ends the watch; resolves once another replica may take the key over. */
  stop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stopped = true;
    clearTimeout(this.timer);
    this.onIdle();
    for (const subscriber of [...this.subscribers]) subscriber.end();
    return this.membership.leave();
  }

  private schedule(): void {
    if (this.stopped) return;
    // A chain of timeouts rather than an interval: a slow REST answer never overlaps the next poll.
    this.timer = setTimeout(() => void this.tick(), this.intervalMs);
  }

  private async tick(): Promise<void> {
    if (this.membership.polls) await this.poll();
    this.schedule();
  }

  private async poll(): Promise<void> {
    try {
      const runner = await this.api.show(this.runnerId);
      // Every poll, not only changes: a replica that missed a message (a reconnect) catches up on the next.
      this.membership.publish({ runner } satisfies PollMessage);
      this.apply(runner);
    } catch (error) {
      if (error instanceof RestError && FINAL_STATUSES.has(error.status)) {
        const { method, path, status, body } = error;
        this.membership.publish({ ended: { method, path, status, body } } satisfies PollMessage);
        this.end(error);
      }
      // Timeouts, 5xx and 429 are passing: the next interval tries again.
    }
  }

  private receive(message: PollMessage): void {
    if (this.stopped) return;
    if ('runner' in message) this.apply(message.runner);
    else if ('ended' in message) this.end(new RestError(message.ended));
  }

  /** Pushes the runner to every subscriber when it differs from the last one seen. */
  private apply(runner: RunnerSchema): void {
    const current = fingerprint(runner);
    if (this.last === undefined) {
      this.last = current; // the baseline the first poll could not take
    } else if (current !== this.last) {
      this.last = current;
      for (const subscriber of this.subscribers) subscriber.push({ runner });
    }
  }

  private end(error: RestError): void {
    for (const subscriber of this.subscribers) subscriber.push({ error });
    void this.stop();
  }
}

/**
 * The registry of runner pollers, keyed by (credential digest, runner id). The key never holds the
 * token itself, and two credentials never share a poller, so one caller's access never serves
 * another's subscription; with several replicas, the same key names the same watch on each.
 */
export class RunnerStatusPollers {
  private readonly pollers = new Map<string, RunnerPoller>();
  private readonly credentialDigest: CredentialDigest;
  private readonly coordination: PollerCoordination;

  constructor(private readonly options: RunnerStatusPollersOptions) {
    this.credentialDigest = options.credentialDigest ?? randomCredentialDigest();
    this.coordination = options.coordination ?? localCoordination;
  }

  /** How many runners are watched here now (one per credential and runner). */
  get activePollers(): number {
    return this.pollers.size;
  }

  /** How many of them this replica polls itself; with several replicas, the others are polled by another. */
  get pollingPollers(): number {
    let count = 0;
    for (const poller of this.pollers.values()) if (poller.polling) count += 1;
    return count;
  }

  get activeSubscriptions(): number {
    let count = 0;
    for (const poller of this.pollers.values()) count += poller.subscriberCount;
    return count;
  }

  /**
   * Subscribes to a runner's changes. Resolves once the caller is known to be allowed to see the
   * runner; rejects with the REST error otherwise.
   */
  async subscribe(credential: Credential, runnerId: number): Promise<PushIterator<RunnerStatusEvent>> {
    const key = `${this.credentialDigest(credential)}:${runnerId}`;
    let poller = this.pollers.get(key);
    if (!poller) {
      const created = new RunnerPoller(this.options.restClient, credential, key, runnerId, this.options.intervalMs, this.coordination, () => {
        if (this.pollers.get(key) === created) this.pollers.delete(key);
      });
      this.pollers.set(key, created);
      poller = created;
    }
    const iterator = poller.subscribe();
    try {
      await poller.ready;
    } catch (error) {
      iterator.end();
      void poller.stop();
      throw error;
    }
    return iterator;
  }

  /** Stops every poller and ends every subscription (server shutdown); resolves once their leases are released. */
  async close(): Promise<void> {
    await Promise.all([...this.pollers.values()].map((poller) => poller.stop()));
  }
}

import type { Credential } from '../datasources/credentials.js';
import { RestSession, type RestClient } from '../datasources/rest-client.js';
import { RestError } from '../datasources/rest-error.js';
import { UpstreamQuotaSpent, type UpstreamQuota } from '../datasources/upstream-quota.js';
import { randomCredentialDigest, type CredentialDigest } from '../shared-state/credential-digest.js';
import { localCoordination, type PollerCoordination, type PollerMembership } from './poller-coordination.js';
import { PushIterator } from './push-iterator.js';

/** What a subscriber receives: the record after a change it watches, or the error that ended the watch. */
export type RecordEvent<T> = { record: T } | { error: RestError };

/**
 * One REST record a subscription watches: a runner, an issue. `topic` and `id` name it the same way
 * on every replica (lease keys and channels are `<topic>-lease:<credential digest>:<id>` and
 * `<topic>:<credential digest>:<id>`); `fetch` reads it with the subscriber's credential.
 */
export interface WatchedRecord<T> {
  topic: string;
  id: string;
  fetch(session: RestSession): Promise<T>;
}

/**
 * The part of a record one subscription watches, as a string that changes when that part does
 * (a runner's status, an issue's labels): a subscriber is pushed only when its own aspect changed.
 */
export type Aspect<T> = (record: T) => string;

export interface RecordPollersOptions {
  restClient: RestClient;
  /** Milliseconds between two polls of one record. */
  intervalMs: number;
  /** Names credentials in poller keys (default: a keyed hash with a secret of this process's own). */
  credentialDigest?: CredentialDigest;
  /** Which replica polls a key (default: this one, always). */
  coordination?: PollerCoordination;
  /**
   * Where in the interval a new poller's polls fall, as a fraction in [0, 1) (default: random).
   * Pollers started together (a page subscribing to 100 runners at once) would otherwise poll
   * together for as long as they live: 100 REST calls in one burst each interval, and every change
   * they find pushed in one burst too (10,000 messages in the bench), which delays the last
   * subscriber by the whole burst. Spread over the interval, each poller's burst is its own.
   */
  pollPhase?: () => number;
  /**
   * GitLab's rate limits as last seen (datasources/upstream-quota.ts): a poller of a credential
   * running low waits longer than `intervalMs`, and one with nothing left waits past the reset.
   */
  upstreamQuota?: UpstreamQuota | undefined;
}

/** What the replica that polls a key tells the others watching it: the record it saw, or the error that ended the watch. */
type PollMessage<T> = { record: T } | { ended: Pick<RestError, 'method' | 'path' | 'status' | 'body'> };

/** REST answers after which polling again cannot help: the watch ends with that error. */
const FINAL_STATUSES = new Set([401, 403, 404, 410]);

interface Subscriber<T> {
  aspect: Aspect<T>;
  /** The aspect as this subscriber last saw it; undefined until a first record came. */
  last: string | undefined;
}

/**
 * One record watched for one credential: fetched once per interval, whoever and however many are
 * subscribed, whatever aspect each watches; each subscriber is pushed the record when its aspect
 * changed. With several replicas, only the one holding the key's lease polls; the others receive
 * what it saw (`receive`) and push the same changes to their own subscribers.
 */
class RecordPoller<T> {
  private readonly subscribers = new Map<PushIterator<RecordEvent<T>>, Subscriber<T>>();
  private readonly session: RestSession;
  private readonly membership: PollerMembership;
  private timer: NodeJS.Timeout | undefined;
  /** The newest record seen (polled here or received), the baseline of subscribers who join later. */
  private latest: T | undefined;
  private stopped = false;
  /**
   * Settles with the first poll: the baseline, and the check that the caller may see the record.
   * It always runs here, with this subscriber's own credential, whichever replica polls later.
   */
  readonly ready: Promise<void>;

  constructor(
    restClient: RestClient,
    credential: Credential,
    key: string,
    private readonly watched: WatchedRecord<T>,
    private readonly intervalMs: number,
    coordination: PollerCoordination,
    phase: number,
    private readonly onIdle: () => void,
    private readonly quota: UpstreamQuota | undefined,
  ) {
    // The first poll is now (the baseline); the second comes at this poller's phase of the first
    // interval, never later than a whole interval, and the others an interval apart from there.
    const firstDelayMs = intervalMs * (1 - phase);
    this.session = new RestSession(restClient, credential);
    this.membership = coordination.join(watched.topic, key, (message) => this.receive(message as PollMessage<T>));
    this.ready = watched.fetch(this.session).then(
      (record) => {
        // What another replica published while this poll was on its way is as new or newer.
        if (this.latest === undefined) this.apply(record);
        this.membership.compete();
        this.schedule(firstDelayMs);
      },
      (error: unknown) => {
        if (error instanceof RestError && FINAL_STATUSES.has(error.status)) throw error;
        // No call left before GitLab's reset: the subscription is refused RATE_LIMITED with
        // `retryAfter`, rather than accepted before the caller was shown to see the record.
        if (error instanceof UpstreamQuotaSpent) throw error;
        // A passing fault (timeout, 5xx, a reused socket the upstream had closed) must not end
        // the watch before it starts: the next poll sets the baseline instead.
        this.membership.compete();
        this.schedule(firstDelayMs);
      },
    );
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Whether this replica polls the record now (rather than another replica for it). */
  get polling(): boolean {
    return !this.stopped && this.membership.polls;
  }

  subscribe(aspect: Aspect<T>): PushIterator<RecordEvent<T>> {
    const iterator = new PushIterator<RecordEvent<T>>(() => {
      this.subscribers.delete(iterator);
      if (this.subscribers.size === 0) void this.stop();
    });
    this.subscribers.set(iterator, { aspect, last: this.latest === undefined ? undefined : aspect(this.latest) });
    return iterator;
  }

  /** Ends the watch; resolves once another replica may take the key over. */
  stop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stopped = true;
    clearTimeout(this.timer);
    this.onIdle();
    for (const subscriber of [...this.subscribers.keys()]) subscriber.end();
    return this.membership.leave();
  }

  /** The next poll in `delayMs`, or past the interval when the credential's rate limit runs low. */
  private schedule(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    // Stretched only: a first poll at its phase of the interval keeps its phase while the quota is ample.
    const stretched = this.quota?.pollDelay(this.session.credential, this.intervalMs) ?? 0;
    if (stretched > this.intervalMs) delayMs = Math.max(delayMs, stretched);
    // A chain of timeouts rather than an interval: a slow REST answer never overlaps the next poll.
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private async tick(): Promise<void> {
    if (this.membership.polls) await this.poll();
    this.schedule();
  }

  private async poll(): Promise<void> {
    try {
      const record = await this.watched.fetch(this.session);
      // Every poll, not only changes: a replica that missed a message (a reconnect) catches up on the next.
      this.membership.publish({ record } satisfies PollMessage<T>);
      this.apply(record);
    } catch (error) {
      if (error instanceof RestError && FINAL_STATUSES.has(error.status)) {
        const { method, path, status, body } = error;
        this.membership.publish({ ended: { method, path, status, body } } satisfies PollMessage<T>);
        this.end(error);
      }
      // Timeouts, 5xx and 429 are passing: the next interval tries again.
    }
  }

  private receive(message: PollMessage<T>): void {
    if (this.stopped) return;
    if ('record' in message) this.apply(message.record);
    else if ('ended' in message) this.end(new RestError(message.ended));
  }

  /**
   * Pushes the record to each subscriber whose aspect differs from the one it last saw: one event
   * object for all of them, which lets subscriptions that are the same share one execution
   * (transport/shared-subscribe.ts).
   */
  private apply(record: T): void {
    this.latest = record;
    const event: RecordEvent<T> = { record };
    for (const [iterator, subscriber] of this.subscribers) {
      const current = subscriber.aspect(record);
      if (subscriber.last === undefined) {
        subscriber.last = current; // the baseline the first poll could not take
      } else if (current !== subscriber.last) {
        subscriber.last = current;
        iterator.push(event);
      }
    }
  }

  private end(error: RestError): void {
    const event: RecordEvent<T> = { error };
    for (const subscriber of this.subscribers.keys()) subscriber.push(event);
    void this.stop();
  }
}

/**
 * The registry of pollers for every subscription (runner status, issuable updates), keyed by
 * (topic, credential digest, record id). The key never holds the token itself, and two credentials
 * never share a poller, so one caller's access never serves another's subscription; subscriptions
 * of one credential to one record share a poller whatever aspect each watches. With several
 * replicas, the same key names the same watch on each.
 */
export class RecordPollers {
  private readonly pollers = new Map<string, RecordPoller<unknown>>();
  readonly credentialDigest: CredentialDigest;
  private readonly coordination: PollerCoordination;

  constructor(private readonly options: RecordPollersOptions) {
    this.credentialDigest = options.credentialDigest ?? randomCredentialDigest();
    this.coordination = options.coordination ?? localCoordination;
  }

  /** How many records are watched here now (one per credential and record). */
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
   * Subscribes to changes of one aspect of a record. Resolves once the caller is known to be
   * allowed to see the record; rejects with the REST error otherwise.
   */
  async watch<T>(credential: Credential, watched: WatchedRecord<T>, aspect: Aspect<T>): Promise<PushIterator<RecordEvent<T>>> {
    const key = `${this.credentialDigest(credential)}:${watched.id}`;
    const registryKey = `${watched.topic}:${key}`;
    // A topic always watches records of one type, so the poller under its key is a RecordPoller<T>.
    let poller = this.pollers.get(registryKey) as RecordPoller<T> | undefined;
    if (!poller) {
      const phase = (this.options.pollPhase ?? Math.random)();
      const created: RecordPoller<T> = new RecordPoller(this.options.restClient, credential, key, watched, this.options.intervalMs, this.coordination, phase, () => {
        if (this.pollers.get(registryKey) === created) this.pollers.delete(registryKey);
      }, this.options.upstreamQuota);
      this.pollers.set(registryKey, created as RecordPoller<unknown>);
      poller = created;
    }
    const iterator = poller.subscribe(aspect);
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

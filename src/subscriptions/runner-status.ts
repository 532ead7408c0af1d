import { createHash } from 'node:crypto';
import type { Credential } from '../datasources/credentials.js';
import { RestSession, type RestClient } from '../datasources/rest-client.js';
import { RestError } from '../datasources/rest-error.js';
import { RunnersApi, type RunnerSchema } from '../datasources/runners.js';
import { PushIterator } from './push-iterator.js';

/** What a subscriber receives: the runner after a change, or the error that ended the watch. */
export type RunnerStatusEvent = { runner: RunnerSchema } | { error: RestError };

export interface RunnerStatusPollersOptions {
  restClient: RestClient;
  /** Milliseconds between two polls of one runner. */
  intervalMs: number;
}

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
 * state changes.
 */
class RunnerPoller {
  private readonly subscribers = new Set<PushIterator<RunnerStatusEvent>>();
  private readonly api: RunnersApi;
  private timer: NodeJS.Timeout | undefined;
  private last: string | undefined;
  private stopped = false;
  /** Settles with the first poll: the baseline, and the check that the caller may see the runner. */
  readonly ready: Promise<void>;

  constructor(
    restClient: RestClient,
    credential: Credential,
    private readonly runnerId: number,
    private readonly intervalMs: number,
    private readonly onIdle: () => void,
  ) {
    this.api = new RunnersApi(new RestSession(restClient, credential));
    this.ready = this.api.show(runnerId).then(
      (runner) => {
        this.last = fingerprint(runner);
        this.schedule();
      },
      (error: unknown) => {
        if (error instanceof RestError && FINAL_STATUSES.has(error.status)) throw error;
        // A passing fault (timeout, 5xx, a reused socket the upstream had closed) must not end
        // the watch before it starts: the next poll sets the baseline instead.
        this.schedule();
      },
    );
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  subscribe(): PushIterator<RunnerStatusEvent> {
    const iterator = new PushIterator<RunnerStatusEvent>(() => {
      this.subscribers.delete(iterator);
      if (this.subscribers.size === 0) this.stop();
    });
    this.subscribers.add(iterator);
    return iterator;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.onIdle();
    for (const subscriber of [...this.subscribers]) subscriber.end();
  }

  private schedule(): void {
    if (this.stopped) return;
    // A chain of timeouts rather than an interval: a slow REST answer never overlaps the next poll.
    this.timer = setTimeout(() => void this.poll(), this.intervalMs);
  }

  private async poll(): Promise<void> {
    try {
      const runner = await this.api.show(this.runnerId);
      const current = fingerprint(runner);
      if (this.last === undefined) {
        this.last = current; // the baseline the first poll could not take
      } else if (current !== this.last) {
        this.last = current;
        for (const subscriber of this.subscribers) subscriber.push({ runner });
      }
    } catch (error) {
      if (error instanceof RestError && FINAL_STATUSES.has(error.status)) {
        for (const subscriber of this.subscribers) subscriber.push({ error });
        this.stop();
        return;
      }
      // Timeouts, 5xx and 429 are passing: the next interval tries again.
    }
    this.schedule();
  }
}

/**
 * The registry of runner pollers, keyed by (credential hash, runner id). The key never holds the
 * token itself, and two credentials never share a poller, so one caller's access never serves
 * another's subscription.
 */
export class RunnerStatusPollers {
  private readonly pollers = new Map<string, RunnerPoller>();

  constructor(private readonly options: RunnerStatusPollersOptions) {}

  /** How many runners are being polled now. */
  get activePollers(): number {
    return this.pollers.size;
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
    const key = `${credentialHash(credential)}:${runnerId}`;
    let poller = this.pollers.get(key);
    if (!poller) {
      const created = new RunnerPoller(this.options.restClient, credential, runnerId, this.options.intervalMs, () => {
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
      poller.stop();
      throw error;
    }
    return iterator;
  }

  /** Stops every poller and ends every subscription (server shutdown). */
  close(): void {
    for (const poller of [...this.pollers.values()]) poller.stop();
  }
}

function credentialHash(credential: Credential): string {
  return createHash('sha256').update(`${credential.kind}\0${credential.value}`).digest('base64url');
}

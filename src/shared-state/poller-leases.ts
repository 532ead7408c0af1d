import type { PollerCoordination, PollerMembership } from '../subscriptions/poller-coordination.js';
import type { RedisLink } from './redis-link.js';

/**
 * Takes the lease when nobody holds it, extends it when this replica does: one round trip per
 * renewal, and atomic, so two replicas never both believe they took a free lease.
 */
const CLAIM = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

/** Deletes the lease only if this replica still holds it (it may have expired and been taken). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

type Envelope = { from: string; message: unknown } | { from: string; released: true };

/**
 * One poller per watched key across every replica, through Redis. Each replica with subscribers
 * for a key competes for its lease (`<topic>-lease:<key>`, such as `runner-lease:<key>` or
 * `issue-lease:<key>`, valued with the replica's id) every half poll interval; the holder polls and
 * publishes every poll on `<topic>:<key>`, the others only listen. The lease lives 1.5 intervals: a renewal may be late once or twice without the lease
 * changing hands, and a holder that dies without releasing (SIGKILL) is replaced within two
 * intervals. One that leaves releases the lease and says so, so another takes over at once.
 *
 * While Redis cannot be reached, every replica polls the keys it watches itself (degraded but
 * working); when Redis returns, the next claims elect one holder per key again.
 */
export class RedisPollerCoordination implements PollerCoordination {
  constructor(
    private readonly link: RedisLink,
    private readonly intervalMs: number,
  ) {}

  join(topic: string, key: string, receive: (message: unknown) => void): PollerMembership {
    return new LeaseMembership(this.link, topic, key, this.intervalMs, receive);
  }
}

class LeaseMembership implements PollerMembership {
  private role: 'holder' | 'follower' | 'alone' = 'alone';
  private readonly leaseKey: string;
  private readonly channel: string;
  private readonly claimEveryMs: number;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private readonly subscribed: Promise<void>;
  private readonly listener = (raw: string) => this.onEnvelope(raw);
  private competing = false;
  private left = false;

  constructor(
    private readonly link: RedisLink,
    topic: string,
    key: string,
    intervalMs: number,
    private readonly receive: (message: unknown) => void,
  ) {
    this.leaseKey = link.key(`${topic}-lease`, key);
    this.channel = link.key(topic, key);
    this.claimEveryMs = Math.max(1, Math.floor(intervalMs / 2));
    this.leaseMs = this.claimEveryMs * 3;
    // Listening from the start: what the holder publishes during the first poll is as new as it.
    this.subscribed = link.subscribe(this.channel, this.listener);
  }

  compete(): void {
    this.competing = true;
    void this.subscribed.then(() => this.claim());
  }

  get polls(): boolean {
    return this.role !== 'follower' || !this.link.isUp;
  }

  publish(message: unknown): void {
    if (this.role === 'holder') this.link.publish(this.channel, JSON.stringify({ from: this.link.replicaId, message } satisfies Envelope));
  }

  async leave(): Promise<void> {
    this.left = true;
    clearTimeout(this.timer);
    await this.claiming;
    await this.link.unsubscribe(this.channel, this.listener);
    if (this.role !== 'holder' || !this.link.isUp) return;
    try {
      await this.link.client.eval(RELEASE, 1, this.leaseKey, this.link.replicaId);
      this.link.publish(this.channel, JSON.stringify({ from: this.link.replicaId, released: true } satisfies Envelope));
    } catch {
      // The lease expires by itself.
    }
  }

  private claim(): Promise<void> {
    if (this.left) return Promise.resolve();
    // A claim already on its way answers for this one too.
    this.claiming ??= this.tryClaim().finally(() => {
      this.claiming = undefined;
      clearTimeout(this.timer);
      if (!this.left) this.timer = setTimeout(() => void this.claim(), this.claimEveryMs);
    });
    return this.claiming;
  }

  private async tryClaim(): Promise<void> {
    if (!this.link.isUp) {
      this.role = 'alone';
      return;
    }
    try {
      const held = await this.link.client.eval(CLAIM, 1, this.leaseKey, this.link.replicaId, this.leaseMs);
      this.role = held === 1 ? 'holder' : 'follower';
    } catch {
      this.role = 'alone'; // a slow or lost Redis: poll here rather than leave subscribers unserved
    }
  }

  private onEnvelope(raw: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === this.link.replicaId) return;
    if ('released' in envelope) {
      if (this.competing) void this.claim();
    } else this.receive(envelope.message);
  }
}

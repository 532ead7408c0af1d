import { randomUUID } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import type { GatewayLogger } from '../observability/logger.js';

export interface RedisLinkOptions {
  /** `redis://[:password@]host:port[/db]` or `rediss://` for TLS. */
  url: string;
  /** Put before every key and channel name, so that deployments can share one Redis. */
  keyPrefix: string;
  /** Longest wait for one Redis command; past it the caller falls back to memory (default 1000 ms). */
  commandTimeoutMs?: number;
  logger: GatewayLogger;
}

type HealthListener = (up: boolean) => void;

/**
 * The replica's two connections to Redis: one for commands, one for pub/sub (a subscribed RESP2
 * connection can run nothing else). `ioredis` is imported on `connect()` only, so a gateway without
 * REDIS_URL never loads it.
 *
 * Redis trouble must never stop the gateway: commands fail fast while the link is down (no offline
 * queue: a request must not wait for a Redis that may never return), the clients reconnect forever
 * in the background, and `isUp` tells every user of the link whether to use Redis or fall back to
 * its own memory. A change of health is logged once (warn when lost) and told to listeners.
 */
export class RedisLink {
  /** Names this replica in leases; random per process, so a restarted replica is a new holder. */
  readonly replicaId = randomUUID();
  private commands: Redis | undefined;
  private subscriber: Redis | undefined;
  /** Channels with a listener of this process's; resubscribed whenever the subscriber reconnects. */
  private readonly channels = new Map<string, (message: string) => void>();
  private subscriberReady = false;
  private up = false;
  private closed = false;
  private readonly listeners = new Set<HealthListener>();
  private lastError: string | undefined;

  constructor(private readonly options: RedisLinkOptions) {}

  get isUp(): boolean {
    return this.up;
  }

  /** `prefix` + the parts joined by `:`. */
  key(...parts: Array<string | number>): string {
    return `${this.options.keyPrefix}${parts.join(':')}`;
  }

  /** Calls `listener` with every change of health (true: Redis usable again). */
  onHealthChange(listener: HealthListener): void {
    this.listeners.add(listener);
  }

  /**
   * Loads the client and connects. Resolves once Redis is usable, or once the first attempt has
   * failed: a gateway starts without Redis (degraded) and the link keeps trying.
   */
  async connect(): Promise<void> {
    const { Redis } = await import('ioredis');
    const timeoutMs = this.options.commandTimeoutMs ?? 1_000;
    const clientOptions: RedisOptions = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeoutMs,
      connectTimeout: Math.max(timeoutMs, 1_000),
      // Never give up; retry soon after a restart, then at most every second.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
      // This link resubscribes itself (see onSubscriberReady), so that a channel joined while
      // Redis was down is subscribed too, and so that health turns up only once it is listening.
      autoResubscribe: false,
    };
    this.commands = new Redis(this.options.url, clientOptions);
    this.subscriber = new Redis(this.options.url, clientOptions);
    for (const client of [this.commands, this.subscriber]) {
      client.on('error', (error: Error) => {
        this.lastError = error.message;
      });
      client.on('close', () => this.refreshHealth());
      client.on('end', () => this.refreshHealth());
    }
    this.commands.on('ready', () => this.refreshHealth());
    this.subscriber.on('ready', () => void this.onSubscriberReady());
    this.subscriber.on('message', (channel: string, message: string) => this.channels.get(channel)?.(message));
    this.subscriber.on('close', () => {
      this.subscriberReady = false;
      this.refreshHealth();
    });
    // A failed first attempt is no error of the gateway's: it starts degraded, ioredis retries.
    await Promise.allSettled([this.commands.connect(), this.subscriber.connect()]);
    if (!this.up) this.refreshHealth(true);
  }

  /** The command connection, for a caller that has checked `isUp` and falls back on any error. */
  get client(): Redis {
    if (!this.commands || !this.up) throw new Error('Redis is not connected');
    return this.commands;
  }

  /** Delivers the messages of `channel` to `listener` (the channel's only one) until `unsubscribe`. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    this.channels.set(channel, listener);
    if (this.subscriber && this.subscriberReady) await this.subscriber.subscribe(channel).catch(() => undefined);
  }

  /**
   * Stops delivering `channel` to `listener`. Only the listener that holds the channel: a poller
   * that stopped may leave after a new one for the same key has taken the channel over (its last
   * subscriber gone, then a new one at once), and must not leave the new one deaf.
   */
  async unsubscribe(channel: string, listener: (message: string) => void): Promise<void> {
    if (this.channels.get(channel) !== listener) return;
    this.channels.delete(channel);
    if (this.subscriber && this.subscriberReady) await this.subscriber.unsubscribe(channel).catch(() => undefined);
  }

  /** Publishes when the link is up; a message lost to an outage is made good by the next one. */
  publish(channel: string, message: string): void {
    if (!this.up || !this.commands) return;
    this.commands.publish(channel, message).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await Promise.allSettled([this.commands?.quit(), this.subscriber?.quit()]);
    this.commands?.disconnect();
    this.subscriber?.disconnect();
  }

  /**
   * Subscribes every channel with a listener, then lets `subscribe` and `unsubscribe` go straight
   * to Redis. A channel joined or left while a SUBSCRIBE was on its way was only noted in
   * `channels`, so the rounds go on until Redis has what `channels` holds.
   */
  private async onSubscriberReady(): Promise<void> {
    const subscriber = this.subscriber!;
    const subscribed = new Set<string>();
    try {
      for (;;) {
        const joined = [...this.channels.keys()].filter((channel) => !subscribed.has(channel));
        const left = [...subscribed].filter((channel) => !this.channels.has(channel));
        if (joined.length === 0 && left.length === 0) break;
        if (joined.length > 0) await subscriber.subscribe(...joined);
        for (const channel of joined) subscribed.add(channel);
        if (left.length > 0) await subscriber.unsubscribe(...left);
        for (const channel of left) subscribed.delete(channel);
      }
      this.subscriberReady = true;
    } catch {
      // The connection dropped again; its next 'ready' tries again.
    }
    this.refreshHealth();
  }

  private refreshHealth(announceDown = false): void {
    if (this.closed) return;
    const up = this.commands?.status === 'ready' && this.subscriber?.status === 'ready' && this.subscriberReady;
    if (up === this.up && !announceDown) return;
    this.up = up;
    const where = redisAddress(this.options.url);
    if (up) {
      // The replica's id is what its runner leases hold: the line tells operators who polls what.
      this.options.logger.info?.({ redis: where, replica: this.replicaId }, 'redis connected: runner leases, persisted queries and the response cache are shared');
    } else {
      this.options.logger.warn?.(
        { redis: where, reason: this.lastError ?? 'connection closed' },
        'redis unreachable: degraded to local polling and in-memory stores until it returns',
      );
    }
    for (const listener of this.listeners) listener(up);
  }
}

/** host:port of a Redis URL, for log lines: never its password. */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'redis';
  }
}

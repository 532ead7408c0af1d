import { randomUUID } from 'node:crypto';
import type { Command, Redis, RedisOptions } from 'ioredis';
import type { GatewayLogger } from '../observability/logger.js';

export interface RedisLinkOptions {
  /** `redis://[:password@]host:port[/db]` or `rediss://` for TLS. */
  url: string;
  /** Put before every key and channel name, so that deployments can share one Redis. */
  keyPrefix: string;
  /**
   * Longest wait for one Redis command; past it the caller falls back to memory and the link holds
   * Redis as not answering until it answers again. Also how often the link PINGs Redis (default 1000 ms).
   */
  commandTimeoutMs?: number;
  logger: GatewayLogger;
}

const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;

type HealthListener = (up: boolean) => void;

/**
 * `connected`: Redis is used. `unreachable`: a connection is down or connecting. `not answering`:
 * the connections are open but a command got no answer in time (a frozen or overloaded Redis, a
 * route that drops packets): TCP says nothing of it, so ioredis still calls itself ready.
 */
export type RedisHealth = 'connected' | 'unreachable' | 'not answering';

/**
 * The replica's two connections to Redis: one for commands, one for pub/sub (a subscribed RESP2
 * connection can run nothing else). `ioredis` is imported on `connect()` only, so a gateway without
 * REDIS_URL never loads it.
 *
 * Redis trouble must never stop the gateway: commands fail fast while the link is down (no offline
 * queue: a request must not wait for a Redis that may never return), the clients reconnect forever
 * in the background, and `isUp` tells every user of the link whether to use Redis or fall back to
 * its own memory. A Redis that keeps its connections open but stops answering (frozen, say) is
 * down too, from the first command that times out or heartbeat PING left unanswered until it
 * answers again: queries use memory at once meanwhile instead of each waiting the command timeout.
 * A change of health is logged once (warn when lost) and told to listeners.
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
  private readonly timeoutMs: number;
  /** False from a command that timed out on an open connection until Redis answers anything again. */
  private answering = true;
  /** A heartbeat PING went out and Redis has answered nothing since: no second one piles up behind it. */
  private probeOwed = false;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly options: RedisLinkOptions) {
    this.timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  }

  /** Redis is used; false while it is unreachable or not answering (every user falls back then). */
  get isUp(): boolean {
    return this.up;
  }

  get health(): RedisHealth {
    if (this.up) return 'connected';
    return this.answering ? 'unreachable' : 'not answering';
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
    const timeoutMs = this.timeoutMs;
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
    watchAnswers(this.commands, () => this.heard(), () => this.silent());
    this.commands.on('ready', () => this.refreshHealth());
    // A new connection owes no answer of the old one's, and its ready check (INFO) was answered.
    this.commands.on('close', () => {
      this.probeOwed = false;
      this.answering = true;
    });
    this.subscriber.on('ready', () => void this.onSubscriberReady());
    this.subscriber.on('message', (channel: string, message: string) => this.channels.get(channel)?.(message));
    this.subscriber.on('close', () => {
      this.subscriberReady = false;
      this.refreshHealth();
    });
    // A failed first attempt is no error of the gateway's: it starts degraded, ioredis retries.
    await Promise.allSettled([this.commands.connect(), this.subscriber.connect()]);
    if (!this.up) this.refreshHealth(true);
    // An idle replica learns of a frozen Redis too, and one held not answering learns it answers again.
    this.heartbeat = setInterval(() => this.probe(), timeoutMs);
    this.heartbeat.unref();
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
    clearInterval(this.heartbeat);
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

  /**
   * PINGs Redis on the command connection, unless an earlier PING is still owed: a frozen Redis
   * answers none, and each would wait in ioredis's queue and the socket until it thaws.
   */
  private probe(): void {
    const commands = this.commands;
    if (this.probeOwed || commands?.status !== 'ready') return;
    this.probeOwed = true;
    commands.ping().catch(() => undefined); // a timeout is told to `silent`
  }

  /** Redis answered a command (a late answer to one that timed out counts: it answers again). */
  private heard(): void {
    this.probeOwed = false;
    if (this.answering) return;
    this.answering = true;
    // Not from inside ioredis's reply parser: health listeners send commands of their own.
    queueMicrotask(() => this.refreshHealth());
  }

  /** A command got no answer in time on an open connection: stop sending until Redis answers. */
  private silent(): void {
    if (!this.answering) return;
    this.answering = false;
    this.lastError = `no answer within ${this.timeoutMs} ms`;
    queueMicrotask(() => this.refreshHealth());
  }

  private refreshHealth(announceDown = false): void {
    if (this.closed) return;
    const up = this.commands?.status === 'ready' && this.subscriber?.status === 'ready' && this.subscriberReady && this.answering;
    if (up === this.up && !announceDown) return;
    this.up = up;
    const where = redisAddress(this.options.url);
    if (up) {
      // The replica's id is what its runner leases hold: the line tells operators who polls what.
      this.options.logger.info?.({ redis: where, replica: this.replicaId }, 'redis connected: runner leases, persisted queries and the response cache are shared');
    } else if (!this.answering) {
      this.options.logger.warn?.(
        { redis: where, reason: this.lastError },
        'redis not answering: degraded to local polling and in-memory stores until it answers a PING',
      );
    } else {
      this.options.logger.warn?.(
        { redis: where, reason: this.lastError ?? 'connection closed' },
        'redis unreachable: degraded to local polling and in-memory stores until it returns',
      );
    }
    for (const listener of this.listeners) listener(up);
  }
}

/** What ioredis rejects a command with when `commandTimeout` passes without an answer. */
const TIMED_OUT = 'Command timed out';

/**
 * Tells `heard` of every answer Redis gives on `client`, late ones included, and `silent` of every
 * command left unanswered past the command timeout. ioredis reports neither as an event, and no
 * connection event fires for a Redis that stops answering with its connections open. Every command,
 * pipelines' included, goes through `sendCommand`.
 */
function watchAnswers(client: Redis, heard: () => void, silent: () => void): void {
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command: Command, ...rest: unknown[]) => {
    const { resolve, reject } = command;
    command.resolve = (result: unknown) => {
      heard();
      resolve(result);
    };
    command.reject = (error: Error) => {
      if (error.message === TIMED_OUT) silent();
      else if (error.name === 'ReplyError') heard(); // an error reply is an answer too
      reject(error);
    };
    return Reflect.apply(send, undefined, [command, ...rest]) as unknown;
  };
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

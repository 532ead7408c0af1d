// The replica's link to a real redis-server. Its pub/sub: what a poller that follows another
// replica's polls hears. A follower that stops hearing its channel leaves its subscribers without
// changes for as long as it lives, so the two ways a channel could be lost are tested here. Its
// health: a Redis frozen with its connections open must count as down, not as connected.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisLink } from '../../src/shared-state/redis-link.js';
import { eventually, until } from '../support/wait.js';
import { startRedis, type TestRedis } from './support/redis-server.js';

const quiet = { error: () => {} };

describe('the Redis link’s channels', () => {
  let redis: TestRedis;
  const links: RedisLink[] = [];
  let prefixes = 0;
  const connectedLink = async () => {
    const link = new RedisLink({ url: redis.url, keyPrefix: `link-test-${++prefixes}:`, logger: quiet });
    links.push(link);
    await link.connect();
    await until(() => link.isUp);
    return link;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(links.map((link) => link.close()));
    await redis?.close();
  });

  /** Publishes on `channel` until `heard` has something: a message published before the SUBSCRIBE landed is lost, as in Redis. */
  const publishUntilHeard = (channel: string, heard: string[]) =>
    eventually(
      async () => {
        await redis.client.publish(channel, 'change');
        return heard.length > 0;
      },
      5_000,
      `a message on ${channel}`,
    );

  it('keeps a channel for the listener that took it over when the one before it leaves', async () => {
    const link = await connectedLink();
    const channel = link.key('runner', 'k1');
    const stopped: string[] = [];
    const started: string[] = [];
    const stoppedListener = (message: string) => stopped.push(message);
    // A poller whose last subscriber left, and the new poller for the same key, subscribed before the first has left.
    await link.subscribe(channel, stoppedListener);
    await link.subscribe(channel, (message) => started.push(message));
    await link.unsubscribe(channel, stoppedListener);

    await publishUntilHeard(channel, started);
    expect(started[0]).toBe('change');
    expect(stopped).toEqual([]);
  });

  it('subscribes a channel joined while it was resubscribing after Redis came back', async () => {
    const link = await connectedLink();
    const before = link.key('runner', 'before');
    const late = link.key('runner', 'late');
    const heardBefore: string[] = [];
    const heardLate: string[] = [];
    await link.subscribe(before, (message) => heardBefore.push(message));

    // The moment the race needs: the link's own 'ready' listener, registered first, has sent its
    // SUBSCRIBE for the channels it knew and awaits the answer when this one joins another.
    const subscriber = (link as unknown as { subscriber: Redis }).subscriber;
    let joined = false;
    subscriber.on('ready', () => {
      if (joined) return;
      joined = true;
      void link.subscribe(late, (message) => heardLate.push(message));
    });
    await redis.stop();
    await until(() => !link.isUp);
    await redis.start();
    await until(() => link.isUp, 15_000);
    expect(joined).toBe(true);

    await publishUntilHeard(before, heardBefore);
    await publishUntilHeard(late, heardLate);
    expect(heardLate[0]).toBe('change');
  });
});

describe('the Redis link over a Redis that stops answering with its connections open', () => {
  const PROBE_MS = 200;
  let redis: TestRedis;
  let link: RedisLink | undefined;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    redis.thaw();
    await link?.close();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('is down from an unanswered heartbeat, owes one PING however long the freeze, and is used again once Redis answers', async () => {
    link = new RedisLink({ url: redis.url, keyPrefix: 'frozen-link:', commandTimeoutMs: PROBE_MS, logger: quiet });
    await link.connect();
    await until(() => link!.isUp);
    const changes: boolean[] = [];
    link.onHealthChange((up) => changes.push(up));
    const pingsBefore = (await redis.commandCalls()).get('ping') ?? 0;

    redis.freeze();
    // Nothing is asked of the link: its heartbeat alone finds out. ioredis still calls it ready.
    await until(() => !link!.isUp);
    expect(link.health).toBe('not answering');
    expect(() => link!.client).toThrow('Redis is not connected');
    expect((link as unknown as { commands: Redis }).commands.status).toBe('ready');
    // Fifteen heartbeats go by frozen; each one that sent a PING would leave it queued until the thaw.
    await new Promise((resolve) => setTimeout(resolve, 15 * PROBE_MS));
    expect(link.isUp).toBe(false);

    redis.thaw();
    await until(() => link!.isUp);
    expect(link.health).toBe('connected');
    expect(changes).toEqual([false, true]);
    expect(await link.client.set(link.key('after'), 'thawed')).toBe('OK');
    await link.close(); // no heartbeat past this point
    // At most one before the freeze, the one owed through it, and two between the thaw and the close.
    const pings = ((await redis.commandCalls()).get('ping') ?? 0) - pingsBefore;
    expect(pings).toBeGreaterThanOrEqual(1);
    expect(pings).toBeLessThanOrEqual(4);
  });

  it('is down as soon as a command times out, not at the next heartbeat', async () => {
    link = new RedisLink({ url: redis.url, keyPrefix: 'frozen-command:', commandTimeoutMs: PROBE_MS, logger: quiet });
    await link.connect();
    await until(() => link!.isUp);
    redis.freeze();
    // A heartbeat PING sent after this GET times out after it: what turns the link down here is the GET.
    await expect(link.client.get(link.key('any'))).rejects.toThrow('Command timed out');
    expect(link.isUp).toBe(false);
    expect(link.health).toBe('not answering');
    redis.thaw();
    await until(() => link!.isUp);
  });
});

// The replica's pub/sub link to a real redis-server: what a poller that follows another replica's
// polls hears. A follower that stops hearing its channel leaves its subscribers without changes for
// as long as it lives, so the two ways a channel could be lost are tested here.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

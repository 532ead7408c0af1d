// Issue 27, item 2: a flood of `subscribe` messages on one WebSocket. Any signed-in caller (the
// guest token will do) sent 20,000 of them, with distinct ids, for `{ __typename }` (1.4 MB): the
// gateway counted every operation of the connection for every message (quadratic), and /healthz
// waited 10-23 s. Now each message costs the same however many came before, and a client that
// sends faster than its rate is closed with 1008. A stall shows as a probe that is not answered
// while the flood runs; the bound on the probe is generous (the flood took 10 s or more before).
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { TOO_MANY_MESSAGES_CLOSE_CODE } from '../../src/transport/gateway-websocket.js';
import { gatewayOverSimulator, type Harness } from '../support/harness.js';
import { BYSTANDER_QUERY } from './hostile-support.js';

const FLOOD = 20_000;
const PROBE_BOUND_MS = 5_000;

interface FloodOutcome {
  /** Answers per type: `next`, `error`, `complete`. */
  answers: Map<string, number>;
  closeCode: number | undefined;
}

/** Opens a connection as the guest, sends `count` subscribes for `{ __typename }` at once, and collects what comes back until the socket closes or settles. */
async function flood(harness: Harness, count: number, settledWhen: (outcome: FloodOutcome) => boolean): Promise<FloodOutcome> {
  const socket = new WebSocket(harness.gateway.wsUrl, 'graphql-transport-ws');
  const outcome: FloodOutcome = { answers: new Map(), closeCode: undefined };
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { 'PRIVATE-TOKEN': DEMO_TOKENS.guest } }));
  return new Promise<FloodOutcome>((resolve) => {
    const done = () => {
      socket.terminate();
      resolve(outcome);
    };
    socket.on('close', (code) => {
      outcome.closeCode = code;
      resolve(outcome);
    });
    socket.on('error', () => undefined);
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString()) as { type: string };
      if (message.type === 'connection_ack') {
        const batch = Array.from({ length: count }, (_, index) => JSON.stringify({ id: `op${index}`, type: 'subscribe', payload: { query: '{ __typename }' } }));
        for (const text of batch) socket.send(text);
        return;
      }
      outcome.answers.set(message.type, (outcome.answers.get(message.type) ?? 0) + 1);
      if (settledWhen(outcome)) done();
    });
  });
}

/** /healthz and a signed-in query, each answered within the generous bound while `attack` runs. */
async function withProbes<T>(harness: Harness, attack: Promise<T>): Promise<T> {
  // Let the flood reach the gateway before probing it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const health = await fetch(new URL('/healthz', harness.gateway.url), { signal: AbortSignal.timeout(PROBE_BOUND_MS) });
  expect(health.status).toBe(200);
  const bystander = await fetch(harness.gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'private-token': DEMO_TOKENS.maintainer },
    body: JSON.stringify({ query: BYSTANDER_QUERY }),
    signal: AbortSignal.timeout(PROBE_BOUND_MS),
  });
  expect(await bystander.json()).toEqual({ data: { currentUser: { username: 'maintainer' } } });
  return attack;
}

describe('a flood of subscribe messages on one connection, at the shipped rate', () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 60_000 });

  it('is closed with 1008 after its burst, having run at most the burst, and others are answered meanwhile', async () => {
    const outcome = await withProbes(harness, flood(harness, FLOOD, () => false));
    expect(outcome.closeCode).toBe(TOO_MANY_MESSAGES_CLOSE_CODE);
    // The burst is one second of messages (100) plus twice the 100 operations a connection may
    // hold; connection_init took one. Every subscribe past it was dropped unread, and what the
    // burst's operations answered is cut off by the close that follows them in the same turn.
    const answered = (outcome.answers.get('complete') ?? 0) + (outcome.answers.get('error') ?? 0);
    expect(answered).toBeLessThanOrEqual(299);
  });

  it('closes a flood of pings the same way: each would have been answered with a pong', async () => {
    const socket = new WebSocket(harness.gateway.wsUrl, 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    let pongs = 0;
    socket.on('message', (data) => {
      if ((JSON.parse((data as Buffer).toString()) as { type: string }).type === 'pong') pongs += 1;
    });
    const closed = new Promise<number>((resolve) => socket.on('close', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { 'PRIVATE-TOKEN': DEMO_TOKENS.guest } }));
    const ping = JSON.stringify({ type: 'ping' });
    for (let index = 0; index < FLOOD; index++) socket.send(ping);
    expect(await withProbes(harness, closed)).toBe(TOO_MANY_MESSAGES_CLOSE_CODE);
    expect(pongs).toBeLessThanOrEqual(299);
  });

  it('leaves an honest page alone: the 100 operations a connection may hold, sent at once, all answered', async () => {
    const outcome = await flood(harness, 100, (seen) => (seen.answers.get('complete') ?? 0) === 100);
    expect(outcome.answers.get('next')).toBe(100);
    expect(outcome.answers.get('complete')).toBe(100);
    expect(outcome.answers.get('error')).toBeUndefined();
    expect(outcome.closeCode).toBeUndefined();
  });
});

describe('a flood of subscribe messages with the rate limit lifted', () => {
  // No rate to save it: what is left is the cost of each message, which must not grow with the
  // messages before it.
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 60_000, maxWebSocketMessagesPerSecond: 1_000_000 });

  it('answers every message, each operation past the cap refused with LIMIT_EXCEEDED, and others meanwhile', async () => {
    const outcome = await withProbes(
      harness,
      flood(harness, FLOOD, (seen) => (seen.answers.get('complete') ?? 0) + (seen.answers.get('error') ?? 0) === FLOOD),
    );
    expect(outcome.closeCode).toBeUndefined();
    expect((outcome.answers.get('complete') ?? 0) + (outcome.answers.get('error') ?? 0)).toBe(FLOOD);
    // At most 100 at once: the burst arrives before the first of them completes, so most are refused.
    expect(outcome.answers.get('error')).toBeGreaterThan(0);
  });
});

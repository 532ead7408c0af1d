// Hostile WebSocket messages (issue 15, an adversarial suite): what a client of
// graphql-transport-ws may send out of turn or malformed. Each is answered with a close code of
// the protocol's 44xx (or 1009 for size) or an error message with a code, never a 45xx, and other
// connections and HTTP callers keep being answered.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { attackerCalls, withBystander } from './hostile-support.js';

const admin = DEMO_TOKENS.admin;
const INIT = { type: 'connection_init', payload: { 'PRIVATE-TOKEN': admin } };
const subscribe = (id: string, query: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'subscribe',
  payload: { query, ...extra },
});
const WATCH = (runner: number) => `subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/${runner}") { status } }`;

interface Session {
  messages: Array<Record<string, unknown>>;
  closeCode: number | undefined;
}

describe('hostile WebSocket messages', () => {
  const harness = gatewayOverSimulator({
    maxSubscriptionsPerConnection: 3,
    connectionInitWaitTimeoutMs: 300,
    runnerPollIntervalMs: 60_000,
  });

  /**
   * Opens a connection, sends each message (after `connection_init`, once its ack came), and
   * collects what the server sends until it closes the socket or `until` is satisfied.
   */
  async function session(
    messages: Array<string | object>,
    until: (seen: Session) => boolean = () => false,
    waitMs = 1_500,
  ): Promise<Session> {
    const socket = new WebSocket(harness.gateway.wsUrl, 'graphql-transport-ws');
    const seen: Session = { messages: [], closeCode: undefined };
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    socket.on('message', (data) => {
      seen.messages.push(JSON.parse((data as Buffer).toString()) as Record<string, unknown>);
      if (until(seen)) settle();
    });
    socket.on('close', (code) => {
      seen.closeCode = code;
      settle();
    });
    socket.on('error', () => settle());
    await new Promise((resolve) => socket.once('open', resolve));
    for (const message of messages) {
      if (socket.readyState !== WebSocket.OPEN) break;
      socket.send(typeof message === 'string' ? message : JSON.stringify(message));
      if (message === INIT) {
        await new Promise<void>((resolve) => {
          const check = () =>
            seen.messages.some((m) => m['type'] === 'connection_ack') || seen.closeCode !== undefined ? resolve() : setTimeout(check, 5);
          check();
        });
      }
    }
    const timer = setTimeout(settle, waitMs);
    await settled;
    clearTimeout(timer);
    socket.terminate();
    return seen;
  }
  const closedWith = (code: number) => (seen: Session) => seen.closeCode === code;
  /** The first error message's payload, once one came. */
  const errorPayload = (seen: Session) => seen.messages.find((message) => message['type'] === 'error')?.['payload'];
  const sawError = (seen: Session) => errorPayload(seen) !== undefined;

  // graphql-ws and ws print what they take for internal errors to stderr, stack and all: a client
  // that could cause one at will could flood the log.
  let stderr: MockInstance<typeof console.error>;
  beforeEach(() => {
    stderr = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    const printed = stderr.mock.calls.map((call) => String(call[0]));
    stderr.mockRestore();
    expect(printed).toEqual([]);
  });

  it.each<[string, Array<string | object>, number]>([
    ['a message that is not JSON', ['{'], 4400],
    ['a message that is not JSON, after the ack', [INIT, '{'], 4400],
    ['an unknown message type', [INIT, { type: 'bogus' }], 4400],
    ['an unknown message type before connection_init', [{ type: 'bogus' }], 4400],
    ['bytes that are not UTF-8 JSON', [INIT, '\u00ff\u00fe'], 4400],
    ['a connection_init payload that is a string', [{ type: 'connection_init', payload: 'token' }], 4400],
    ['a connection_init payload that is a list', [{ type: 'connection_init', payload: [admin] }], 4400],
    ['a subscribe with a numeric id', [INIT, { id: 5, type: 'subscribe', payload: { query: '{ __typename }' } }], 4400],
    ['a subscribe with a null payload', [INIT, { id: '1', type: 'subscribe', payload: null }], 4400],
    ['a subscribe whose query is a number', [INIT, { id: '1', type: 'subscribe', payload: { query: 5 } }], 4400],
    ['a subscribe whose variables are a list', [INIT, subscribe('1', '{ __typename }', { variables: [1] })], 4400],
    ['a subscribe before connection_init', [subscribe('1', '{ __typename }')], 4401],
    // Messages only a server sends (were 4500 "Unexpected message of type next received").
    ['a next', [INIT, { id: '1', type: 'next', payload: {} }], 4400],
    ['an error', [INIT, { id: '1', type: 'error', payload: [] }], 4400],
    ['a connection_ack', [INIT, { type: 'connection_ack' }], 4400],
    ['a next before connection_init', [{ id: '1', type: 'next', payload: {} }], 4400],
    ['a second connection_init', [INIT, INIT], 4429],
    ['a subscribe reusing a running operation id', [INIT, subscribe('1', WATCH(1)), subscribe('1', WATCH(2))], 4409],
    ['a message past the size cap', [INIT, subscribe('1', 'x'.repeat(200_000))], 1009],
    ['a token REST refuses', [{ type: 'connection_init', payload: { 'PRIVATE-TOKEN': 'glpat-not-a-token' } }], 4403],
    ['a token that is a number', [{ type: 'connection_init', payload: { 'PRIVATE-TOKEN': 12345 } }], 4403],
    ['a token hidden under __proto__', [`{"type":"connection_init","payload":{"__proto__":{"PRIVATE-TOKEN":"${admin}"}}}`], 4403],
    ['no connection_init at all', [], 4408],
  ])('closes a connection that sends %s with its protocol code, while HTTP callers are answered', async (_case, messages, code) => {
    const seen = await withBystander(harness, () => session(messages, closedWith(code)));
    expect(seen.closeCode).toBe(code);
    expect(seen.messages.filter((message) => message['type'] !== 'connection_ack')).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('PRIVATE-TOKEN');
  });

  it('holds a connection to its operation limit with LIMIT_EXCEEDED, and the connection stays usable', async () => {
    const ids = ['1', '2', '3', '4', '5'];
    const seen = await session(
      [INIT, ...ids.slice(0, 4).map((id, index) => subscribe(id, WATCH(index + 1))), subscribe('5', '{ __typename }')],
      (s) => s.messages.filter((m) => m['type'] === 'error').length === 2,
    );
    const errors = seen.messages.filter((message) => message['type'] === 'error');
    expect(errors.map((message) => message['id'])).toEqual(['4', '5']);
    for (const error of errors)
      expect(error['payload']).toMatchObject([{ extensions: { code: 'LIMIT_EXCEEDED', limit: 'subscriptions' } }]);
    expect(seen.closeCode).toBeUndefined();
  });

  it('ignores a complete for an id it never saw, and answers the next operation', async () => {
    const seen = await session([INIT, { id: 'never-subscribed', type: 'complete' }, subscribe('2', '{ __typename }')], (s) =>
      s.messages.some((m) => m['type'] === 'complete'),
    );
    expect(seen.messages.filter((message) => message['id'] === '2')).toEqual([
      { id: '2', type: 'next', payload: { data: { __typename: 'Query' } } },
      { id: '2', type: 'complete' },
    ]);
    expect(seen.closeCode).toBeUndefined();
  });

  it('answers operations whose ids are __proto__ and constructor under those ids, Object.prototype untouched', async () => {
    const seen = await session(
      [INIT, subscribe('__proto__', '{ __typename }'), subscribe('constructor', '{ __typename }')],
      (s) => s.messages.filter((m) => m['type'] === 'complete').length === 2,
    );
    expect(
      seen.messages
        .filter((message) => message['type'] === 'next')
        .map((message) => message['id'])
        .sort(),
    ).toEqual(['__proto__', 'constructor']);
    expect(Object.prototype).not.toHaveProperty('__typename');
  });

  it('answers an operation under a 50,000-character id, bounded by the message cap', async () => {
    const id = 'i'.repeat(50_000);
    const seen = await session([INIT, subscribe(id, '{ __typename }')], (s) => s.messages.some((m) => m['type'] === 'complete'));
    expect(seen.messages.filter((message) => message['id'] === id).map((message) => message['type'])).toEqual(['next', 'complete']);
  });

  it('refuses a document that does not parse with GRAPHQL_PARSE_FAILED, with no REST call beyond the credential check', async () => {
    const seen = await session([INIT, subscribe('1', '{ runner(id: "x") { id ')], (s) => s.messages.some((m) => m['type'] === 'error'));
    expect(seen.messages.find((message) => message['type'] === 'error')?.['payload']).toMatchObject([
      { extensions: { code: 'GRAPHQL_PARSE_FAILED' } },
    ]);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('refuses 2,000 nested list literals with LIMIT_EXCEEDED (nesting) before parsing, with no HTTP status in the error', async () => {
    const query = `{ issues(labels: ${'['.repeat(2_000)}"a"${']'.repeat(2_000)}) { nodes { id } } }`;
    const seen = await session([INIT, subscribe('1', query)], sawError);
    expect(errorPayload(seen)).toEqual([
      { message: expect.stringContaining('64') as unknown, extensions: { code: 'LIMIT_EXCEEDED', limit: 'nesting', maxNesting: 64 } },
    ]);
    expect(seen.closeCode).toBeUndefined();
    expect(attackerCalls(harness)).toEqual([]);
  });

  it.each<[string, object, unknown]>([
    ['an operationName no operation has', { operationName: 'B' }, 'OPERATION_RESOLUTION_FAILURE'],
    ['no operationName for two operations', { query: 'query A { __typename } query C { __typename }' }, 'OPERATION_RESOLUTION_FAILURE'],
    ['a variable of the wrong type', { query: 'query A($f: Int) { ownedRunners(first: $f) { nodes { id } } }', variables: { f: 'x' } }, 'BAD_USER_INPUT'],
    ['a required variable missing', { query: 'query A($id: CiRunnerID!) { runner(id: $id) { id } }' }, 'BAD_USER_INPUT'],
  ])('refuses %s with the code HTTP answers, before any REST call', async (_case, payload, code) => {
    const seen = await session([INIT, { id: '1', type: 'subscribe', payload: { query: 'query A { __typename }', ...payload } }], sawError);
    expect(errorPayload(seen)).toHaveLength(1);
    expect(errorPayload(seen)).toMatchObject([{ extensions: { code } }]);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('keeps a well-behaved connection answered while many hostile ones are closed around it', async () => {
    const hostile = Array.from({ length: 10 }, (_, index) =>
      session(index % 2 ? ['{'] : [subscribe('1', '{ __typename }')], (s) => s.closeCode !== undefined),
    );
    const good = session([INIT, subscribe('ok', '{ currentUser { username } }')], (s) => s.messages.some((m) => m['type'] === 'complete'));
    const [goodSeen, ...hostileSeen] = await Promise.all([good, ...hostile]);
    expect(goodSeen.messages.find((message) => message['type'] === 'next')).toEqual({
      id: 'ok',
      type: 'next',
      payload: { data: { currentUser: { username: 'root' } } },
    });
    expect(hostileSeen.map((seen) => seen.closeCode).sort()).toEqual([...Array<number>(5).fill(4400), ...Array<number>(5).fill(4401)]);
  });
});

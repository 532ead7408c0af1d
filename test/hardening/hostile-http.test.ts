// Hostile HTTP requests (issue 15, an adversarial suite): bodies, methods, content types,
// credential headers and request framing a caller controls. What is not a GraphQL request is a
// 4xx with a code; nothing reaches REST; a half-sent request holds no other caller up.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { attackerCalls, codesOf, expectNothingLeaked, readAnswer, sendAlone, withBystander, type RawAnswer } from './hostile-support.js';

const { maintainer, guest } = DEMO_TOKENS;
const TYPENAME = '{"query":"{ __typename }"}';

/** Writes `request` on a socket of its own and reads until the server closes it or `ms` pass. */
function rawExchange(port: number, request: string, ms = 1_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const done = () => {
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', () => undefined);
    socket.write(request);
  });
}

describe('hostile HTTP requests', () => {
  const harness = gatewayOverSimulator();
  const port = () => Number(new URL(harness.gateway.url).port);
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(harness.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': maintainer, ...headers },
      body,
    }).then(readAnswer);

  it.each<[string, () => Promise<RawAnswer>, number, string]>([
    ['a body that is not JSON', () => post('{"query":'), 400, 'BAD_REQUEST'],
    ['JSON null', () => post('null'), 400, 'BAD_REQUEST'],
    ['a JSON number', () => post('42'), 400, 'BAD_REQUEST'],
    ['a JSON string holding the query', () => post('"{ __typename }"'), 400, 'BAD_REQUEST'],
    ['an empty object', () => post('{}'), 400, 'BAD_REQUEST'],
    ['an empty body', () => post(''), 400, 'BAD_REQUEST'],
    ['an empty query', () => post('{"query":""}'), 400, 'BAD_REQUEST'],
    ['a query that is a number', () => post('{"query":42}'), 400, 'BAD_REQUEST'],
    ['a query that is a list', () => post('{"query":["{ __typename }"]}'), 400, 'BAD_REQUEST'],
    ['variables that are a string', () => post('{"query":"{ __typename }","variables":"{}"}'), 400, 'BAD_REQUEST'],
    ['variables that are a list', () => post('{"query":"{ __typename }","variables":[1]}'), 400, 'BAD_REQUEST'],
    ['an operationName that is a number', () => post('{"query":"{ __typename }","operationName":5}'), 400, 'BAD_REQUEST'],
    ['extensions that are a string', () => post('{"query":"{ __typename }","extensions":"x"}'), 400, 'BAD_REQUEST'],
    ['a batch while batching is off', () => post(`[${TYPENAME}]`), 400, 'BAD_REQUEST'],
    ['an empty batch', () => post('[]'), 400, 'BAD_REQUEST'],
    ['text/plain (a simple cross-site request)', () => post(TYPENAME, { 'content-type': 'text/plain' }), 400, 'BAD_REQUEST'],
    [
      'a form post (a simple cross-site request)',
      () => post('query=%7B__typename%7D', { 'content-type': 'application/x-www-form-urlencoded' }),
      400,
      'BAD_REQUEST',
    ],
    ['application/xml', () => post(TYPENAME, { 'content-type': 'application/xml' }), 400, 'BAD_REQUEST'],
    ['application/graphql', () => post('{ __typename }', { 'content-type': 'application/graphql' }), 400, 'BAD_REQUEST'],
    ['multipart without the preflight header', () => post('x', { 'content-type': 'multipart/form-data; boundary=x' }), 400, 'BAD_REQUEST'],
    [
      'a GET without the preflight header (CSRF)',
      () => fetch(`${harness.gateway.url}?query=%7B__typename%7D`).then(readAnswer),
      400,
      'BAD_REQUEST',
    ],
    [
      'a GET with variables that are not JSON',
      () =>
        fetch(`${harness.gateway.url}?query=%7B__typename%7D&variables=%7B`, { headers: { 'apollo-require-preflight': 'true' } }).then(
          readAnswer,
        ),
      400,
      'BAD_REQUEST',
    ],
    [
      'a GET with extensions that are not JSON',
      () =>
        fetch(`${harness.gateway.url}?query=%7B__typename%7D&extensions=%7B`, { headers: { 'apollo-require-preflight': 'true' } }).then(
          readAnswer,
        ),
      400,
      'BAD_REQUEST',
    ],
    [
      'a GET without a query',
      () =>
        fetch(`${harness.gateway.url}?foo=1`, { headers: { 'apollo-require-preflight': 'true', accept: 'application/json' } }).then(
          readAnswer,
        ),
      400,
      'BAD_REQUEST',
    ],
    [
      'a GET carrying a mutation',
      () =>
        fetch(
          `${harness.gateway.url}?query=${encodeURIComponent('mutation { runnerDelete(input: { id: "gid://gitlab/Ci::Runner/7" }) { errors } }')}`,
          { headers: { 'apollo-require-preflight': 'true', 'private-token': maintainer } },
        ).then(readAnswer),
      405,
      'BAD_REQUEST',
    ],
    [
      'a PUT',
      () => fetch(harness.gateway.url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: TYPENAME }).then(readAnswer),
      405,
      'BAD_REQUEST',
    ],
    [
      'a PATCH',
      () =>
        fetch(harness.gateway.url, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: TYPENAME }).then(readAnswer),
      405,
      'BAD_REQUEST',
    ],
    [
      'a body over 1,000,000 bytes',
      () =>
        sendAlone(harness.gateway.url, {
          headers: { 'content-type': 'application/json' },
          body: `{"query":"{ __typename }","x":"${'a'.repeat(1_100_000)}"}`,
        }),
      413,
      'BAD_REQUEST',
    ],
    [
      'a persisted-query hash the gateway never saw',
      () => post('{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}'),
      200,
      'PERSISTED_QUERY_NOT_FOUND',
    ],
    [
      'a persisted-query hash that is an object',
      () => post('{"extensions":{"persistedQuery":{"version":1,"sha256Hash":{"a":1}}}}'),
      200,
      'PERSISTED_QUERY_NOT_FOUND',
    ],
    // Apollo's own refusals without a code of their own (was INTERNAL_SERVER_ERROR).
    [
      'a persisted-query hash that does not match its query',
      () => post('{"query":"{ __typename }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}'),
      400,
      'BAD_REQUEST',
    ],
    [
      'a persisted-query version the gateway does not know',
      () => post('{"query":"{ __typename }","extensions":{"persistedQuery":{"version":2,"sha256Hash":"abc"}}}'),
      400,
      'BAD_REQUEST',
    ],
    ['a persisted-query extension that is a string', () => post('{"query":"{ __typename }","extensions":{"persistedQuery":"x"}}'), 400, 'BAD_REQUEST'],
    [
      'a POST to a path that is not the API',
      () =>
        fetch(new URL('/nothing-here', harness.gateway.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: TYPENAME }).then(
          readAnswer,
        ),
      404,
      'NOT_FOUND',
    ],
  ])('answers %s with a 4xx (or a GraphQL error) and a code, and no REST call', async (_case, send, status, code) => {
    const answer = await withBystander(harness, send);
    expect(answer.status).toBe(status);
    expect(codesOf(answer.json)).toEqual([code]);
    expectNothingLeaked(harness, answer.text, [maintainer]);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('answers a body over 1,000,000 bytes with 413 and Connection: close, then ends the connection cleanly, with no reset', async () => {
    // The whole body is written before anything is read, as a proxy forwarding it would. Before,
    // the gateway destroyed the connection with the rest of the body unread: the kernel answered
    // with a reset (ECONNRESET), and the 413 was lost or the pooled connection spoiled.
    const body = `{"query":"{ __typename }","x":"${'a'.repeat(1_100_000)}"}`;
    const exchange = await new Promise<{ received: string; error: string | undefined }>((resolve) => {
      const socket = connect(port(), '127.0.0.1');
      let received = '';
      let error: string | undefined;
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      // The server ends its side once its answer is sent; the client then ends its own.
      socket.on('end', () => socket.end());
      socket.on('error', (cause: NodeJS.ErrnoException) => (error = cause.code ?? cause.message));
      socket.on('close', () => resolve({ received, error }));
      socket.setTimeout(10_000, () => socket.destroy());
      socket.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    });
    expect(exchange.error).toBeUndefined();
    expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.received.toLowerCase()).toContain('\r\nconnection: close\r\n');
    // The answer arrived whole: its one chunk and the last, empty one.
    const [head = '', ...rest] = exchange.received.split('\r\n\r\n');
    expect(head.toLowerCase()).toContain('\r\ntransfer-encoding: chunked');
    const chunks = /^[0-9a-f]+\r\n(.*)\r\n0$/.exec(rest.join('\r\n\r\n').replace(/\r\n\r\n$/, ''));
    expect(JSON.parse(chunks?.[1] ?? '')).toMatchObject({ errors: [{ extensions: { code: 'BAD_REQUEST' } }] });
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('answers a 50 MB body with its 413 every time, with no EPIPE or reset, however much is still to come (issue 27)', async () => {
    // The gateway answers after reading a little over 1 MB; the client still has 49 MB to write.
    // Closed at once, the connection reset those writes (EPIPE, 2 of 15 tries lost their 413);
    // it now ends its side after the answer and drops what still arrives until the client ends.
    const body = Buffer.alloc(50 * 1024 * 1024, 'a');
    for (let attempt = 0; attempt < 3; attempt++) {
      const exchange = await new Promise<{ received: string; error: string | undefined; written: boolean }>((resolve) => {
        const socket = connect(port(), '127.0.0.1');
        let received = '';
        let error: string | undefined;
        let written = false;
        socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
        socket.on('end', () => socket.end());
        socket.on('error', (cause: NodeJS.ErrnoException) => (error = cause.code ?? cause.message));
        socket.on('close', () => resolve({ received, error, written }));
        socket.setTimeout(20_000, () => socket.destroy());
        socket.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
        socket.write(body, (failure) => (written = !failure));
      });
      expect(exchange.error).toBeUndefined();
      expect(exchange.written).toBe(true);
      expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
    }
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('answers a body announced over 1,000,000 bytes with 413 before a byte of it arrives', async () => {
    // Only the headers are sent: the 413 must come from the Content-Length alone, not from
    // waiting for (and holding) a megabyte of body first.
    const exchange = await new Promise<{ received: string; error: string | undefined }>((resolve) => {
      const socket = connect(port(), '127.0.0.1');
      let received = '';
      let error: string | undefined;
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        // The answer is whole (its last, empty chunk): the client gives up sending its body.
        if (received.endsWith('\r\n0\r\n\r\n')) socket.end();
      });
      socket.on('error', (cause: NodeJS.ErrnoException) => (error = cause.code ?? cause.message));
      socket.on('close', () => resolve({ received, error }));
      socket.setTimeout(10_000, () => socket.destroy());
      socket.write('POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n');
    });
    expect(exchange.error).toBeUndefined();
    expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.received.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('takes PRIVATE-TOKEN over a conflicting Authorization header, every time, and never both', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await post('{"query":"{ currentUser { username } }"}', {
        'private-token': maintainer,
        authorization: `Bearer ${guest}`,
        'job-token': 'glcbt-other',
      });
      expect(answer.json).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    }
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('treats an Authorization header that is not Bearer as no credential, not as an error', async () => {
    const answer = await fetch(harness.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic Zm9vOmJhcg==' },
      body: '{"query":"{ currentUser { username } }"}',
    }).then(readAnswer);
    expect(answer.json).toEqual({ data: { currentUser: null } });
  });

  it('refuses a 10,000-character token as UNAUTHENTICATED without echoing it, and a header block past the server limit with 431', async () => {
    const longToken = `glpat-${'x'.repeat(10_000)}`;
    const answer = await withBystander(harness, () => post('{"query":"{ currentUser { username } }"}', { 'private-token': longToken }));
    expect(codesOf(answer.json)).toEqual(['UNAUTHENTICATED']);
    expect(answer.text).not.toContain('x'.repeat(100));
    const huge = await rawExchange(
      port(),
      `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nPRIVATE-TOKEN: ${'y'.repeat(70_000)}\r\nContent-Length: ${TYPENAME.length}\r\n\r\n${TYPENAME}`,
    );
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('replaces a request id that is not a sane token with one of its own', async () => {
    const response = await fetch(harness.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': `<script>${'z'.repeat(300)}` },
      body: TYPENAME,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ['both Content-Length and Transfer-Encoding (request smuggling)', `Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['two different Content-Lengths', `Content-Length: 4\r\nContent-Length: ${TYPENAME.length}\r\n\r\n${TYPENAME}`],
    ['a malformed chunk size', `Transfer-Encoding: chunked\r\n\r\nzz\r\n${TYPENAME}\r\n0\r\n\r\n`],
  ])('refuses a request with %s with 400, before any REST call', async (_case, rest) => {
    const answer = await withBystander(harness, () =>
      rawExchange(port(), `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nPRIVATE-TOKEN: ${maintainer}\r\n${rest}`),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('keeps answering other callers while requests hang half-sent, headers or body', async () => {
    const sockets = Array.from({ length: 20 }, (_, index) => {
      const socket = connect(port(), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        index % 2
          ? `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":`
          : 'POST /graphql HTTP/1.1\r\nHost: x\r\nX-Slow: ',
      );
      return socket;
    });
    try {
      for (let round = 0; round < 3; round++) await withBystander(harness, () => Promise.resolve());
    } finally {
      sockets.forEach((socket) => socket.destroy());
    }
    expect(attackerCalls(harness)).toEqual([]);
  });
});

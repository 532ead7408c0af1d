import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { RestClient, RestSession } from '../../src/datasources/rest-client.js';
import { RestError } from '../../src/datasources/rest-error.js';

const ORIGIN = 'http://gitlab.test';

describe('RestClient over undici', () => {
  let agent: MockAgent;
  let session: RestSession;

  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
    const client = new RestClient({ baseUrl: `${ORIGIN}/api/v4`, dispatcher: agent });
    session = new RestSession(client, { kind: 'private-token', value: 'glpat-caller' }, 'req-1');
  });

  afterEach(async () => {
    await agent.close();
  });

  it('forwards the caller credential and request id, and reads the page headers', async () => {
    let seenHeaders: Record<string, string> = {};
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v4/runners?page=2&per_page=5', method: 'GET' })
      .reply((options) => {
        seenHeaders = options.headers as Record<string, string>;
        return {
          statusCode: 200,
          data: [{ id: 6 }],
          responseOptions: { headers: { 'x-next-page': '', 'x-total': '6', 'x-page': '2', 'x-per-page': '5', 'content-type': 'application/json' } },
        };
      });
    const page = await session.getPage<{ id: number }>('/runners', { page: 2, perPage: 5 });
    expect(page).toEqual({ items: [{ id: 6 }], page: 2, perPage: 5, hasNextPage: false, total: 6 });
    expect(seenHeaders['private-token']).toBe('glpat-caller');
    expect(seenHeaders['x-request-id']).toBe('req-1');
  });

  it('cuts a call still in flight at the deadline, also after the session went idle between calls', async () => {
    const client = new RestClient({ baseUrl: `${ORIGIN}/api/v4`, dispatcher: agent, retry: { attempts: 1 } });
    const hurried = new RestSession(client, null, 'req-2', { maxConcurrentCalls: 4, deadline: Date.now() + 300 });
    const json = { headers: { 'content-type': 'application/json' } };
    agent.get(ORIGIN).intercept({ path: '/api/v4/runners/1', method: 'GET' }).reply(200, { id: 1 }, json);
    agent.get(ORIGIN).intercept({ path: '/api/v4/runners/2', method: 'GET' }).reply(200, { id: 2 }, json).delay(5_000);
    expect(await hurried.get('/runners/1')).toEqual({ id: 1 });
    // No call in flight: the deadline's timer is off until the next call arms it again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Were the call not cut, the mock would answer { id: 2 } after its delay: no error at all.
    const error = await hurried.get('/runners/2').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({ failure: 'deadline', status: 0 });
  });

  it('takes hasNextPage from Link rel="next" when X-Next-Page is absent', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v4/runners?page=1&per_page=2', method: 'GET' })
      .reply(200, [{ id: 1 }, { id: 2 }], {
        headers: { link: '<https://elsewhere.example/api/v4/runners?page=2&per_page=2>; rel="next", <https://elsewhere.example/api/v4/runners?page=1&per_page=2>; rel="first"' },
      });
    const page = await session.getPage('/runners', { page: 1, perPage: 2 });
    expect(page.hasNextPage).toBe(true);
    expect(page.total).toBeNull();
  });

  it('throws a RestError with the REST message and no credential in it', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v4/runners/7', method: 'GET' })
      .reply(403, { message: '403 Forbidden - glpat-caller may not' }, { headers: { 'content-type': 'application/json', 'x-request-id': 'up-9' } });
    const error = await session.get('/runners/7').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestError);
    const restError = error as RestError;
    expect(restError.status).toBe(403);
    expect(restError.requestId).toBe('up-9');
    expect(restError.message).toContain('GET /runners/7 answered 403');
    expect(JSON.stringify({ message: restError.message, reason: restError.reason })).not.toContain('glpat-caller');
    expect(restError.message).not.toContain(ORIGIN);
  });

  it('reports a body that claims JSON and is not as malformed', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v4/runners/8', method: 'GET' })
      .reply(200, '{"id": 8, "desc', { headers: { 'content-type': 'application/json' } });
    await expect(session.get('/runners/8')).rejects.toMatchObject({ failure: 'malformed-body' });
  });

  it('sends writes as JSON bodies', async () => {
    let sentBody = '';
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v4/runners/9', method: 'PUT' })
      .reply((options) => {
        sentBody = typeof options.body === 'string' ? options.body : '';
        return { statusCode: 200, data: { id: 9, active: false } };
      });
    await session.put('/runners/9', { active: false, tag_list: ['a'] });
    expect(JSON.parse(sentBody)).toEqual({ active: false, tag_list: ['a'] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { paginationHeaders } from '../../simulator/http/pagination.js';
import { call, ids, list } from './helpers.js';

let sim: Simulator;
const admin = { token: DEMO_TOKENS.admin };

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

function links(header: string | null): { rel: string; url: URL }[] {
  return (header ?? '').split(', ').map((part) => {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    if (!match?.[1] || !match[2]) throw new Error(`bad Link part: ${part}`);
    return { rel: match[2], url: new URL(match[1]) };
  });
}

describe('offset pagination (rest-conventions §3)', () => {
  // 70 seeded runners: 4 pages of 20.
  it('sends every header on the first page, with an empty X-Prev-Page and no rel="prev"', async () => {
    const result = await call(sim, '/runners/all', admin);
    const h = result.headers;
    expect([h.get('x-page'), h.get('x-per-page'), h.get('x-next-page'), h.get('x-prev-page')]).toEqual(['1', '20', '2', '']);
    expect([h.get('x-total'), h.get('x-total-pages')]).toEqual(['70', '4']);
    expect(links(h.get('link')).map((l) => l.rel)).toEqual(['next', 'first', 'last']);
    expect(ids(result)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('orders Link as prev, next, first, last on a middle page, built from the server origin', async () => {
    const result = await call(sim, '/runners/all?page=2&per_page=20', admin);
    const parts = links(result.headers.get('link'));
    expect(parts.map((l) => l.rel)).toEqual(['prev', 'next', 'first', 'last']);
    expect(parts.map((l) => l.url.searchParams.get('page'))).toEqual(['1', '3', '1', '4']);
    for (const { url } of parts) {
      expect(url.origin).toBe(sim.origin);
      expect(url.pathname).toBe('/api/v4/runners/all');
      expect(url.searchParams.get('per_page')).toBe('20');
    }
    expect(result.headers.get('x-prev-page')).toBe('1');
    expect(result.headers.get('x-next-page')).toBe('3');
    expect(result.headers.get('link')).toContain('>; rel="prev", <');
  });

  it('sends an empty X-Next-Page and no rel="next" on the last page', async () => {
    const result = await call(sim, '/runners/all?page=4', admin);
    expect(result.headers.get('x-next-page')).toBe('');
    expect(result.headers.get('x-prev-page')).toBe('3');
    expect(links(result.headers.get('link')).map((l) => l.rel)).toEqual(['prev', 'first', 'last']);
    expect(list(result)).toHaveLength(10);
  });

  it('keeps the other query parameters in Link, but never a token', async () => {
    const result = await call(sim, '/runners/all?type=project_type&per_page=5&private_token=glpat-demo-admin');
    const [next] = links(result.headers.get('link'));
    expect(next?.url.searchParams.get('type')).toBe('project_type');
    expect(next?.url.searchParams.has('private_token')).toBe(false);
  });

  it('clamps per_page to 100 silently', async () => {
    const result = await call(sim, '/runners/1/jobs?per_page=500', admin);
    expect(result.status).toBe(200);
    expect(result.headers.get('x-per-page')).toBe('100');
    expect(list(result)).toHaveLength(100);
    expect(result.headers.get('x-total-pages')).toBe('3');
  });

  it('sends X-Total-Pages 1 for an empty list', async () => {
    const result = await call(sim, '/runners', { token: DEMO_TOKENS.guest });
    expect(list(result)).toEqual([]);
    expect(result.headers.get('x-total')).toBe('0');
    expect(result.headers.get('x-total-pages')).toBe('1');
    expect(result.headers.get('x-next-page')).toBe('');
    expect(links(result.headers.get('link')).map((l) => l.rel)).toEqual(['first', 'last']);
  });

  it('answers an empty page past the end', async () => {
    const result = await call(sim, '/runners/all?page=9', admin);
    expect(list(result)).toEqual([]);
    expect(result.headers.get('x-page')).toBe('9');
    expect(result.headers.get('x-next-page')).toBe('');
  });

  it('omits X-Total, X-Total-Pages and rel="last" above 10,000 rows', async () => {
    const template = sim.state.jobs.get(1);
    if (!template) throw new Error('no job 1');
    const added: number[] = [];
    for (let i = 0; i < 10_001; i++) {
      const id = 1_000_000 + i;
      sim.state.jobs.set(id, { ...template, id, runnerId: 2 });
      added.push(id);
    }
    try {
      const result = await call(sim, '/runners/2/jobs?per_page=100&page=2', admin);
      expect(result.headers.get('x-total')).toBeNull();
      expect(result.headers.get('x-total-pages')).toBeNull();
      expect(result.headers.get('x-next-page')).toBe('3');
      expect(links(result.headers.get('link')).map((l) => l.rel)).toEqual(['prev', 'next', 'first']);
    } finally {
      for (const id of added) sim.state.jobs.delete(id);
    }
  });

  it('refuses keyset pagination where it is not available', async () => {
    const result = await call(sim, '/runners/all?pagination=keyset&order_by=id&sort=asc', admin);
    expect(result.status).toBe(405);
    expect(result.body).toEqual({ error: 'Keyset pagination is not yet available for this type of request' });
  });
});

describe('pagination headers without counts', () => {
  it('never sends totals when a list opts out (the Commits API)', () => {
    const headers = paginationHeaders({
      origin: 'http://127.0.0.1:1',
      rawPath: '/projects/1/repository/commits',
      rawQuery: 'ref_name=main',
      page: { page: 1, perPage: 20 },
      total: 45,
      withCounts: false,
    });
    expect(headers['X-Total']).toBeUndefined();
    expect(headers['X-Total-Pages']).toBeUndefined();
    expect(headers['X-Next-Page']).toBe('2');
    expect(headers['Link']).toBe(
      '<http://127.0.0.1:1/api/v4/projects/1/repository/commits?page=2&per_page=20&ref_name=main>; rel="next", ' +
        '<http://127.0.0.1:1/api/v4/projects/1/repository/commits?page=1&per_page=20&ref_name=main>; rel="first"',
    );
  });
});

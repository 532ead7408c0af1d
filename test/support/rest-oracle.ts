import type { Simulator } from '../../simulator/index.js';

/**
 * Direct REST calls to the embedded v4 server, for tests to compute what the gateway should
 * answer instead of hard-coding it. These calls are removed from the request log afterwards, so
 * they never count as the gateway's.
 */
export function restOracle(simulator: Simulator) {
  async function call<T>(method: string, path: string, token?: string): Promise<{ status: number; body: T; headers: Headers }> {
    const before = simulator.requests.length;
    const response = await fetch(`${simulator.url}${path}`, {
      method,
      headers: token ? { 'private-token': token } : {},
    });
    const text = await response.text();
    simulator.requests.splice(before, 1);
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
  }

  return {
    call,
    async get<T>(path: string, token?: string): Promise<T> {
      const result = await call<T>('GET', path, token);
      if (result.status !== 200) throw new Error(`oracle GET ${path} answered ${result.status}`);
      return result.body;
    },
    /** Every item of a paginated REST list, following X-Next-Page. */
    async all<T>(path: string, token?: string): Promise<T[]> {
      const items: T[] = [];
      const separator = path.includes('?') ? '&' : '?';
      for (let page = 1; ; page++) {
        const result = await call<T[]>('GET', `${path}${separator}per_page=100&page=${page}`, token);
        if (result.status !== 200) throw new Error(`oracle GET ${path} answered ${result.status}`);
        items.push(...result.body);
        if (!result.headers.get('x-next-page')) return items;
      }
    },
  };
}

/** The requests the gateway made since the log was last reset, as `METHOD /path` lines. */
export function restCalls(simulator: Simulator): string[] {
  return simulator.requests.map((request) => `${request.method} ${request.path}`);
}

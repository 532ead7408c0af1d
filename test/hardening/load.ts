// Bounded load for the hardening tests: a fixed number of GraphQL requests over a fixed number of
// keep-alive connections, each worker sending its next request when the previous one answered.
import { Pool } from 'undici';
import type { GraphQLResponse } from '../support/gateway.js';

export interface LoadClient {
  /** POSTs one operation with the token as PRIVATE-TOKEN; the HTTP status and the parsed body. */
  post<TData = Record<string, unknown>>(query: string, variables: Record<string, unknown>, token?: string): Promise<{ status: number; body: GraphQLResponse<TData> }>;
  close(): Promise<void>;
}

/** A client for many requests to one gateway, over at most `connections` connections. */
export function loadClient(graphqlUrl: string, connections: number): LoadClient {
  const url = new URL(graphqlUrl);
  const pool = new Pool(url.origin, { connections, keepAliveTimeout: 60_000 });
  return {
    async post<TData>(query: string, variables: Record<string, unknown>, token?: string) {
      const response = await pool.request({
        method: 'POST',
        path: url.pathname,
        headers: { 'content-type': 'application/json', ...(token ? { 'private-token': token } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.statusCode, body: (await response.body.json()) as GraphQLResponse<TData> };
    },
    close: () => pool.close(),
  };
}

/** Runs `operation(0 .. count-1)`, at most `inFlight` at once; rejects with the first failure. */
export async function runBounded(count: number, inFlight: number, operation: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await operation(next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
}

import type { GraphQLFormattedError } from 'graphql';
import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import type { GraphQLResponse } from '../support/gateway.js';

/**
 * A GraphQL POST to any URL (a BFF's mount, not only the gateway's own listener), with the
 * response's status and headers: the embedding tests check what the BFF sends back.
 */
export async function postGraphQL<TData = Record<string, unknown>>(
  url: string,
  query: string,
  options: { variables?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: GraphQLResponse<TData> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify({ query, variables: options.variables }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLResponse<TData> };
}

/** A graphql-ws client that connects at once, never retries, and reports how it was closed. */
export function connectWebSocket(url: string, connectionParams?: Record<string, unknown>) {
  let closeCode: number | undefined;
  const client: Client = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    // A refused connection is an expected outcome here; its close code is what tests check.
    onNonLazyError: () => {},
    ...(connectionParams ? { connectionParams } : {}),
    on: { closed: (event) => (closeCode = (event as { code: number }).code) },
  });
  return {
    client,
    get closeCode() {
      return closeCode;
    },
    /** The first result of an operation (a query's only one, a subscription's next event). */
    async first<TData = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<FormattedExecutionResult<TData, unknown>> {
      const results = client.iterate<TData>({ query, ...(variables ? { variables } : {}) });
      try {
        const step = await results.next();
        if (step.done) throw new Error('the operation completed without a result');
        return step.value;
      } catch (error) {
        // Errors found before execution (validation, limits) end the operation as graphql-ws errors.
        if (Array.isArray(error)) return { errors: error as GraphQLFormattedError[] };
        throw error;
      } finally {
        await results.return?.();
      }
    },
  };
}

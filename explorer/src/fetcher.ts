import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import { CloseCode, createClient } from 'graphql-ws/client';

/** The gateway's GraphQL endpoint, over HTTP and WebSocket, on the page's own origin. */
export interface GatewayUrls {
  http: string;
  ws: string;
}

export function gatewayUrls(location: Pick<Location, 'protocol' | 'host'>, path = '/graphql'): GatewayUrls {
  const secure = location.protocol === 'https:';
  return { http: `${secure ? 'https' : 'http'}://${location.host}${path}`, ws: `${secure ? 'wss' : 'ws'}://${location.host}${path}` };
}

/** The gateway closes a socket whose `connection_init` carries no credential, or one REST refuses, with 4403. */
function isForbidden(errorOrCloseEvent: unknown): boolean {
  return typeof errorOrCloseEvent === 'object' && errorOrCloseEvent !== null && (errorOrCloseEvent as { code?: unknown }).code === CloseCode.Forbidden;
}

/**
 * GraphiQL's fetcher, with the headers editor's contents on both transports.
 *
 * Over HTTP the toolkit sends them as request headers. A browser cannot set headers on a
 * WebSocket, so the gateway reads the credential from graphql-ws's `connection_init` payload
 * instead, and that payload is sent once per socket: when the headers change, later operations
 * get a new client (a new socket, a new `connection_init`). The clients are lazy, so one opens its
 * socket with its first subscription and closes it after its last; a subscription still running
 * under the old headers keeps its socket until it is stopped.
 */
export function createExplorerFetcher(urls: GatewayUrls): Fetcher {
  let current: { headersKey: string; fetcher: Fetcher } | undefined;
  return (params, options) => {
    const headers: Record<string, unknown> = options?.headers ?? {};
    const headersKey = JSON.stringify(headers);
    if (current?.headersKey !== headersKey) {
      const wsClient = createClient({
        url: urls.ws,
        connectionParams: headers,
        lazy: true,
        // A refused credential stays refused: report it at once instead of retrying.
        shouldRetry: (errorOrCloseEvent) => !isForbidden(errorOrCloseEvent),
        retryAttempts: 3,
      });
      current = { headersKey, fetcher: createGraphiQLFetcher({ url: urls.http, wsClient }) };
    }
    return current.fetcher(params, options);
  };
}

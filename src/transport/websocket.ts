import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GraphQLSchema } from 'graphql';
import type { ContextFactory } from './http-handler.js';
import type { WebSocketEndpoint, WebSocketServerOptions } from './websocket-server.js';

/** Bytes a connection may hold waiting to be sent before it is closed (GatewayOptions.maxUnsentWebSocketBytes). */
export const DEFAULT_MAX_UNSENT_WEBSOCKET_BYTES = 4 * 1024 * 1024;

/**
 * Messages a connection may send per second, on average (GatewayOptions.maxWebSocketMessagesPerSecond).
 * A page that subscribes to a list of records sends its subscriptions at once; the burst allowed
 * is a second's worth plus twice the operations a connection may hold (gateway-websocket.ts), so
 * that it may open them all, close them and open them again without waiting. 100 a second is far
 * above what a client's user can cause.
 */
export const DEFAULT_WEBSOCKET_MESSAGES_PER_SECOND = 100;

export interface WebSocketOptions extends WebSocketServerOptions {
  /** The path to answer upgrades on; upgrades for other paths are left to the server's other listeners. */
  path: string;
}

export interface AttachedWebSocketServer {
  /** Stops taking upgrades and closes every connection with 1001 Going Away; nothing to close if none came. */
  close(): Promise<void>;
}

/**
 * graphql-ws on the HTTP server's port and path. The WebSocket server (ws, graphql-ws and the
 * operation cache, ./websocket-server.ts) is loaded at the first upgrade to that path, not at start:
 * a gateway that serves HTTP alone never needs it, and loading it at start grew the young
 * generation V8 keeps after start by some 6 MB of RSS (docs/performance.md, "Memory"). Upgrades
 * that arrive while it loads wait for it and are then served like any other.
 */
export function attachWebSocketServer(httpServer: Server, schema: GraphQLSchema, createContext: ContextFactory, options: WebSocketOptions): AttachedWebSocketServer {
  let loading: Promise<WebSocketEndpoint> | undefined;
  let loaded: WebSocketEndpoint | undefined;
  const load = () =>
    (loading ??= import('./websocket-server.js').then(({ createWebSocketServer }) => {
      loaded = createWebSocketServer(schema, createContext, options);
      return loaded;
    }));

  // Only upgrades on our path are ours: a BFF's server may carry WebSockets of its own elsewhere
  // (ws's own `server` option would answer those with 400).
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://gateway.invalid').pathname !== options.path) {
      // No other listener will answer it: refuse as ws would rather than leave the socket open.
      if (httpServer.listenerCount('upgrade') === 1) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    if (loaded) {
      loaded.handleUpgrade(request, socket, head);
      return;
    }
    // Node leaves an upgraded socket with no 'error' listener until ws adds its own: a client that
    // goes away while the server loads would otherwise throw out of the process.
    const dropOnError = () => socket.destroy();
    socket.on('error', dropOnError);
    load().then(
      (endpoint) => {
        socket.off('error', dropOnError);
        if (!socket.destroyed) endpoint.handleUpgrade(request, socket, head);
      },
      // The module could not be loaded (a broken install): no server can take the socket.
      () => {
        socket.off('error', dropOnError);
        socket.end('HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n\r\n');
      },
    );
  };
  httpServer.on('upgrade', onUpgrade);

  return {
    async close(): Promise<void> {
      httpServer.off('upgrade', onUpgrade);
      // A server still loading is waited for: the upgrades waiting on it are served first, then closed with the rest.
      const endpoint = loading && (await loading.catch(() => undefined));
      await endpoint?.close();
    },
  };
}

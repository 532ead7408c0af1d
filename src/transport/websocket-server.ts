import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { MessageType } from 'graphql-ws';
import { WebSocketServer } from 'ws';
import type { Credential, CredentialPolicy } from '../datasources/credentials.js';
import { RestError } from '../datasources/rest-error.js';
import { UnsendableRequest } from '../datasources/unsendable.js';
import type { GatewayContext } from '../server/context.js';
import { TokenBucket } from '../policy/token-bucket.js';
import { requestIdOf, type ContextFactory } from './http-handler.js';
import { GatewayWebSocket, messageBurst } from './gateway-websocket.js';
import { subscribeSharingResults } from './shared-subscribe.js';
import { WebSocketOperations, type ConnectionContext, type WebSocketOperationsOptions } from './websocket-operations.js';

/**
 * graphql-ws (`graphql-transport-ws`) over ws, for the upgrades ./websocket.ts hands it: that
 * module listens on the HTTP server and loads this one (with ws and graphql-ws) at the first
 * upgrade, not at start. The credential comes from the `connection_init` payload; a connection
 * without one, or with one REST refuses, is closed with 4403 Forbidden before any operation runs.
 * Each operation gets a context from the same factory as HTTP requests.
 */
export interface WebSocketServerOptions extends Omit<WebSocketOperationsOptions, 'credentialOf' | 'callerOf' | 'requestIdFor'> {
  /** How long a connection may wait before its `connection_init`; then it is closed with 4408. */
  connectionInitWaitTimeoutMs: number;
  /** Bytes a connection may hold waiting to be sent before it is closed (gateway-websocket.ts). */
  maxUnsentBytes: number;
  /**
   * Messages a connection may send per second on average, after a burst (messageBurst);
   * past it the connection is closed with 1008 (gateway-websocket.ts).
   */
  maxMessagesPerSecond: number;
  /** Who each connection runs as (its `connection_init` payload, or the service token). */
  credentials: CredentialPolicy;
}

/** The WebSocket side of one HTTP server: takes over the upgrades on its path; closes every connection with 1001. */
export interface WebSocketEndpoint {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

export function createWebSocketServer(schema: GraphQLSchema, createContext: ContextFactory, options: WebSocketServerOptions): WebSocketEndpoint {
  const { credentials } = options;
  const credentialOf = (ctx: ConnectionContext) => credentials.ofWebSocket(ctx.extra.request.headers, ctx.connectionParams) ?? credentials.fallback;
  // A message larger than any allowed query (plus variables) is refused by ws itself (close 1009).
  // Its sockets batch their writes and close quietly when a write fails (gateway-websocket.ts).
  const wsServer = new WebSocketServer({ noServer: true, maxPayload: options.admission.limits.maxQueryLength * 4 + 64 * 1024, WebSocket: GatewayWebSocket });
  const requestIdFor = tagConnectionsWithRequestIds(wsServer);
  const callerOf = (ctx: ConnectionContext) => ({ credential: credentials.ofWebSocket(ctx.extra.request.headers, ctx.connectionParams), address: ctx.extra.request.socket.remoteAddress });
  const operations = new WebSocketOperations(schema, createContext, { ...options, credentialOf, callerOf, requestIdFor });
  const disposable = useServer(
    {
      schema,
      subscribe: subscribeSharingResults,
      connectionInitWaitTimeout: options.connectionInitWaitTimeoutMs,
      // What only a server may send (connection_ack, next, error), sent by a client, is refused
      // while its message is parsed: graphql-ws then closes with 4400 "Invalid message received",
      // as for any message the protocol does not allow. Left to graphql-ws, it is thrown as
      // "Unexpected message of type next received", printed with a stack to stderr and closed
      // with 4500, an internal error of the server's, for a bad request of the client's.
      jsonMessageReviver(key: string, value: unknown) {
        if (key === '' && isServerOnlyMessage(value)) throw new TypeError('A client may not send this message type.');
        return key === '' ? withQueryForDocumentId(value) : value;
      },
      // Its GET /user is the caller's REST call (for the caller limits, as its operations' are).
      onConnect: (ctx) => acceptsCredential(credentialOf(ctx), (credential) => createContext(credential, requestIdFor(ctx), { caller: callerOf(ctx) })),
      onSubscribe: (ctx, id, payload) => operations.subscribe(ctx, id, payload),
      onNext: (ctx, id, _payload, _args, result) => operations.next(ctx, id, result),
      onError: (_ctx, _id, _payload, errors) => operations.error(errors),
      onComplete: (ctx, id) => operations.complete(ctx, id),
    },
    wsServer,
  );
  // ws emits 'error' on a socket only for what the client sent that the protocol forbids (a message
  // past maxPayload, a malformed frame, text that is not UTF-8), after closing the socket itself
  // with the protocol's code (1009, 1002, 1007). graphql-ws's listener, added just before, prints
  // each with its stack to stderr as an internal error: any client could flood the log. Nothing is
  // logged; the close code tells the client.
  wsServer.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', () => undefined);
  });
  const burst = messageBurst(options.maxMessagesPerSecond, options.maxSubscriptionsPerConnection);
  return {
    handleUpgrade(request, socket, head) {
      wsServer.handleUpgrade(request, socket, head, (ws) => {
        ws.writesTo(socket, options.maxUnsentBytes);
        ws.limitsMessages(new TokenBucket(options.maxMessagesPerSecond, burst));
        wsServer.emit('connection', ws, request);
      });
    },
    async close(): Promise<void> {
      await disposable.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

/**
 * A connection's request id is the upgrade request's X-Request-Id (or a new one), returned in the
 * 101 response and sent upstream with every REST call of its operations, as over HTTP.
 */
function tagConnectionsWithRequestIds(wsServer: WebSocketServer): (ctx: ConnectionContext) => string {
  const connectionIds = new WeakMap<IncomingMessage, string>();
  wsServer.on('headers', (headers, request) => {
    const requestId = requestIdOf(request);
    connectionIds.set(request, requestId);
    headers.push(`X-Request-Id: ${requestId}`);
  });
  return (ctx) => connectionIds.get(ctx.extra.request) ?? randomUUID();
}

/**
 * Whether a connection may start: it needs a credential that REST accepts (`GET /user`); one REST
 * refuses, or no HTTP header can carry (a line break in the payload's token), closes it with 4403.
 */
async function acceptsCredential(credential: Credential | null, contextFor: (credential: Credential) => GatewayContext): Promise<boolean> {
  if (!credential) return false;
  try {
    await contextFor(credential).api.users.current();
    return true;
  } catch (error) {
    if (error instanceof RestError && (error.status === 401 || error.status === 403)) return false;
    if (error instanceof UnsendableRequest && error.reason === 'invalid-credential') return false;
    throw error;
  }
}

/**
 * A `subscribe` whose payload names a trusted document by id (`documentId`, or
 * `extensions.persistedQuery`) and has no `query`: graphql-ws requires a query text of every
 * subscribe, and would close the connection with 4400. It gets an empty one, and the admission
 * (websocket-operations.ts) puts the list's text in its place, or refuses the operation.
 */
function withQueryForDocumentId(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || (message as { type?: unknown }).type !== MessageType.Subscribe) return message;
  const payload = (message as { payload?: unknown }).payload;
  if (typeof payload !== 'object' || payload === null || 'query' in payload) return message;
  if (!('documentId' in payload) && !('extensions' in payload)) return message;
  return { ...message, payload: { ...payload, query: '' } };
}

/** The message types of graphql-transport-ws that only a server sends. */
const SERVER_ONLY_MESSAGES: ReadonlySet<unknown> = new Set([MessageType.ConnectionAck, MessageType.Next, MessageType.Error]);

function isServerOnlyMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && SERVER_ONLY_MESSAGES.has((message as { type?: unknown }).type);
}

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  OperationTypeNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { MessageType, type Context } from 'graphql-ws';
import { WebSocketServer } from 'ws';
import type { CredentialPolicy } from '../datasources/credentials.js';
import { RestError } from '../datasources/rest-error.js';
import { UnsendableRequest } from '../datasources/unsendable.js';
import type { formatError } from '../errors/graphql-errors.js';
import { requestIdOf, type ContextFactory } from './http-handler.js';
import type { Telemetry } from '../observability/telemetry.js';
import { checkOperation, checkQueryText, limitExceeded, type QueryLimits } from '../policy/limits.js';
import { GatewayWebSocket, messageBurst } from './gateway-websocket.js';
import { OperationCache, withCode } from './operation-cache.js';
import { subscribeSharingResults } from './shared-subscribe.js';
import { ConnectionOperations } from './connection-operations.js';
import { TokenBucket } from '../policy/token-bucket.js';
import { randomUUID } from 'node:crypto';

/**
 * graphql-ws (`graphql-transport-ws`) over ws, for the upgrades ./websocket.ts hands it: that
 * module listens on the HTTP server and loads this one (with ws and graphql-ws) at the first
 * upgrade, not at start. The credential comes from the `connection_init` payload; a connection
 * without one, or with one REST refuses, is closed with 4403 Forbidden before any operation runs.
 * Each operation gets a context from the same factory as HTTP requests.
 */
export interface WebSocketServerOptions {
  limits: QueryLimits;
  maxSubscriptionsPerConnection: number;
  /** Whether loaders batch (GatewayOptions.batching): the REST-call estimate depends on it. */
  batching: boolean;
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
  /** The same error formatting as HTTP: codes from the table, tokens and secrets scrubbed. */
  formatError: typeof formatError;
  /** Told of each operation at its end: its log line and duration (observability/telemetry.ts). */
  telemetry?: Pick<Telemetry, 'webSocketOperationEnded'>;
  /** Schema introspection (GatewayOptions.introspection): false refuses `__schema` and `__type` here too. */
  introspection: boolean;
  /** Told of each mutation before its result is sent: the response cache empties, as for HTTP mutations. */
  onMutation?: () => void;
}

/** The WebSocket side of one HTTP server: takes over the upgrades on its path; closes every connection with 1001. */
export interface WebSocketEndpoint {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

export function createWebSocketServer(schema: GraphQLSchema, createContext: ContextFactory, options: WebSocketServerOptions): WebSocketEndpoint {
  const { limits, credentials, formatError } = options;
  const operations = new OperationCache(schema, limits.maxTokens, { introspection: options.introspection });
  const credentialOf = (ctx: Context<Record<string, unknown> | undefined, Extra>) =>
    credentials.ofWebSocket(ctx.extra.request.headers, ctx.connectionParams) ?? credentials.fallback;
  // A message larger than any allowed query (plus variables) is refused by ws itself (close 1009).
  // Its sockets batch their writes and close quietly when a write fails (gateway-websocket.ts).
  const wsServer = new WebSocketServer({ noServer: true, maxPayload: limits.maxQueryLength * 4 + 64 * 1024, WebSocket: GatewayWebSocket });
  // A connection's request id is the upgrade request's X-Request-Id (or a new one), returned in the
  // 101 response and sent upstream with every REST call of its operations, as over HTTP.
  const connectionIds = new WeakMap<IncomingMessage, string>();
  wsServer.on('headers', (headers, request) => {
    const requestId = requestIdOf(request);
    connectionIds.set(request, requestId);
    headers.push(`X-Request-Id: ${requestId}`);
  });
  const requestIdFor = (ctx: Context<Record<string, unknown> | undefined, Extra>) => connectionIds.get(ctx.extra.request) ?? randomUUID();
  // What the operations of one connection may hold of query text at once. A running operation keeps
  // its parsed document, about 110 bytes per character of text at worst (operation-cache.ts): 100
  // operations near the length limit held some 100 MB; ten times the limit holds about 11 MB.
  const maxRunningText = limits.maxQueryLength * 10;
  // The operations running on each connection, for their log line when they complete, and their count and text.
  const running = new WeakMap<object, ConnectionOperations>();
  const operationsOf = (ctx: Context<Record<string, unknown> | undefined, Extra>): ConnectionOperations => {
    let operations = running.get(ctx);
    if (!operations) {
      operations = new ConnectionOperations({ operations: options.maxSubscriptionsPerConnection, text: maxRunningText }, (id) => Object.hasOwn(ctx.subscriptions, id));
      running.set(ctx, operations);
    }
    return operations;
  };
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
        return value;
      },
      async onConnect(ctx) {
        const credential = credentialOf(ctx);
        if (!credential) return false;
        try {
          await createContext(credential, requestIdFor(ctx)).api.users.current();
          return true;
        } catch (error) {
          if (error instanceof RestError && (error.status === 401 || error.status === 403)) return false;
          // A token no HTTP header can carry (a line break in the payload's token): refused like one REST refuses.
          if (error instanceof UnsendableRequest && error.reason === 'invalid-credential') return false;
          throw error;
        }
      },
      // The HTTP limits apply over the socket too. The operation is prepared here, from the cache,
      // so graphql-ws neither parses nor validates it again; the context comes from the same
      // factory as HTTP requests.
      onSubscribe(ctx, id, payload) {
        try {
          const connection = operationsOf(ctx);
          if (connection.count >= options.maxSubscriptionsPerConnection) {
            throw limitExceeded(`This connection already holds ${options.maxSubscriptionsPerConnection} operations; close some first.`, 'subscriptions');
          }
          checkQueryText(payload.query, limits);
          const held = connection.textLength(payload.query.length);
          if (held + payload.query.length > maxRunningText) {
            throw limitExceeded(
              `The operations this connection holds have ${held} characters of query text, and this one ${payload.query.length}: at most ${maxRunningText} at once; close some first.`,
              'operationText',
            );
          }
          const prepared = operations.prepare(payload.query);
          if ('errors' in prepared) return prepared.errors;
          // The operation and its variables, refused here with the codes HTTP callers get from Apollo
          // (graphql-ws would refuse them with no code at all). The variables are coerced again when
          // the operation runs; refusing them here costs one coercion, and no REST call.
          const operation = getOperationAST(prepared.document, payload.operationName);
          if (!operation) return [unresolvedOperation(payload.operationName)];
          const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {}, { maxErrors: 50 });
          if (coerced.errors) return coerced.errors.map((error) => withCode(error, ApolloServerErrorCode.BAD_USER_INPUT));
          const estimate = checkOperation(schema, { document: prepared.document, operationName: payload.operationName, variables: payload.variables }, { authenticated: true, batching: options.batching }, limits);
          const contextValue = createContext(credentialOf(ctx), requestIdFor(ctx), { longLived: operation.operation === OperationTypeNode.SUBSCRIPTION });
          contextValue.stats.operationName = operation.name?.value ?? null;
          contextValue.stats.estimate = estimate;
          contextValue.stats.operationType = operation.operation;
          connection.add(id, { context: contextValue, startedAt: performance.now(), textLength: payload.query.length });
          return {
            schema,
            document: prepared.document,
            variableValues: payload.variables,
            operationName: payload.operationName,
            contextValue,
          };
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
        }
      },
      // The same error formatting as HTTP: codes from the table, tokens scrubbed. A mutation empties
      // the response cache before its result leaves, as over HTTP: its caller may read over HTTP next.
      onNext(ctx, id, _payload, _args, result) {
        if (running.get(ctx)?.get(id)?.context.stats.operationType === OperationTypeNode.MUTATION) options.onMutation?.();
        if (!result.errors) return undefined;
        return { ...result, errors: result.errors.map((error) => formatError(withoutHttpStatus(error.toJSON()), error)) };
      },
      onError(_ctx, _id, _payload, errors) {
        return errors.map((error) => formatError(withoutHttpStatus(error.toJSON()), error));
      },
      onComplete(ctx, id) {
        const operation = running.get(ctx)?.remove(id);
        if (operation) options.telemetry?.webSocketOperationEnded(operation.context, operation.startedAt);
      },
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
  return {
    handleUpgrade(request, socket, head) {
      wsServer.handleUpgrade(request, socket, head, (ws) => {
        ws.writesTo(socket, options.maxUnsentBytes);
        ws.limitsMessages(new TokenBucket(options.maxMessagesPerSecond, messageBurst(options.maxMessagesPerSecond, options.maxSubscriptionsPerConnection)));
        wsServer.emit('connection', ws, request);
      });
    },
    async close(): Promise<void> {
      await disposable.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

/** The message types of graphql-transport-ws that only a server sends. */
const SERVER_ONLY_MESSAGES: ReadonlySet<unknown> = new Set([MessageType.ConnectionAck, MessageType.Next, MessageType.Error]);

function isServerOnlyMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && SERVER_ONLY_MESSAGES.has((message as { type?: unknown }).type);
}

/**
 * No operation of the document answers to the operation name: graphql-js's words and Apollo's code
 * (OPERATION_RESOLUTION_FAILURE), as HTTP callers get them. A valid document holds an operation,
 * so without a name there must be several.
 */
function unresolvedOperation(operationName: string | null | undefined): GraphQLError {
  const message = operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.';
  return new GraphQLError(message, { extensions: { code: ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE } });
}

/**
 * The error without `extensions.http`, the HTTP status an error asks Apollo for (LIMIT_EXCEEDED's
 * 400), which Apollo reads and strips: a WebSocket message has no status to set.
 */
function withoutHttpStatus(error: GraphQLFormattedError): GraphQLFormattedError {
  if (!error.extensions || !('http' in error.extensions)) return error;
  const { http: _status, ...extensions } = error.extensions;
  return { ...error, extensions };
}

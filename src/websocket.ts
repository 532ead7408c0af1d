import type { Server } from 'node:http';
import { GraphQLError, parse, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { credentialFromConnectionParams } from './datasources/credentials.js';
import { RestError } from './datasources/rest-error.js';
import { formatError } from './errors.js';
import { GRAPHQL_PATH, type ContextFactory } from './http-handler.js';
import { checkOperationShape, checkQueryLength, limitExceeded, type QueryLimits } from './limits.js';
import { randomUUID } from 'node:crypto';

/**
 * graphql-ws (`graphql-transport-ws`) on the HTTP server's port and path. The credential comes
 * from the `connection_init` payload; a connection without one, or with one REST refuses, is
 * closed with 4403 Forbidden before any operation runs. Each operation gets a context from the
 * same factory as HTTP requests.
 */
export interface WebSocketOptions {
  limits: QueryLimits;
  maxSubscriptionsPerConnection: number;
}

export function attachWebSocketServer(httpServer: Server, schema: GraphQLSchema, createContext: ContextFactory, options: WebSocketOptions) {
  const { limits } = options;
  // A message larger than any allowed query (plus variables) is refused by ws itself (close 1009).
  const wsServer = new WebSocketServer({ server: httpServer, path: GRAPHQL_PATH, maxPayload: limits.maxQueryLength * 4 + 64 * 1024 });
  const disposable = useServer(
    {
      schema,
      connectionInitWaitTimeout: 10_000,
      async onConnect(ctx) {
        const credential = credentialFromConnectionParams(ctx.connectionParams);
        if (!credential) return false;
        try {
          await createContext(credential, randomUUID()).api.users.current();
          return true;
        } catch (error) {
          if (error instanceof RestError && (error.status === 401 || error.status === 403)) return false;
          throw error;
        }
      },
      // The HTTP limits, applied to operations over the socket too; refusals reach the client as errors.
      onSubscribe(ctx, _id, payload) {
        try {
          if (Object.keys(ctx.subscriptions).length >= options.maxSubscriptionsPerConnection) {
            throw limitExceeded(`This connection already holds ${options.maxSubscriptionsPerConnection} operations; close some first.`, 'subscriptions');
          }
          checkQueryLength(payload.query, limits);
          const document = parse(payload.query, { maxTokens: limits.maxTokens });
          checkOperationShape(document, payload.operationName, true, limits);
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
        }
        return undefined;
      },
      context: (ctx) => createContext(credentialFromConnectionParams(ctx.connectionParams), randomUUID()),
      // The same error formatting as HTTP: codes from the table, tokens scrubbed.
      onNext(_ctx, _id, _payload, _args, result) {
        if (!result.errors) return undefined;
        return { ...result, errors: result.errors.map((error) => formatError(error.toJSON(), error)) };
      },
      onError(_ctx, _id, _payload, errors) {
        return errors.map((error) => formatError(error.toJSON(), error));
      },
    },
    wsServer,
  );
  return {
    async close(): Promise<void> {
      await disposable.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

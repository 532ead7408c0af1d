import type { Server } from 'node:http';
import { getOperationAST, GraphQLError, OperationTypeNode, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { credentialFromConnectionParams } from './datasources/credentials.js';
import { RestError } from './datasources/rest-error.js';
import { formatError } from './errors.js';
import { GRAPHQL_PATH, type ContextFactory } from './http-handler.js';
import { checkOperationShape, checkQueryLength, limitExceeded, type QueryLimits } from './limits.js';
import { OperationCache } from './operation-cache.js';
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
  const operations = new OperationCache(schema, limits.maxTokens);
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
      // The HTTP limits apply over the socket too. The operation is prepared here, from the cache,
      // so graphql-ws neither parses nor validates it again; the context comes from the same
      // factory as HTTP requests.
      onSubscribe(ctx, _id, payload) {
        try {
          // graphql-ws has already recorded this operation in ctx.subscriptions.
          if (Object.keys(ctx.subscriptions).length > options.maxSubscriptionsPerConnection) {
            throw limitExceeded(`This connection already holds ${options.maxSubscriptionsPerConnection} operations; close some first.`, 'subscriptions');
          }
          checkQueryLength(payload.query, limits);
          const prepared = operations.prepare(payload.query);
          if ('errors' in prepared) return prepared.errors;
          checkOperationShape(prepared.document, payload.operationName, true, limits);
          return {
            schema,
            document: prepared.document,
            variableValues: payload.variables,
            operationName: payload.operationName,
            contextValue: createContext(credentialFromConnectionParams(ctx.connectionParams), randomUUID(), {
              longLived: getOperationAST(prepared.document, payload.operationName)?.operation === OperationTypeNode.SUBSCRIPTION,
            }),
          };
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
        }
      },
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

import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  OperationTypeNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { Context, SubscribePayload } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { Credential } from '../datasources/credentials.js';
import type { formatError } from '../errors/graphql-errors.js';
import type { Telemetry } from '../observability/telemetry.js';
import { startWebSocketOperation, webSocketOperationEnded, webSocketOperationFailed, type GatewayTracing } from '../observability/tracing.js';
import type { Admission } from '../policy/admission.js';
import type { CallerIdentity } from '../policy/caller-limits.js';
import { limitExceeded } from '../policy/limits.js';
import { ConnectionOperations } from './connection-operations.js';
import type { ContextFactory } from './http-handler.js';
import { OperationCache, withCode } from './operation-cache.js';

export type ConnectionContext = Context<Record<string, unknown> | undefined, Extra>;

export interface WebSocketOperationsOptions {
  /** The checks every transport's operations pass (policy/admission.ts). */
  admission: Admission;
  maxSubscriptionsPerConnection: number;
  /** Schema introspection (GatewayOptions.introspection): false refuses `__schema` and `__type` here too. */
  introspection: boolean;
  /** The credential a connection runs as, and its request id. */
  credentialOf: (ctx: ConnectionContext) => Credential | null;
  /** Who sent a connection's operations, for the caller limits: its own credential (not the service token) and address. */
  callerOf: (ctx: ConnectionContext) => CallerIdentity;
  requestIdFor: (ctx: ConnectionContext) => string;
  /** The same error formatting as HTTP: codes from the table, tokens and secrets scrubbed. */
  formatError: typeof formatError;
  /** Told of each operation at its end: its log line and duration (observability/telemetry.ts). */
  telemetry?: Pick<Telemetry, 'webSocketOperationEnded'> | undefined;
  /** Told of each mutation before its result is sent: the response cache empties, as for HTTP mutations. */
  onMutation?: (() => void) | undefined;
  /** OpenTelemetry traces, when on: a span per operation, continuing the `traceparent` of the `connection_init` payload or the upgrade request. */
  tracing?: GatewayTracing | undefined;
}

/**
 * What graphql-ws asks of the gateway for each operation of a connection: whether it may run, and
 * how (`subscribe`), how its results and errors are told (`next`, `error`), and its end (`complete`).
 * The HTTP limits apply over the socket too, through the same admission; the operation is prepared
 * from the cache, so graphql-ws neither parses nor validates it again; its context comes from the
 * same factory as HTTP requests.
 */
export class WebSocketOperations {
  private readonly documents: OperationCache;
  // The operations running on each connection, for their log line when they complete, and their count and text.
  private readonly running = new WeakMap<object, ConnectionOperations>();
  // What the operations of one connection may hold of query text at once. A running operation keeps
  // its parsed document, about 110 bytes per character of text at worst (operation-cache.ts): 100
  // operations near the length limit held some 100 MB; ten times the limit holds about 11 MB.
  private readonly maxRunningText: number;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly createContext: ContextFactory,
    private readonly options: WebSocketOperationsOptions,
  ) {
    const { limits } = options.admission;
    this.documents = new OperationCache(schema, limits.maxTokens, { introspection: options.introspection });
    this.maxRunningText = limits.maxQueryLength * 10;
  }

  /**
   * graphql-ws's onSubscribe: the arguments to run the operation with, or the errors that refuse it;
   * once Redis has answered when the caller limits are shared (the connection's room is then
   * checked again: other operations may have taken it meanwhile).
   */
  subscribe(ctx: ConnectionContext, id: string, payload: SubscribePayload): Admitted | Promise<Admitted> {
    try {
      const connection = this.operationsOf(ctx);
      const query = this.checkRoom(connection, payload);
      const prepared = this.documents.prepare(query);
      if ('errors' in prepared) return prepared.errors;
      // The operation and its variables, refused here with the codes HTTP callers get from Apollo
      // (graphql-ws would refuse them with no code at all). The variables are coerced again when
      // the operation runs; refusing them here costs one coercion, and no REST call.
      const operation = getOperationAST(prepared.document, payload.operationName);
      if (!operation) return [unresolvedOperation(payload.operationName)];
      const coerced = getVariableValues(this.schema, operation.variableDefinitions ?? [], payload.variables ?? {}, { maxErrors: 50 });
      if (coerced.errors) return coerced.errors.map((error) => withCode(error, ApolloServerErrorCode.BAD_USER_INPUT));
      const caller = this.options.callerOf(ctx);
      const estimate = this.options.admission.beforeExecution({ document: prepared.document, operationName: payload.operationName, variables: payload.variables, authenticated: true, caller });
      const start = (admitted: number, { recheck = false } = {}) => {
        if (recheck) {
          this.checkCount(connection);
          this.checkText(connection, query.length);
        }
        const contextValue = this.createContext(this.options.credentialOf(ctx), this.options.requestIdFor(ctx), { longLived: operation.operation === OperationTypeNode.SUBSCRIPTION, caller });
        Object.assign(contextValue.stats, { operationName: operation.name?.value ?? null, estimate: admitted, operationType: operation.operation });
        if (this.options.tracing) startWebSocketOperation(this.options.tracing, contextValue.stats, { connectionParams: ctx.connectionParams, headers: ctx.extra.request.headers });
        connection.add(id, { context: contextValue, startedAt: performance.now(), textLength: query.length });
        return { schema: this.schema, document: prepared.document, variableValues: payload.variables, operationName: payload.operationName, contextValue };
      };
      if (typeof estimate === 'number') return start(estimate);
      return estimate.then((admitted) => start(admitted, { recheck: true })).catch(refusalOf);
    } catch (error) {
      return refusalOf(error);
    }
  }

  /** graphql-ws's onNext: errors formatted as over HTTP; a mutation empties the response cache before its result leaves (its caller may read over HTTP next). */
  next(ctx: ConnectionContext, id: string, result: ExecutionResult): FormattedExecutionResult | undefined {
    if (this.running.get(ctx)?.get(id)?.context.stats.operationType === OperationTypeNode.MUTATION) this.options.onMutation?.();
    if (!result.errors) return undefined;
    const stats = this.running.get(ctx)?.get(id)?.context.stats;
    if (stats?.trace) webSocketOperationFailed(stats, result.errors);
    return { ...result, errors: result.errors.map((error) => this.format(error)) };
  }

  /** graphql-ws's onError: formatted as over HTTP. */
  error(errors: readonly GraphQLError[]): GraphQLFormattedError[] {
    return errors.map((error) => this.format(error));
  }

  /** graphql-ws's onComplete: the operation's log line. */
  complete(ctx: ConnectionContext, id: string): void {
    const operation = this.running.get(ctx)?.remove(id);
    if (operation) this.options.telemetry?.webSocketOperationEnded(operation.context, operation.startedAt);
    if (operation?.context.stats.trace) webSocketOperationEnded(operation.context.stats);
  }

  private operationsOf(ctx: ConnectionContext): ConnectionOperations {
    let operations = this.running.get(ctx);
    if (!operations) {
      operations = new ConnectionOperations({ operations: this.options.maxSubscriptionsPerConnection, text: this.maxRunningText }, (id) => Object.hasOwn(ctx.subscriptions, id));
      this.running.set(ctx, operations);
    }
    return operations;
  }

  /**
   * The connection's room for one more operation (its count, then its text), after the admission's
   * checks before parsing; returns the query text to parse (a trusted document's, for an id).
   */
  private checkRoom(connection: ConnectionOperations, payload: SubscribePayload): string {
    this.checkCount(connection);
    const [operation] = this.options.admission.beforeParsing([payload]);
    const query = (operation as SubscribePayload).query;
    this.checkText(connection, query.length);
    return query;
  }

  /** Room for one more operation on the connection. */
  private checkCount(connection: ConnectionOperations): void {
    const { maxSubscriptionsPerConnection } = this.options;
    if (connection.count >= maxSubscriptionsPerConnection) {
      throw limitExceeded(`This connection already holds ${maxSubscriptionsPerConnection} operations; close some first.`, 'subscriptions');
    }
  }

  /** Room for `textLength` more characters of query text on the connection. */
  private checkText(connection: ConnectionOperations, textLength: number): void {
    const held = connection.textLength(textLength);
    if (held + textLength > this.maxRunningText) {
      throw limitExceeded(
        `The operations this connection holds have ${held} characters of query text, and this one ${textLength}: at most ${this.maxRunningText} at once; close some first.`,
        'operationText',
      );
    }
  }

  private format(error: GraphQLError): GraphQLFormattedError {
    return this.options.formatError(withoutHttpStatus(error.toJSON()), error);
  }
}

/** What onSubscribe answers: the arguments to run an operation with, or the errors that refuse it. */
type Admitted = ExecutionArgs | readonly GraphQLError[];

const refusalOf = (error: unknown): readonly GraphQLError[] => [error instanceof GraphQLError ? error : new GraphQLError(String(error))];

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

import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';

export type PreparedOperation = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/**
 * Parsed and validated documents by query text, for operations that arrive over WebSocket: many
 * clients subscribe with the same text, and parsing and validating it for each one cost most of a
 * subscription's CPU and memory (bench: subscriptions). Bounded; the oldest text leaves first.
 * Apollo Server keeps the same kind of cache for HTTP requests.
 *
 * It validates as Apollo does over HTTP, so that both transports refuse the same documents with
 * the same codes: GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, and with introspection off,
 * `__schema` and `__type` (GatewayOptions.introspection; before, any signed-in socket could read
 * the whole schema while HTTP refused it).
 */
export class OperationCache {
  private readonly entries = new Map<string, PreparedOperation>();
  private readonly rules: readonly ValidationRule[];
  private readonly capacity: number;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly maxTokens: number,
    options: { introspection: boolean; capacity?: number },
  ) {
    this.rules = options.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
    this.capacity = options.capacity ?? 1_000;
  }

  prepare(query: string): PreparedOperation {
    const cached = this.entries.get(query);
    if (cached) {
      // Re-inserting marks the text as recently used.
      this.entries.delete(query);
      this.entries.set(query, cached);
      return cached;
    }
    const prepared = this.compile(query);
    this.entries.set(query, prepared);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return prepared;
  }

  private compile(query: string): PreparedOperation {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.maxTokens });
    } catch (error) {
      return { errors: [withCode(error as GraphQLError, ApolloServerErrorCode.GRAPHQL_PARSE_FAILED)] };
    }
    const errors = validate(this.schema, document, this.rules);
    return errors.length > 0 ? { errors: errors.map((error) => withCode(error, ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED)) } : { document };
  }
}

/** The error with Apollo's code for its phase, as HTTP callers get it. */
export function withCode(error: GraphQLError, code: ApolloServerErrorCode): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}

import { parse, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';

export type PreparedOperation = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/**
 * Parsed and validated documents by query text, for operations that arrive over WebSocket: many
 * clients subscribe with the same text, and parsing and validating it for each one cost most of a
 * subscription's CPU and memory (bench: subscriptions). Bounded; the oldest text leaves first.
 * Apollo Server keeps the same kind of cache for HTTP requests.
 */
export class OperationCache {
  private readonly entries = new Map<string, PreparedOperation>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly maxTokens: number,
    private readonly capacity = 1_000,
  ) {}

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
      return { errors: [error as GraphQLError] };
    }
    const errors = validate(this.schema, document);
    return errors.length > 0 ? { errors } : { document };
  }
}

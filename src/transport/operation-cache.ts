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

/** 200,000 characters: twenty documents at the 10,000-character limit, or a thousand of 200. */
export const DEFAULT_MAX_CACHED_CHARACTERS = 200_000;

export type PreparedOperation = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/**
 * Parsed and validated documents by query text, for operations that arrive over WebSocket: many
 * clients subscribe with the same text, and parsing and validating it for each one cost most of a
 * subscription's CPU and memory (bench: subscriptions). Apollo Server keeps the same kind of cache
 * for HTTP requests.
 *
 * Bounded by entries and by the length of the texts it holds, the least recently used leaving
 * first. A count alone did not bound memory: a document near the length limit (10,000 characters,
 * such as one field under 1,200 aliases, which validates; the alias limit applies to the operation
 * afterwards) parses into about 1 MB of syntax tree and tokens, so a client sending 1,000 distinct
 * ones made the cache hold 1 GB. Held to `maxCharacters` of text, it holds some 110 bytes per
 * character at worst: about 21 MB.
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
  private readonly maxCharacters: number;
  /** The total length of the texts held. */
  private characters = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly maxTokens: number,
    options: { introspection: boolean; capacity?: number; maxCharacters?: number },
  ) {
    this.rules = options.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
    this.capacity = options.capacity ?? 1_000;
    this.maxCharacters = options.maxCharacters ?? DEFAULT_MAX_CACHED_CHARACTERS;
  }

  /** Texts held, and their total length. */
  get size(): { entries: number; characters: number } {
    return { entries: this.entries.size, characters: this.characters };
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
    this.characters += query.length;
    while (this.entries.size > this.capacity || this.characters > this.maxCharacters) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.characters -= oldest.length;
    }
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

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
import { BoundedCache } from '../caching/bounded-cache.js';

/**
 * Parsed documents held at once, by the length of their query text: 200,000 characters, twenty
 * documents at the 10,000-character limit or a thousand of 200. A document near that limit (one
 * field under 1,200 aliases validates; the alias limit applies to the operation afterwards) parses
 * into about 1 MB of syntax tree and tokens, some 110 bytes per character: about 21 MB at worst.
 */
export const MAX_CACHED_DOCUMENT_CHARACTERS = 200_000;
export const MAX_CACHED_DOCUMENTS = 1_000;

export type PreparedOperation = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/**
 * Parsed and validated documents by query text, for operations that arrive over WebSocket: many
 * clients subscribe with the same text, and parsing and validating it for each one cost most of a
 * subscription's CPU and memory (bench: subscriptions). Apollo Server keeps the same kind of store
 * for HTTP requests. Bounded by count and by the length of the texts held, the least recently used
 * leaving first: a count alone did not bound memory, 1,000 distinct documents near the length limit
 * held 1 GB.
 *
 * It validates as Apollo does over HTTP, so that both transports refuse the same documents with
 * the same codes: GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, and with introspection off,
 * `__schema` and `__type` (GatewayOptions.introspection; before, any signed-in socket could read
 * the whole schema while HTTP refused it).
 */
export class OperationCache {
  private readonly entries: BoundedCache<{ prepared: PreparedOperation; textLength: number }>;
  private readonly rules: readonly ValidationRule[];

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly maxTokens: number,
    options: { introspection: boolean; capacity?: number; maxCharacters?: number },
  ) {
    this.rules = options.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
    this.entries = new BoundedCache({
      maxEntries: options.capacity ?? MAX_CACHED_DOCUMENTS,
      maxSize: options.maxCharacters ?? MAX_CACHED_DOCUMENT_CHARACTERS,
      sizeOf: (entry) => entry.textLength,
    });
  }

  /** Texts held, and their total length. */
  get size(): { entries: number; characters: number } {
    return { entries: this.entries.size, characters: this.entries.occupied };
  }

  prepare(query: string): PreparedOperation {
    const cached = this.entries.get(query);
    if (cached) return cached.prepared;
    const prepared = this.compile(query);
    this.entries.set(query, { prepared, textLength: query.length });
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

import { createHash } from 'node:crypto';
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { OperationTypeNode } from 'graphql';
import type { GatewayContext } from '../server/context.js';
import type { Credential } from '../datasources/credentials.js';
import type { ResponseStore } from '../shared-state/response-store.js';
import { BoundedCache } from './bounded-cache.js';

/** Queries kept for automatic persisted queries; each is at most MAX_QUERY_LENGTH characters. */
export const PERSISTED_QUERY_ENTRIES = 1_000;

/**
 * The store of automatic persisted queries, in the shape Apollo's `persistedQueries.cache` takes
 * (its KeyValueCache: async get, set and delete). Bounded by count, least recently used first out.
 */
export function persistedQueryStore(maxEntries = PERSISTED_QUERY_ENTRIES) {
  const cache = new BoundedCache<string>({ maxEntries });
  return {
    get: (key: string) => Promise.resolve(cache.get(key)),
    set: (key: string, value: string) => Promise.resolve(cache.set(key, value)),
    delete: (key: string) => Promise.resolve(cache.delete(key)),
  };
}

/** The response cache: its Apollo plugin (queries over HTTP), and the hook for mutations that run without Apollo. */
export interface ResponseCache {
  plugin: ApolloServerPlugin<GatewayContext>;
  /** Empties the cache after a mutation, whichever transport carried it, so that callers read their own writes. */
  mutationRan: () => void;
}

/**
 * JSON with object keys sorted, so that `{a, b}` and `{b, a}` variables are one key.
 *
 * Iterative, with a stack of its own: variables are the caller's JSON, and a list nested 10,000
 * deep in a 20 KB body overflowed the call stack of a recursive walk (HTTP 500 before the
 * variables were even coerced). The work is linear in the variables' size whatever their depth.
 * Only leaves and keys go through JSON.stringify, which recurses too.
 */
function stableJson(value: unknown): string {
  const parts: string[] = [];
  // What is left to write, last first: values to walk, or text written as is (`,`, `]`, `"key":`).
  const pending: Array<{ value: unknown } | string> = [{ value }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === 'string') {
      parts.push(next);
      continue;
    }
    const item = next.value;
    if (Array.isArray(item)) {
      parts.push('[');
      pending.push(']');
      for (let index = item.length - 1; index >= 0; index--) {
        pending.push({ value: item[index] as unknown });
        if (index > 0) pending.push(',');
      }
    } else if (item && typeof item === 'object') {
      const entries = Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      parts.push('{');
      pending.push('}');
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, member] = entries[index]!;
        pending.push({ value: member }, `${JSON.stringify(key)}:`);
        if (index > 0) pending.push(',');
      }
    } else {
      parts.push(JSON.stringify(item) ?? 'null');
    }
  }
  return parts.join('');
}

/**
 * The cache key: a hash of the credential (kind and value: never kept in clear), the query text,
 * the operation name and the variables. Two credentials can never meet on one key.
 */
export function responseCacheKey(
  credential: Credential | null,
  query: string,
  operationName: string | null | undefined,
  variables: unknown,
): string {
  return createHash('sha256')
    .update(credential ? `${credential.kind}\0${credential.value}` : 'anonymous')
    .update('\0')
    .update(query)
    .update('\0')
    .update(operationName ?? '')
    .update('\0')
    .update(stableJson(variables ?? {}))
    .digest('base64url');
}

/**
 * The response cache, off by default: a query's `data` reused for the same credential, query,
 * operation name and variables for `ttlMs`.
 *
 * It is an Apollo plugin rather than a step of the HTTP handler so that a hit still passes what
 * every operation passes first: parsing, validation and the limits of `didResolveOperation`
 * (limits.ts), and so that only queries are cached — Apollo's `responseForOperation` runs once
 * the operation and its type are known. Mutations and subscriptions are never cached; a response
 * with errors is not stored; a mutation through the gateway empties the cache, so that callers read
 * their own writes (changes made in GitLab directly show once the entries expire). Entries are the
 * serialized JSON, parsed afresh on each hit: no two responses share an object. Over WebSocket
 * operations are not cached, but their mutations empty it all the same (`mutationRan`, called by
 * websocket.ts): graphql-ws runs them without Apollo, so the plugin never sees them.
 *
 * The entries live in `store`: this process's memory, or Redis shared by every replica
 * (shared-state/response-store.ts), where a mutation on one replica empties the cache of all.
 */
export function createResponseCache(store: ResponseStore, onLookup?: (hit: boolean) => void): ResponseCache {
  const mutationRan = () => void store.clear();
  const plugin: ApolloServerPlugin<GatewayContext> = {
    requestDidStart() {
      let key: string | undefined;
      /** The store's generation at the lookup: a miss's answer is kept only if no mutation came since. */
      let generation: string | undefined;
      return Promise.resolve({
        async responseForOperation({ operation, source, request, contextValue }) {
          if (operation.operation !== OperationTypeNode.QUERY) return null;
          key = responseCacheKey(contextValue.credential, source, request.operationName, request.variables);
          const found = await store.lookup(key);
          generation = found.generation;
          onLookup?.(found.json !== undefined);
          if (found.json === undefined) return null;
          contextValue.stats.cached = true;
          return {
            http: { status: undefined, headers: new HeaderMap() },
            body: { kind: 'single' as const, singleResult: { data: JSON.parse(found.json) as Record<string, unknown> } },
          };
        },
        async willSendResponse({ operation, response, contextValue }) {
          if (operation?.operation === OperationTypeNode.MUTATION) await store.clear();
          if (key === undefined || generation === undefined || contextValue.stats.cached || response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          if (!errors?.length && data) await store.store(key, JSON.stringify(data), generation);
        },
      });
    },
  };
  return { plugin, mutationRan };
}

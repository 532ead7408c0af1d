import type { GatewayLogger } from '../observability/logger.js';
import { credentialDigest, keyedDigest, type CredentialDigest } from './credential-digest.js';
import type { SharedStore } from './fallback.js';
import { sharedPersistedQueryStore } from './persisted-query-store.js';
import { RedisLink } from './redis-link.js';
import { MemoryResponseStore, RedisResponseStore, sharedResponseStore, type ResponseStore, type ResponseStoreBounds } from './response-store.js';
import type { ServedReferenceKind } from '../caching/served-references.js';
import { RedisServedReferenceStore } from './served-reference-store.js';
import { RedisBoardPlaceStore } from './board-place-store.js';
import { RedisPollerCoordination } from './poller-leases.js';
import { RedisUpstreamQuotaSharing } from './upstream-quota-store.js';
import type { UpstreamQuota } from '../datasources/upstream-quota.js';

/** The gateway's `redis` option: replicas that share state through one Redis. */
export interface RedisSharingOptions {
  /** `redis://[:password@]host:port[/db]`, or `rediss://` for TLS. A standalone Redis (not Cluster). */
  url: string;
  /**
   * The secret of the keyed hash that names credentials in Redis (never the token itself). Every
   * replica of a deployment must have the same; at least 16 characters.
   */
  keySecret: string;
  /** Put before every key and channel, so that deployments can share a Redis (default `gitlab-graphql-gateway:`). */
  keyPrefix?: string;
  /** Longest wait for one Redis command before falling back to memory (default 1000 ms). */
  commandTimeoutMs?: number;
}

export const DEFAULT_REDIS_KEY_PREFIX = 'gitlab-graphql-gateway:';
export const MIN_KEY_SECRET_LENGTH = 16;

/**
 * What replicas share: poller leases (runners, issues) and their channels, the issues each
 * credential was served, where boards and lists live, persisted queries, and (response-store.ts)
 * the response cache. Built with the gateway, connected by its start: `ioredis` is loaded then.
 */
export class ReplicaSharing {
  readonly link: RedisLink;
  readonly credentialDigest: CredentialDigest;
  private readonly hashKey: (key: string) => string;

  constructor(
    options: RedisSharingOptions,
    logger: GatewayLogger,
    private readonly onFallback: (store: SharedStore) => void,
  ) {
    if (options.keySecret.length < MIN_KEY_SECRET_LENGTH) {
      throw new TypeError(`redis.keySecret must have at least ${MIN_KEY_SECRET_LENGTH} characters.`);
    }
    this.link = new RedisLink({
      url: options.url,
      keyPrefix: options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX,
      ...(options.commandTimeoutMs !== undefined ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
      logger,
    });
    this.credentialDigest = credentialDigest(options.keySecret);
    this.hashKey = keyedDigest(options.keySecret);
  }

  pollerCoordination(intervalMs: number): RedisPollerCoordination {
    return new RedisPollerCoordination(this.link, intervalMs);
  }

  /**
   * What each credential was served of one kind of record, at most `perCredential` each, so that any
   * replica acts on it by ID (issues to subscribe to, discussions to resolve).
   */
  servedReferenceStore<Id extends string | number, Place>(kind: ServedReferenceKind<Place>, perCredential: number): RedisServedReferenceStore<Id, Place> {
    return new RedisServedReferenceStore(this.link, kind, perCredential);
  }

  /** GitLab's rate-limit figures, published and heard by every replica (upstream-quota-store.ts). */
  shareUpstreamQuota(quota: UpstreamQuota): void {
    const sharing = new RedisUpstreamQuotaSharing(this.link, (digest, figures) => quota.merge(digest, figures));
    quota.shareWith(sharing);
    void sharing.listen();
  }

  /** Where boards and lists live, so that any replica can act on a board another one served. */
  boardPlaceStore(): RedisBoardPlaceStore {
    return new RedisBoardPlaceStore(this.link);
  }

  persistedQueryStore(maxEntries: number): ReturnType<typeof sharedPersistedQueryStore> {
    return sharedPersistedQueryStore({ link: this.link, maxEntries, onFallback: this.fallbackCounter('persisted_queries') });
  }

  responseStore(bounds: ResponseStoreBounds): ResponseStore {
    return sharedResponseStore(
      this.link,
      new RedisResponseStore(this.link, this.hashKey, bounds),
      new MemoryResponseStore(bounds),
      this.fallbackCounter('response_cache'),
    );
  }

  /** Counts one store's fallbacks to memory. */
  fallbackCounter(store: SharedStore): () => void {
    return () => this.onFallback(store);
  }

  /**
   * For /readyz. A gateway whose Redis is down or not answering still serves every operation
   * (pollers poll locally, stores use memory), so it stays ready: taking every replica out of the
   * load balancer would turn a cache outage into a full one. The fields (`redisReason`: unreachable
   * or not answering), the warn line and `gateway_redis_up` tell operators.
   */
  readinessDetails = (): Record<string, string> => {
    const health = this.link.health;
    return health === 'connected' ? { redis: health } : { redis: 'degraded', redisReason: health };
  };

  connect(): Promise<void> {
    return this.link.connect();
  }

  close(): Promise<void> {
    return this.link.close();
  }
}

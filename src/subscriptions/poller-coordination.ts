/**
 * How the pollers of several replicas share the work: for each watched (credential, record) key,
 * which replica polls it, and how what it saw reaches the subscribers of the others. Alone, a
 * replica polls every key it watches (`localCoordination`); with Redis, one replica holds a lease
 * per key and publishes each poll (shared-state/poller-leases.ts).
 */
export interface PollerCoordination {
  /**
   * Joins a key of a topic (`runner`, `issue`) this replica has subscribers for. `receive` is
   * called with what the replica that polls the key published (never with this replica's own messages).
   */
  join(topic: string, key: string, receive: (message: unknown) => void): PollerMembership;
}

export interface PollerMembership {
  /**
   * Starts competing to poll the key, once the first poll has shown the caller may see the record:
   * a caller refused it never holds a lease, not even briefly.
   */
  compete(): void;
  /** Whether this replica polls the key now: it holds the lease, or it cannot reach the others. */
  readonly polls: boolean;
  /** Sends what a poll saw (JSON) to the other replicas watching the key, while holding its lease. */
  publish(message: unknown): void;
  /** This replica's last subscriber for the key left: let another replica take it over. */
  leave(): Promise<void>;
}

/** A replica on its own: it polls whatever it watches, and has nobody to tell. */
export const localCoordination: PollerCoordination = {
  join: () => ({ compete: () => {}, polls: true, publish: () => {}, leave: () => Promise.resolve() }),
};

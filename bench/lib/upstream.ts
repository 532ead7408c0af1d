// How every column of the bench reaches the embedded v4 server: plain HTTP/1.1, or (--upstream-h2)
// HTTP/2 over TLS with the server's self-signed certificate as the CA. One place for the undici
// options, so that the REST client, the naive BFF, the pass-through and the driver's load pools
// all speak to it the same way the gateway does.
import { Pool } from 'undici';

/**
 * Streams one h2 connection carries at once: undici's `maxConcurrentStreams` default and the
 * gateway's DEFAULT_STREAMS_PER_CONNECTION (src/datasources/rest-client.ts).
 */
export const STREAMS_PER_CONNECTION = 100;

/** The v4 server over TLS: its origin and the certificate to trust. Undefined: plain HTTP/1.1. */
export interface UpstreamTls {
  origin: string;
  ca: string;
}

/**
 * The undici Pool options that reach the v4 server over h2. undici 7 admits calls to each
 * connection by its `pipelining` factor even once ALPN chose h2 (nodejs/undici#4143): without
 * `pipelining: STREAMS_PER_CONNECTION` an h2 connection would carry one call at a time. Raising it
 * is safe only because the upstream is known to speak h2: over HTTP/1.1 it would queue calls
 * behind each other on one socket.
 */
export function h2PoolOptions(ca: string): Pool.Options {
  return { allowH2: true, connect: { ca }, pipelining: STREAMS_PER_CONNECTION, maxConcurrentStreams: STREAMS_PER_CONNECTION };
}

/** A Pool to `origin`: over h2 with `tls` when `origin` is the TLS upstream's, else as `options` say. */
export function upstreamPool(origin: string, options: Pool.Options, tls: UpstreamTls | undefined): Pool {
  const h2 = tls !== undefined && new URL(origin).origin === tls.origin;
  return new Pool(new URL(origin).origin, { ...options, ...(h2 ? h2PoolOptions(tls.ca) : {}) });
}

/** What the v4 server saw of one column's calls: HTTP versions and connections (ProtocolTally). */
export interface ColumnProtocols {
  label: string;
  tallies: Array<{ calls: Record<string, number>; connections: number }>;
}

/**
 * One note line: the protocol each column's REST calls came over, as the v4 server's traffic log
 * tells it (not as the bench asked), e.g. `gateway HTTP/2.0 (2412 calls, at most 2 connections in a
 * loop)`. A column whose calls came over more than one version shows each.
 */
export function protocolNote(columns: ColumnProtocols[]): string {
  const parts = columns.map(({ label, tallies }) => {
    const calls: Record<string, number> = {};
    for (const tally of tallies) for (const [version, count] of Object.entries(tally.calls)) calls[version] = (calls[version] ?? 0) + count;
    const versions = Object.entries(calls)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([version, count]) => `HTTP/${version} (${count} calls)`);
    const most = Math.max(0, ...tallies.map((tally) => tally.connections));
    return `${label} ${versions.length ? versions.join(' + ') : 'no calls'}, at most ${most} connection(s) in one loop`;
  });
  return `Upstream protocol, from the v4 server's traffic log: ${parts.join('; ')}.`;
}

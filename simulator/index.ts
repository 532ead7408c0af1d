// The embedded v4 server: a stateful simulator of GitLab's REST API v4 over real HTTP
// (DESIGN.md "The embedded v4 server"). Never imports src/.
import { createServer } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { createDemoState } from './data/seed/index.js';
import { seedLoadTestUsers } from './data/seed/load-test-users.js';
import type { SimulatorState } from './data/state.js';
import type { RecordedRequest, TrafficEvent } from './http/control.js';
import { FaultRegistry, type FaultSpec } from './http/faults.js';
import { selfSignedCertificate } from './http/certificate.js';
import { RateLimiter, type SimulatorRateLimits } from './http/rate-limits.js';
import { CONNECTION_NUMBER, createListener } from './http/server.js';
import { createRouter } from './routes/index.js';

export { DEMO_TOKENS, SPECIAL_TOKENS, USER_IDS, RUNNER_IDS, BUSY_RUNNERS, createDemoState } from './data/seed/index.js';
export { ARTIFACTS_DEMO_PROJECT_ID, DEMO_JOB_TOKEN } from './data/seed/index.js';
export { loadTestToken, loadTestUsername, loadTestProjectPath, loadTestRunnerDescription } from './data/seed/load-test-users.js';
export { SimulatorState } from './data/state.js';
export * from './data/model.js';
export type { RecordedRequest, TrafficEvent } from './http/control.js';
export type { FaultKind, FaultSpec } from './http/faults.js';
export type { RateLimit, SimulatorRateLimits } from './http/rate-limits.js';
export { parseRateLimit } from './http/rate-limits.js';

/**
 * How long an idle keep-alive connection stays open, as GitLab's own web server keeps it: Omnibus
 * GitLab's NGINX has `keepalive_timeout 65` (omnibus-gitlab, gitlab-cookbooks/gitlab/attributes/
 * default.rb, `default['gitlab']['nginx']['keepalive_timeout'] = 65`, written into nginx.conf.erb
 * with no header timeout, so NGINX announces none). Node's default is 5 s, announced in a
 * `Keep-Alive: timeout=5` header that undici honours less 2 s: a client idle for 3 s (between the
 * bench's measured rounds, or between a frontend's page views) reopened all its connections, which
 * GitLab would have kept. Node announces this timeout too (timeout=65); undici then keeps 63 s.
 */
export const GITLAB_KEEP_ALIVE_MS = 65_000;

export interface SimulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Delay added before answering each /api/v4 request. */
  latencyMs?: number;
  /** Users 1..n of the load-test family (`glpat-load-<n>`, data/seed/load-test-users.ts); none by default. */
  loadTestUsers?: number;
  /**
   * Serve HTTPS, offering HTTP/2 (ALPN `h2`) and HTTP/1.1 on the same port, with a self-signed
   * certificate for 127.0.0.1, ::1 and localhost made at start (`ca`). Default: plain HTTP/1.1.
   */
  tls?: boolean;
  /**
   * GitLab's user and IP rate limits (Rack::Attack's `throttle_authenticated_api` per user and
   * `throttle_unauthenticated_api` per client IP, rest-conventions §9): each off unless given.
   * While one applies, every /api/v4 answer carries the RateLimit-* headers, and a request past the
   * limit is answered 429 `Retry later` without being routed (it is still recorded in `requests`).
   */
  rateLimits?: SimulatorRateLimits;
}

export interface SimulatorFaults {
  /** Adds a fault; returns its id. */
  add(fault: FaultSpec): string;
  remove(id: string): boolean;
  clear(): void;
}

export interface Simulator {
  /** API base, what a client sets as V4_URL: `http://127.0.0.1:PORT/api/v4` (`https://` with `tls`). */
  readonly url: string;
  /** `http://127.0.0.1:PORT`; also the host of `Link` headers and `web_url`s. */
  readonly origin: string;
  /** With `tls`: the certificate (PEM), self-signed, so the CA a client must trust. */
  readonly ca: string | undefined;
  /** Every request received under /api/v4, in arrival order (faulted ones too). */
  readonly requests: RecordedRequest[];
  /** Arrivals and answers of /api/v4 requests in the order they happened (emptied with the requests). */
  readonly traffic: TrafficEvent[];
  resetRequests(): void;
  setLatency(ms: number): void;
  /** Replaces the rate limits (undefined turns them off) and starts every count from zero. */
  setRateLimits(limits: SimulatorRateLimits | undefined): void;
  readonly faults: SimulatorFaults;
  /** The in-memory data; tests may read and change it. */
  readonly state: SimulatorState;
  /** Stops listening and destroys every socket, including requests held by a `timeout` fault. */
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const state = createDemoState();
  if (options.loadTestUsers) seedLoadTestUsers(state, options.loadTestUsers);
  const router = createRouter();
  const faults = new FaultRegistry();
  const rateLimits = new RateLimiter(options.rateLimits);
  const requests: RecordedRequest[] = [];
  const traffic: TrafficEvent[] = [];
  const timers = new Map<NodeJS.Timeout, () => void>();
  let latencyMs = Math.max(0, options.latencyMs ?? 0);
  let closing = false;
  let origin = '';

  const listener = createListener({
    state,
    router,
    rateLimits,
    faults,
    requests,
    traffic,
    origin: () => origin,
    latencyMs: () => latencyMs,
    setLatency: (ms) => {
      latencyMs = Math.max(0, ms);
    },
    closing: () => closing,
    delay: (ms) =>
      new Promise<void>((resolve) => {
        if (ms <= 0 || closing) return resolve();
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.set(timer, resolve);
      }),
  });
  const certificate = options.tls ? selfSignedCertificate() : undefined;
  const server = certificate
    ? // node:http2's compatibility API gives the listener what it uses of node:http's request and
      // response (url, method, headers, the body stream, socket.destroy, writeHead, end), and
      // HTTP/1.1 clients get node:http's own objects.
      createSecureServer(
        { allowHTTP1: true, key: certificate.key, cert: certificate.cert },
        listener as unknown as (req: Http2ServerRequest, res: Http2ServerResponse) => void,
      )
    : createServer(listener);
  // Over TLS too: node:http2 serves its HTTP/1.1 clients with node:http's connection handling,
  // which reads this property (one its types leave out).
  Object.assign(server, { keepAliveTimeout: GITLAB_KEEP_ALIVE_MS });
  // Numbers each connection as it opens, for TrafficEvent.connection (over TLS once the handshake is
  // done). An HTTP/2 server has no closeAllConnections(): close() destroys the TLS sockets kept here.
  let connections = 0;
  const tlsSockets = new Set<Socket>();
  server.on(certificate ? 'secureConnection' : 'connection', (socket: Socket & { [CONNECTION_NUMBER]?: number }) => {
    socket[CONNECTION_NUMBER] = ++connections;
    if (!certificate) return;
    tlsSockets.add(socket);
    socket.once('close', () => tlsSockets.delete(socket));
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `${certificate ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closed: Promise<void> | undefined;
  return {
    url: `${origin}/api/v4`,
    origin,
    ca: certificate?.cert,
    requests,
    traffic,
    resetRequests: () => {
      requests.length = 0;
      traffic.length = 0;
    },
    setLatency: (ms) => {
      latencyMs = Math.max(0, ms);
    },
    setRateLimits: (limits) => rateLimits.set(limits),
    faults: {
      add: (fault) => faults.add(fault),
      remove: (id) => faults.remove(id),
      clear: () => faults.clear(),
    },
    state,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        closing = true;
        for (const [timer, resolveDelay] of timers) {
          clearTimeout(timer);
          resolveDelay();
        }
        timers.clear();
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
        for (const socket of tlsSockets) socket.destroy();
      });
      return closed;
    },
  };
}

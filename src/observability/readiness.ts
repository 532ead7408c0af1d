import type { ServerResponse } from 'node:http';
import type { RestClient } from '../datasources/rest-client.js';
import { RestError } from '../datasources/rest-error.js';

export type Readiness = { ready: true } | { ready: false; reason: string };

export interface ReadinessOptions {
  restClient: RestClient;
  /** How long the probe waits for the upstream. */
  timeoutMs: number;
  /** How long one answer is reused, so that a storm of probes costs the upstream one call. */
  cacheMs?: number;
  /**
   * Facts added to every answer that do not decide readiness: `{ redis: 'degraded' }` while the
   * replicas' shared Redis is unreachable (the gateway still serves, from memory).
   */
  details?: () => Record<string, string>;
}

/**
 * `/readyz`: the gateway can serve when its upstream answers and it is not shutting down.
 *
 * The probe is `GET /version` without a credential: the cheapest call GitLab has. GitLab answers it
 * 401 to anonymous callers (the embedded server 404), and any answer below 500 but a redirect proves the upstream reachable; no
 * answer in time, a refused connection, 5xx, or an open circuit breaker mean not ready. The
 * gateway holds no credential of its own to spend on probes. Answers are reused for `cacheMs`
 * and concurrent probes share one call.
 */
export class ReadinessProbe {
  private draining = false;
  private last: { at: number; result: Readiness } | undefined;
  private pending: Promise<Readiness> | undefined;
  private readonly cacheMs: number;

  constructor(private readonly options: ReadinessOptions) {
    this.cacheMs = options.cacheMs ?? 1_000;
  }

  /** From now on the gateway is not ready: it is shutting down. */
  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async check(requestId?: string): Promise<Readiness> {
    if (this.draining) return { ready: false, reason: 'shutting down' };
    if (this.last && Date.now() - this.last.at < this.cacheMs) return this.last.result;
    this.pending ??= this.probe(requestId).then((result) => {
      this.last = { at: Date.now(), result };
      this.pending = undefined;
      return result;
    });
    return this.pending;
  }

  /** Answers GET /readyz: 200 when ready, 503 with the reason when not. */
  async serve(res: ServerResponse, requestId: string): Promise<void> {
    const result = await this.check(requestId);
    res.writeHead(result.ready ? 200 : 503, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    const details = this.options.details?.() ?? {};
    res.end(
      JSON.stringify(
        result.ready
          ? { status: 'ready', ...details }
          : { status: this.draining ? 'draining' : 'unavailable', reason: result.reason, ...details },
      ),
    );
  }

  private async probe(requestId: string | undefined): Promise<Readiness> {
    try {
      await this.options.restClient.request({
        method: 'GET',
        path: '/version',
        credential: null,
        requestId,
        deadline: Date.now() + this.options.timeoutMs,
      });
      return { ready: true };
    } catch (error) {
      if (!(error instanceof RestError)) return { ready: false, reason: 'the probe failed in the gateway' };
      // A redirect means V4_URL does not point at the REST API (http:// in front of an https-only
      // GitLab, say): every field would fail, so a rolling deploy with that setting must halt here.
      if (error.status >= 300 && error.status < 400) return { ready: false, reason: `the upstream redirects (${error.status}): V4_URL does not point at its REST API; the log names where it redirects` };
      if (error.status > 0 && error.status < 500) return { ready: true };
      return { ready: false, reason: unreachableReason(error, this.options.timeoutMs) };
    }
  }
}

function unreachableReason(error: RestError, timeoutMs: number): string {
  switch (error.failure) {
    case 'timeout':
    case 'deadline':
      return `the upstream did not answer within ${timeoutMs} ms`;
    case 'connection':
      return 'the upstream refused or dropped the connection';
    case 'circuit-open':
      return 'the circuit breaker is open after repeated upstream faults';
    case 'malformed-body':
    case 'oversized-answer':
      return 'the upstream sent a malformed answer';
    default:
      return `the upstream answered ${error.status}`;
  }
}

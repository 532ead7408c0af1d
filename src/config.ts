import { DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits.js';

/**
 * The gateway's settings, read from the environment here and nowhere else. Every bad value is
 * reported at once, with what was expected, so a misconfigured start fails clearly.
 */
export interface GatewayConfig {
  /** Port to listen on (`PORT`, default 4000; 0 picks a free one). */
  port: number;
  /** Interface to listen on (`HOST`, default 127.0.0.1). */
  host: string;
  /** Base URL of the REST API, with `/api/v4` (`V4_URL`); unset starts the embedded v4 server. */
  upstreamUrl: string | undefined;
  /** Milliseconds to wait for REST headers and body (`UPSTREAM_TIMEOUT_MS`, default 10000). */
  upstreamTimeoutMs: number;
  /** Connections kept to the upstream at most (`UPSTREAM_CONNECTIONS`, default 64). */
  upstreamConnections: number;
  /** Attempts for a REST read that meets a passing fault (`UPSTREAM_RETRY_ATTEMPTS`, default 3; 1 = none). */
  upstreamRetryAttempts: number;
  /** Consecutive upstream faults that open the circuit (`CIRCUIT_BREAKER_FAILURES`, default 5; 0 = no breaker). */
  circuitBreakerFailures: number;
  /** How long an open circuit refuses calls (`CIRCUIT_BREAKER_COOLDOWN_MS`, default 5000). */
  circuitBreakerCooldownMs: number;
  /** Milliseconds between two polls of a watched runner (`RUNNER_POLL_INTERVAL_MS`, default 5000). */
  runnerPollIntervalMs: number;
  /** DataLoader batching and per-request caching (`BATCHING`, default on); off only to measure. */
  batching: boolean;
  /** Apollo Sandbox landing page on GET /graphql (`LANDING_PAGE`, default on). */
  landingPage: boolean;
  /** Schema introspection (`INTROSPECTION`, default on). */
  introspection: boolean;
  /** Limits on operations (`MAX_QUERY_LENGTH`, `MAX_QUERY_TOKENS`, `MAX_DEPTH_ANONYMOUS`, `MAX_DEPTH`, `MAX_ALIASES`, `MAX_DIRECTIVES`). */
  limits: QueryLimits;
  /** Largest upload in one multipart request, in bytes (`UPLOAD_MAX_BYTES`, default 10 MiB). */
  maxUploadBytes: number;
  /** Added latency of the embedded v4 server, in milliseconds (`SIMULATOR_LATENCY_MS`, default 0). */
  simulatorLatencyMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}; got "${text}".`);
      return fallback;
    }
    return value;
  }

  flag(name: string, fallback: boolean): boolean {
    const text = this.raw(name)?.toLowerCase();
    if (text === undefined) return fallback;
    if (['1', 'true', 'on', 'yes'].includes(text)) return true;
    if (['0', 'false', 'off', 'no'].includes(text)) return false;
    this.problems.push(`${name} must be on or off (true/false, 1/0); got "${text}".`);
    return fallback;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  url(name: string): string | undefined {
    const text = this.raw(name);
    if (text === undefined) return undefined;
    try {
      const url = new URL(text);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
      if (url.username || url.password) {
        this.problems.push(`${name} must not carry credentials; callers send their own tokens.`);
        return undefined;
      }
      if (url.search || url.hash) {
        this.problems.push(`${name} must not have a query string or fragment.`);
        return undefined;
      }
      return url.toString().replace(/\/+$/, '');
    } catch {
      this.problems.push(`${name} must be an http(s) URL such as https://gitlab.example.com/api/v4; got "${text}".`);
      return undefined;
    }
  }
}

export function loadConfig(env: Env = process.env): GatewayConfig {
  const read = new Reader(env);
  const config: GatewayConfig = {
    port: read.integer('PORT', 4000, 0, 65_535),
    host: read.string('HOST', '127.0.0.1'),
    upstreamUrl: read.url('V4_URL'),
    upstreamTimeoutMs: read.integer('UPSTREAM_TIMEOUT_MS', 10_000, 100, 600_000),
    upstreamConnections: read.integer('UPSTREAM_CONNECTIONS', 64, 1, 10_000),
    upstreamRetryAttempts: read.integer('UPSTREAM_RETRY_ATTEMPTS', 3, 1, 10),
    circuitBreakerFailures: read.integer('CIRCUIT_BREAKER_FAILURES', 5, 0, 1_000),
    circuitBreakerCooldownMs: read.integer('CIRCUIT_BREAKER_COOLDOWN_MS', 5_000, 100, 600_000),
    runnerPollIntervalMs: read.integer('RUNNER_POLL_INTERVAL_MS', 5_000, 10, 3_600_000),
    batching: read.flag('BATCHING', true),
    landingPage: read.flag('LANDING_PAGE', true),
    introspection: read.flag('INTROSPECTION', true),
    limits: {
      maxQueryLength: read.integer('MAX_QUERY_LENGTH', DEFAULT_QUERY_LIMITS.maxQueryLength, 100, 1_000_000),
      maxTokens: read.integer('MAX_QUERY_TOKENS', DEFAULT_QUERY_LIMITS.maxTokens, 100, 1_000_000),
      maxDepthAnonymous: read.integer('MAX_DEPTH_ANONYMOUS', DEFAULT_QUERY_LIMITS.maxDepthAnonymous, 2, 1_000),
      maxDepthAuthenticated: read.integer('MAX_DEPTH', DEFAULT_QUERY_LIMITS.maxDepthAuthenticated, 2, 1_000),
      maxAliases: read.integer('MAX_ALIASES', DEFAULT_QUERY_LIMITS.maxAliases, 0, 10_000),
      maxDirectives: read.integer('MAX_DIRECTIVES', DEFAULT_QUERY_LIMITS.maxDirectives, 0, 10_000),
    },
    maxUploadBytes: read.integer('UPLOAD_MAX_BYTES', 10 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    simulatorLatencyMs: read.integer('SIMULATOR_LATENCY_MS', 0, 0, 60_000),
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

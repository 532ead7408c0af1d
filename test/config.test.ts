import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  gatewayOptions,
  helpText,
  loadConfig,
  optionName,
  SETTINGS,
  settingsMarkdownTable,
  wantsHelp,
} from '../src/server/config.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../src/datasources/rest-client.js';

/** The problems a ConfigError reports, or a failure when the settings were accepted. */
function problemsOf(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('the settings were accepted');
}

describe('loadConfig', () => {
  it('has defaults for a local start on the embedded server', () => {
    expect(loadConfig({})).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      upstreamUrl: undefined,
      runnerPollIntervalMs: 5000,
      batching: true,
      maxRestCalls: 5_000,
      maxRestCallsMade: 500,
      corsOrigins: [],
      batchedHttpRequests: false,
      wsInitTimeoutMs: 10_000,
      serviceToken: undefined,
      logLevel: 'info',
      metrics: true,
      persistedQueries: true,
      responseCacheTtlMs: 0,
    });
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '0',
      V4_URL: 'https://gitlab.example.com/api/v4/',
      RUNNER_POLL_INTERVAL_MS: '250',
      BATCHING: 'off',
      LANDING_PAGE: 'false',
      LOG_LEVEL: 'WARN',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
    });
    expect(config).toMatchObject({
      port: 0,
      upstreamUrl: 'https://gitlab.example.com/api/v4',
      runnerPollIntervalMs: 250,
      batching: false,
      landingPage: false,
      logLevel: 'warn',
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
    });
  });

  it('reads the command line, which wins over the environment, in both --name value and --name=value forms', () => {
    const config = loadConfig({ PORT: '4000', METRICS: 'on' }, [
      '--port',
      '4321',
      '--v4-url=http://127.0.0.1:9/api/v4',
      '--metrics',
      'off',
    ]);
    expect(config).toMatchObject({ port: 4321, upstreamUrl: 'http://127.0.0.1:9/api/v4', metrics: false });
  });

  it('reports every bad value at once, saying what was expected', () => {
    const problems = problemsOf(() => loadConfig({ PORT: 'eighty', V4_URL: 'ftp://x', BATCHING: 'maybe', RUNNER_POLL_INTERVAL_MS: '1' }));
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/PORT must be a whole number from 0 to 65535; got "eighty"/);
    expect(problems.join('\n')).toMatch(/V4_URL must be an http\(s\) URL/);
    expect(problems.join('\n')).toMatch(/BATCHING must be on or off/);
    expect(problems.join('\n')).toMatch(/RUNNER_POLL_INTERVAL_MS must be a whole number from 10/);
  });

  it('names the option when the bad value came from the command line, and refuses unknown options and stray arguments', () => {
    const problems = problemsOf(() => loadConfig({}, ['--port', 'x', '--no-such-thing', '1', 'stray', '--host']));
    expect(problems).toEqual([
      'Unknown option --no-such-thing.',
      'Unexpected argument "1"; settings are options such as --port 4000.',
      'Unexpected argument "stray"; settings are options such as --port 4000.',
      '--host needs a value.',
      '--port must be a whole number from 0 to 65535; got "x".',
    ]);
  });

  it('checks the new settings: log level, CORS origins, cache sizes', () => {
    const problems = problemsOf(() =>
      loadConfig({ LOG_LEVEL: 'loud', CORS_ORIGINS: 'https://app.example.com/path', RESPONSE_CACHE_TTL_MS: '-1', MAX_REST_CALLS: '0' }),
    );
    expect(problems.join('\n')).toMatch(/LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "loud"/);
    expect(problems.join('\n')).toMatch(/CORS_ORIGINS must be \* or a comma-separated list of origins/);
    expect(problems.join('\n')).toMatch(/RESPONSE_CACHE_TTL_MS must be a whole number from 0/);
    expect(problems.join('\n')).toMatch(/MAX_REST_CALLS must be a whole number from 1/);
  });

  it('reads the Redis settings, needs a key secret with REDIS_URL, and echoes neither', () => {
    const config = loadConfig({ REDIS_URL: 'redis://:hunter2@redis:6379/1', REDIS_KEY_SECRET: '0123456789abcdef' });
    expect(gatewayOptions(config, 'http://gitlab.test/api/v4').redis).toEqual({
      url: 'redis://:hunter2@redis:6379/1',
      keySecret: '0123456789abcdef',
      keyPrefix: 'gitlab-graphql-gateway:',
    });
    expect(gatewayOptions(loadConfig({}), 'http://gitlab.test/api/v4').redis).toBeUndefined();
    expect(problemsOf(() => loadConfig({ REDIS_URL: 'redis://redis:6379' }))).toEqual([
      'REDIS_URL needs REDIS_KEY_SECRET: the secret every replica hashes credentials with.',
    ]);
    expect(problemsOf(() => loadConfig({ REDIS_URL: 'redis://redis:6379', REDIS_KEY_SECRET: 'short' }))).toEqual([
      'REDIS_KEY_SECRET must have at least 16 characters.',
    ]);
    expect(problemsOf(() => loadConfig({ REDIS_URL: 'http://:hunter2@redis:6379', REDIS_KEY_SECRET: '0123456789abcdef' }))).toEqual([
      'REDIS_URL must be a redis:// or rediss:// URL such as redis://redis:6379.',
    ]);
  });

  it('never echoes a bad service token', () => {
    const problems = problemsOf(() => loadConfig({ SERVICE_TOKEN: 'glpat-secret with-space' }));
    expect(problems).toEqual(['SERVICE_TOKEN must be one token without spaces.']);
  });

  it('refuses an upstream URL that carries credentials', () => {
    expect(() => loadConfig({ V4_URL: 'https://user:secret@gitlab.example.com/api/v4' })).toThrow(/does not carry credentials/);
  });

  it.each([
    ['https://gitlab.example.com', 'https://gitlab.example.com/api/v4'],
    ['https://gitlab.example.com/', 'https://gitlab.example.com/api/v4'],
    ['https://gitlab.example.com/api/v4', 'https://gitlab.example.com/api/v4'],
    ['https://gitlab.example.com/api/v4//', 'https://gitlab.example.com/api/v4'],
    ['https://example.com/gitlab', 'https://example.com/gitlab/api/v4'],
    ['https://example.com/gitlab/api/v4/', 'https://example.com/gitlab/api/v4'],
  ])('takes %s, the instance URL or its /api/v4 URL, as %s', (given, base) => {
    expect(loadConfig({ V4_URL: given }).upstreamUrl).toBe(base);
  });

  it.each([
    ['https://gitlab.example.com/api', /V4_URL must be the instance URL \(https:\/\/gitlab\.example\.com\) or its REST API URL \(https:\/\/gitlab\.example\.com\/api\/v4\); the gateway speaks REST API v4 only/],
    ['https://gitlab.example.com/api/v3', /instance URL \(https:\/\/gitlab\.example\.com\) .* v4 only/],
    ['https://gitlab.example.com/group/project/-/issues', /not the URL of a page/],
  ])('refuses %s at start, saying which URL to give', (given, message) => {
    expect(problemsOf(() => loadConfig({ V4_URL: given })).join('\n')).toMatch(message);
  });
});

describe('gatewayOptions', () => {
  it('maps the settings onto the createGateway options, exactly', () => {
    const config = loadConfig({
      MAX_REST_CALLS: '250',
      CORS_ORIGINS: '*',
      BATCHED_HTTP_REQUESTS: 'on',
      WS_INIT_TIMEOUT_MS: '3000',
      SERVICE_TOKEN: 'glpat-service',
      CIRCUIT_BREAKER_FAILURES: '0',
      RESPONSE_CACHE_TTL_MS: '5000',
      RESPONSE_CACHE_MAX_ENTRIES: '10',
      RESPONSE_CACHE_MAX_MB: '2',
      MAX_QUERY_TOKENS: '700',
      MAX_DEPTH: '9',
      SHUTDOWN_TIMEOUT_MS: '1500',
    });
    expect(gatewayOptions(config, 'http://upstream.invalid/api/v4')).toMatchObject({
      upstreamUrl: 'http://upstream.invalid/api/v4',
      serviceToken: 'glpat-service',
      limits: { maxRestCalls: 250, maxTokens: 700, maxDepthAuthenticated: 9 },
      cors: { origins: '*' },
      allowBatchedHttpRequests: true,
      connectionInitWaitTimeoutMs: 3000,
      circuitBreaker: false,
      responseCache: { ttlMs: 5000, maxEntries: 10, maxBytes: 2 * 1024 * 1024 },
      persistedQueries: true,
      metrics: true,
      shutdownTimeoutMs: 1500,
    });
  });

  it('leaves CORS, the service token and the response cache out by default', () => {
    const options = gatewayOptions(loadConfig({}), 'http://upstream.invalid/api/v4');
    expect(options).not.toHaveProperty('cors');
    expect(options).not.toHaveProperty('serviceToken');
    expect(options.responseCache).toBe(false);
    expect(options.circuitBreaker).toEqual({ failureThreshold: 5, cooldownMs: 5000 });
  });
});

describe('help and the README table', () => {
  it('asks for help with --help or -h', () => {
    expect(wantsHelp(['--port', '1', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--port', '1'])).toBe(false);
  });

  it('lists every setting with its option, variable and default, in help and in the table alike', () => {
    const help = helpText();
    const table = settingsMarkdownTable();
    for (const setting of Object.values(SETTINGS)) {
      expect(help).toContain(`${optionName(setting.env)} ${setting.placeholder}`);
      expect(help).toContain(`${setting.env} (default: ${setting.shown})`);
      expect(table).toContain(`| \`${optionName(setting.env)}\` | \`${setting.env}\` |`);
    }
    expect(table.split('\n')).toHaveLength(Object.keys(SETTINGS).length + 2);
    expect(help.split('\n').every((line) => line.length <= 100)).toBe(true);
  });
});

describe('UPSTREAM_MAX_RESPONSE_BYTES', () => {
  it("defaults to the REST client's own default and passes a value on as upstreamMaxResponseBytes", () => {
    expect(gatewayOptions(loadConfig({}), 'http://upstream.invalid/api/v4').upstreamMaxResponseBytes).toBe(DEFAULT_MAX_RESPONSE_BYTES);
    const options = gatewayOptions(loadConfig({ UPSTREAM_MAX_RESPONSE_BYTES: '1048576' }), 'http://upstream.invalid/api/v4');
    expect(options.upstreamMaxResponseBytes).toBe(1_048_576);
    expect(loadConfig({}, ['--upstream-max-response-bytes=65536']).upstreamMaxResponseBytes).toBe(65_536);
  });

  it.each(['0', '-1', '65535', '1073741825', '1.5', '32MiB', 'lots'])('refuses %s, saying what it takes: bytes, from 64 KiB to 1 GiB', (given) => {
    expect(problemsOf(() => loadConfig({ UPSTREAM_MAX_RESPONSE_BYTES: given }))).toEqual([
      `UPSTREAM_MAX_RESPONSE_BYTES must be a whole number from 65536 to 1073741824; got "${given}".`,
    ]);
  });
});

describe('UPSTREAM_CA_FILE', () => {
  const directory = mkdtempSync(join(tmpdir(), 'gateway-ca-'));
  const pem = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
  const caFile = join(directory, 'ca.pem');
  writeFileSync(caFile, pem);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('reads the file at start and passes its PEM on as upstreamCa', () => {
    const config = loadConfig({ UPSTREAM_CA_FILE: caFile });
    expect(config.upstreamCa).toBe(pem);
    expect(gatewayOptions(config, 'https://gitlab.internal/api/v4').upstreamCa).toBe(pem);
    expect(loadConfig({}, ['--upstream-ca-file', caFile]).upstreamCa).toBe(pem);
    expect(gatewayOptions(loadConfig({}), 'https://gitlab.internal/api/v4')).not.toHaveProperty('upstreamCa');
  });

  it('refuses a missing file, a directory and a file with no certificate, saying which', () => {
    const notPem = join(directory, 'key.txt');
    writeFileSync(notPem, 'not a certificate');
    expect(problemsOf(() => loadConfig({ UPSTREAM_CA_FILE: join(directory, 'missing.pem') }))).toEqual([
      `UPSTREAM_CA_FILE must be a readable file of PEM certificates (no such file); got "${join(directory, 'missing.pem')}".`,
    ]);
    expect(problemsOf(() => loadConfig({ UPSTREAM_CA_FILE: directory }))[0]).toContain('(a directory)');
    expect(problemsOf(() => loadConfig({ UPSTREAM_CA_FILE: notPem }))[0]).toContain('this one holds none');
  });
});

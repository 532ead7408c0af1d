import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('has defaults for a local start on the embedded server', () => {
    expect(loadConfig({})).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      upstreamUrl: undefined,
      runnerPollIntervalMs: 5000,
      batching: true,
    });
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '0',
      V4_URL: 'https://gitlab.example.com/api/v4/',
      RUNNER_POLL_INTERVAL_MS: '250',
      BATCHING: 'off',
      LANDING_PAGE: 'false',
    });
    expect(config).toMatchObject({
      port: 0,
      upstreamUrl: 'https://gitlab.example.com/api/v4',
      runnerPollIntervalMs: 250,
      batching: false,
      landingPage: false,
    });
  });

  it('reports every bad value at once, saying what was expected', () => {
    let problems: string[] = [];
    try {
      loadConfig({ PORT: 'eighty', V4_URL: 'ftp://x', BATCHING: 'maybe', RUNNER_POLL_INTERVAL_MS: '1' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems;
    }
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/PORT must be a whole number/);
    expect(problems.join('\n')).toMatch(/V4_URL must be an http\(s\) URL/);
  });

  it('refuses an upstream URL that carries credentials', () => {
    expect(() => loadConfig({ V4_URL: 'https://user:secret@gitlab.example.com/api/v4' })).toThrow(/must not carry credentials/);
  });
});

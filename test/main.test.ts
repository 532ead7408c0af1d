import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/server/config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const running = new Set<ChildProcess>();
// A test that fails half-way must not leave its gateway running.
afterEach(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
});

/** Runs the command line as `npm start` does, on a free port, until it says it is ready. */
function startCli(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const output = () => stdout + stderr;
  const ready = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const url = /ready at (http:\/\/\S+)/.exec(output())?.[1];
        if (url) {
          clearInterval(timer);
          resolve(url);
        }
      }, 50);
      void exited.then(() => {
        clearInterval(timer);
        reject(new Error(`exited before ready:\n${output()}`));
      });
    });
  /** stdout, line by line, parsed: it must hold JSON log lines only. */
  const logLines = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, ready, exited, output, logLines };
}

describe('the command line', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('serves the embedded demo data and stops cleanly on %s', async (signal) => {
    const cli = startCli({});
    const url = await cli.ready();
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'private-token': 'glpat-demo-maintainer',
      },
      body: JSON.stringify({ query: '{ currentUser { username } }' }),
    });
    expect(await response.json()).toEqual({
      data: { currentUser: { username: 'maintainer' } },
    });
    // Read now, not at the ready line: the token lines may still be in flight then.
    expect(cli.output()).toContain('glpat-demo-maintainer');
    cli.child.kill(signal);
    expect(await cli.exited).toBe(0);
  });

  it('refuses bad settings with a message naming each, before starting anything', async () => {
    const cli = startCli({ PORT: 'eighty', V4_URL: 'not a url' });
    expect(await cli.exited).toBe(2);
    expect(cli.output()).toMatch(/PORT must be a whole number/);
    expect(cli.output()).toMatch(/V4_URL must be an http\(s\) URL/);
  });

  it("starts the embedded v4 server with GitLab's rate limits when SIMULATOR_RATE_LIMIT_* say so, and refuses a malformed one", async () => {
    const cli = startCli({ SIMULATOR_RATE_LIMIT_AUTHENTICATED: '2/3600' });
    await cli.ready();
    const upstream = /embedded v4 server with demo data at (http:\/\/\S+)/.exec(cli.output())?.[1];
    expect(upstream).toBeDefined();
    const answers = [];
    for (let call = 0; call < 3; call += 1) answers.push(await fetch(`${upstream}/user`, { headers: { 'private-token': 'glpat-demo-maintainer' } }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[0]?.headers.get('ratelimit-name')).toBe('throttle_authenticated_api');
    expect(answers[1]?.headers.get('ratelimit-remaining')).toBe('0');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);

    const malformed = startCli({ SIMULATOR_RATE_LIMIT_UNAUTHENTICATED: 'often' });
    expect(await malformed.exited).toBe(2);
    expect(malformed.output()).toMatch(/SIMULATOR_RATE_LIMIT_\*: a rate limit is written requests\/periodSeconds/);
  });

  it('prints every setting for --help, and exits 0 without starting', async () => {
    const cli = startCli({ PORT: 'not even checked' }, ['--help']);
    expect(await cli.exited).toBe(0);
    for (const setting of Object.values(SETTINGS)) expect(cli.output()).toContain(setting.env);
    expect(cli.output()).toContain('--upstream-timeout-ms <n>');
  });

  it('takes options over variables, logs JSON lines on stdout, and finishes an in-flight request on SIGTERM before exiting 0', async () => {
    // PORT is bad, but the option wins; the embedded server's latency keeps a request in flight.
    const cli = startCli({ PORT: 'eighty', SIMULATOR_LATENCY_MS: '600' }, ['--port', '0', '--log-level', 'info']);
    const url = await cli.ready();
    const inFlight = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': 'glpat-demo-developer', 'x-request-id': 'cli-test-1' },
      body: JSON.stringify({ query: 'query Me { currentUser { username } }' }),
    });
    // Signalled once the embedded server (its control API) has the request's REST call.
    let simulatorUrl: string | undefined;
    while (!(simulatorUrl = /embedded v4 server with demo data at (http:\/\/\S+)/.exec(cli.output())?.[1]))
      await new Promise((resolve) => setTimeout(resolve, 20));
    const simulatorOrigin = new URL(simulatorUrl).origin;
    while (((await (await fetch(`${simulatorOrigin}/__simulator/requests`)).json()) as unknown[]).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    cli.child.kill('SIGTERM');

    const response = await inFlight;
    expect(await response.json()).toEqual({ data: { currentUser: { username: 'developer' } } });
    expect(await cli.exited).toBe(0);

    const lines = cli.logLines();
    expect(lines.map((line) => line['msg'])).toEqual(['listening', 'stopping: finishing in-flight requests', 'request', 'stopped']);
    expect(lines[2]).toMatchObject({
      requestId: 'cli-test-1',
      method: 'POST',
      path: '/graphql',
      status: 200,
      operationName: 'Me',
      restCalls: 1,
    });
    // The banner on stderr lists the demo tokens; the log lines never carry one.
    expect(JSON.stringify(lines)).not.toContain('glpat-');
  });
});

// Shutdown when nobody reads stdout any more (issue 15, item 9). `npm start` writes its log lines
// on stdout; when the reader went away (EPIPE) and SIGTERM followed, the process closed its port
// but never exited: pino's default destination retried the last log line forever in its exit-time
// flush, and a second signal could not even be heard. Each test runs the command line as
// test/main.test.ts does, and ends it with SIGKILL if it is still there afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Far more than a stop takes: past it the process is taken to hang, and the test fails. */
const EXIT_BOUND_MS = 15_000;
/** Each test's own time: a start of the command line, then up to EXIT_BOUND_MS for its exit. */
const TEST_TIMEOUT_MS = 60_000;

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  running.clear();
});

/** The command line with the embedded v4 server, on a free port; resolves with its URL once its banner (on stderr) says where it runs. */
async function startCli(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stdout.on('data', () => {});
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // The banner's last line but the tokens names the embedded server: all of it is there then.
      const ready = /ready at (http:\/\/\S+)/.exec(stderr)?.[1];
      if (ready && /^Upstream: .*\n/m.test(stderr)) resolve(ready);
    });
    void exited.then(() => reject(new Error(`exited before ready:\n${stderr}`)));
  });
  /** The exit code, or 'still running' when the process has not exited within EXIT_BOUND_MS. */
  const exitWithinBound = () =>
    Promise.race([exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), EXIT_BOUND_MS).unref())]);
  return { child, url, exitWithinBound, stderr: () => stderr };
}

/** Whoever read stdout goes away: the child's next log line meets EPIPE. */
function breakStdout(child: ChildProcess): void {
  child.stdout?.destroy();
}

describe('the command line, once nobody reads its stdout', () => {
  it('stops on SIGTERM and exits 0', async () => {
    const cli = await startCli();
    // A request logged before the reader goes away, as in production.
    const response = await fetch(cli.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(response.status).toBe(200);
    breakStdout(cli.child);

    cli.child.kill('SIGTERM');
    expect(await cli.exitWithinBound()).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('exits at once with 1 on a second signal, while the first still waits for a request in flight', async () => {
    // The embedded server answers each REST call after a minute; stopping would wait that long.
    const cli = await startCli({ SIMULATOR_LATENCY_MS: '60000', SHUTDOWN_TIMEOUT_MS: '120000' });
    const inFlight = fetch(cli.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': 'glpat-demo-developer' },
      body: JSON.stringify({ query: '{ currentUser { username } }' }),
    }).catch(() => 'cut');
    // In flight once the embedded server (its control API, which has no latency) has its REST call.
    const simulatorUrl = /embedded v4 server with demo data at (http:\/\/\S+)/.exec(cli.stderr())?.[1];
    expect(simulatorUrl).toBeDefined();
    const requestsUrl = new URL('/__simulator/requests', simulatorUrl);
    while (((await (await fetch(requestsUrl)).json()) as unknown[]).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    breakStdout(cli.child);
    cli.child.kill('SIGTERM');
    // The first signal is being handled once the gateway drains: /readyz says so, or new connections are refused.
    for (;;) {
      const readiness = await fetch(new URL('/readyz', cli.url)).then(
        async (answer) => ((await answer.json()) as { status: string }).status,
        () => 'refused',
      );
      if (readiness === 'draining' || readiness === 'refused') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    cli.child.kill('SIGTERM');
    expect(await cli.exitWithinBound()).toBe(1);
    expect(await inFlight).toBe('cut');
  }, TEST_TIMEOUT_MS);
});

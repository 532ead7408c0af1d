import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs the command line as `npm start` does, on a free port, until it says it is ready. */
function startCli(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const url = /ready at (http:\/\/\S+)/.exec(output)?.[1];
        if (url) {
          clearInterval(timer);
          resolve(url);
        }
      }, 50);
      void exited.then(() => {
        clearInterval(timer);
        reject(new Error(`exited before ready:\n${output}`));
      });
    });
  return { child, ready, exited, output: () => output };
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
});

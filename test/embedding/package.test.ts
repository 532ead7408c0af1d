import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { until } from '../support/wait.js';

/**
 * The package as a user gets it: `npm pack` (whose `prepack` runs `npm run build`), then
 * `npm install <tarball>` in an empty folder, then the library and the command line used from
 * there, with nothing of this repository on their path. Slow (a build and an install): one file,
 * generous timeouts.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const NAME = 'gitlab-graphql-gateway';
const { maintainer } = DEMO_TOKENS;

/** The library, as an application that installed it imports it: by its name, from plain JavaScript. */
const LIBRARY_SCRIPT = `
import { readFileSync } from 'node:fs';
import { createGateway } from '${NAME}';

const gateway = createGateway({ upstreamUrl: process.env.V4_URL, landingPage: false });
const { url } = await gateway.listen({ port: 0 });
const response = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'private-token': process.env.TOKEN },
  body: JSON.stringify({ query: '{ currentUser { username } runner(id: "gid://gitlab/Ci::Runner/16") { description } }' }),
});
const schema = readFileSync(new URL(import.meta.resolve('${NAME}/schema.graphql')), 'utf8');
const manifest = JSON.parse(readFileSync(new URL(import.meta.resolve('${NAME}/package.json')), 'utf8'));
console.log(JSON.stringify({ result: await response.json(), schema, version: manifest.version }));
await gateway.close();
`;

/** A TypeScript consumer, checked against the package's declarations (dist/src/*.d.ts). */
const TYPED_CONSUMER = `
import { createGateway, type Gateway, type GatewayOptions, type ListeningGateway } from '${NAME}';

const options: GatewayOptions = {
  upstreamUrl: 'http://127.0.0.1:1/api/v4',
  serviceToken: 'a-service-token',
  credentials: ({ headers }) => (typeof headers['x-session'] === 'string' ? { kind: 'private-token', value: headers['x-session'] } : null),
  extend: { typeDefs: 'extend type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } },
};
const gateway: Gateway = createGateway(options);
export const listening: Promise<ListeningGateway> = gateway.listen({ port: 0 });
// @ts-expect-error: the upstream URL is required
createGateway({});
`;

describe('the npm package, packed and installed in an empty folder', () => {
  let work: string;
  let consumer: string;
  let installed: string;
  let simulator: Simulator;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'gateway-package-'));
    await run('npm', ['pack', '--pack-destination', work], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    consumer = join(work, 'consumer');
    await mkdir(consumer);
    await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', join(work, tarball!), '--prefer-offline', '--no-audit', '--no-fund'], { cwd: consumer, maxBuffer: 64 * 1024 * 1024 });
    installed = join(consumer, 'node_modules', NAME);
    simulator = await startSimulator();
  }, 600_000);

  afterAll(async () => {
    await simulator?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('holds the compiled library with its declarations, the SDL file and the command, and no sources, tests or examples', () => {
    for (const file of ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/main.js', 'dist/simulator/index.js', 'dist/schema/base.graphql', 'schema.graphql', 'README.md']) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    for (const folder of ['src', 'test', 'examples', 'bench', 'simulator', 'scripts']) expect(existsSync(join(installed, folder)), folder).toBe(false);
    expect(readFileSync(join(installed, 'dist/src/main.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('works as a library: plain JavaScript imports createGateway by the package name and answers a query', async () => {
    await writeFile(join(consumer, 'library.mjs'), LIBRARY_SCRIPT);
    const { stdout } = await run(process.execPath, ['library.mjs'], { cwd: consumer, env: { ...process.env, V4_URL: simulator.url, TOKEN: maintainer } });
    const output = JSON.parse(stdout.trim().split('\n').pop()!) as { result: unknown; schema: string; version: string };

    const me = await fetch(`${simulator.url}/user`, { headers: { 'private-token': maintainer } }).then((response) => response.json() as Promise<{ username: string }>);
    const runner = await fetch(`${simulator.url}/runners/16`, { headers: { 'private-token': maintainer } }).then((response) => response.json() as Promise<{ description: string }>);
    expect(output.result).toEqual({ data: { currentUser: { username: me.username }, runner: { description: runner.description } } });
    expect(output.schema).toBe(readFileSync(join(ROOT, 'schema.graphql'), 'utf8'));
    expect(output.version).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  }, 60_000);

  it("type-checks a TypeScript consumer against the package's declarations", async () => {
    await writeFile(join(consumer, 'consumer.ts'), TYPED_CONSUMER);
    await writeFile(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
        files: ['consumer.ts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', consumer], { cwd: consumer }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
    );
    expect(checked).toEqual({ code: 0, output: '' });
  }, 120_000);

  it('works as a command: --help exits 0, and the bin serves the embedded demo data', async () => {
    const help = await run('npx', ['--no-install', NAME, '--help'], { cwd: consumer });
    expect(help.stdout).toContain(`Usage: ${NAME}`);

    // No V4_URL: the command starts the embedded v4 server itself.
    const { V4_URL: _upstream, ...environment } = process.env;
    const bin = spawn(join(consumer, 'node_modules/.bin', NAME), [], { cwd: consumer, env: { ...environment, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    bin.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    bin.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => bin.on('exit', (code) => resolve(code)));
    try {
      await until(() => /ready at (http:\/\/\S+)/.test(output) || bin.exitCode !== null, 60_000);
      const url = /ready at (http:\/\/\S+)/.exec(output)?.[1];
      expect(url, output).toBeDefined();
      const response = await fetch(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'private-token': maintainer },
        body: JSON.stringify({ query: '{ currentUser { username } }' }),
      });
      expect(await response.json()).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    } finally {
      bin.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 120_000);
});

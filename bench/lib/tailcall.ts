// The Tailcall peer (`--peers tailcall`): Tailcall's prebuilt Rust server, the optional npm package
// @tailcallhq/core-linux-x64-gnu, serving bench/peers/tailcall/gitlab.graphql in front of the
// embedded v4 server, in a process of its own measured from /proc. Its binary needs glibc >= 2.39;
// where the system's is older (Debian 12: 2.36), Debian 13's libc6 is fetched with apt-get into
// bench/.cache/ (its own source list, lists and archives: nothing is installed) and the binary is
// started through that glibc's dynamic loader. The glibc is kept there between runs.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Meter } from './measure.js';
import type { ScenarioContext } from './scenario.js';

export const TAILCALL_PACKAGE = '@tailcallhq/core-linux-x64-gnu';
const CACHE = fileURLToPath(new URL('../.cache/tailcall-glibc/', import.meta.url));
const CONFIG = fileURLToPath(new URL('../peers/tailcall/gitlab.graphql', import.meta.url));
const LIB = 'usr/lib/x86_64-linux-gnu';
/** The oldest glibc the 1.6.14 binary links against (its GLIBC_2.39 symbol versions). */
const NEEDED_GLIBC = [2, 39];

/** How to run the binary: directly, or through a newer glibc's loader. */
export interface TailcallCommand {
  file: string;
  args: string[];
  /** What the bench says it runs. */
  description: string;
}

/** The binary in the optional package; throws, saying why, when npm left it out. */
export function tailcallBinary(): string {
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve(`${TAILCALL_PACKAGE}/package.json`);
  } catch {
    throw new Error(`${TAILCALL_PACKAGE} is not installed (an optional dependency: linux x64 glibc only; npm install --include=optional)`);
  }
  return join(dirname(manifest), 'bin', 'tailcall');
}

function systemGlibcIsEnough(): boolean {
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  const [major = 0, minor = 0] = (header?.glibcVersionRuntime ?? '0.0').split('.').map(Number);
  const [needMajor = 0, needMinor = 0] = NEEDED_GLIBC;
  return major > needMajor || (major === needMajor && minor >= needMinor);
}

/** The Debian mirror the system's apt sources name (deb822 `URIs:` or one-line `deb`), for trixie's libc6. */
function systemDebianMirror(): string {
  const files = ['/etc/apt/sources.list'];
  const parts = '/etc/apt/sources.list.d';
  if (existsSync(parts)) files.push(...readdirSync(parts).map((name) => join(parts, name)));
  for (const file of files.filter(existsSync)) {
    const text = readFileSync(file, 'utf8');
    const uri = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(text)?.[1];
    if (uri) return uri;
  }
  throw new Error("no Debian mirror in /etc/apt/sources.list(.d) to fetch trixie's libc6 from");
}

/**
 * Debian 13's glibc in bench/.cache/tailcall-glibc/root, fetched once: `apt-get update` and
 * `apt-get download libc6` against a source list of its own, then `dpkg-deb -x`.
 */
function trixieGlibc(log: (message: string) => void): string {
  const root = join(CACHE, 'root');
  const loader = join(root, LIB, 'ld-linux-x86-64.so.2');
  if (existsSync(loader)) return root;
  log(`fetching Debian 13's libc6 into ${CACHE} (once; nothing is installed)`);
  const mirror = systemDebianMirror();
  rmSync(CACHE, { recursive: true, force: true });
  for (const sub of ['lists/partial', 'cache/archives/partial']) mkdirSync(join(CACHE, sub), { recursive: true });
  const sources = join(CACHE, 'sources.list');
  writeFileSync(sources, `deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror} trixie main\n`);
  // Its own source list, lists and archives, so that the system's apt state is never touched; as
  // root apt drops to the _apt user, which may not write here.
  const apt = [
    `Dir::Etc::SourceList=${sources}`,
    'Dir::Etc::SourceParts=/dev/null',
    `Dir::State::Lists=${join(CACHE, 'lists')}`,
    `Dir::Cache=${join(CACHE, 'cache')}`,
    'APT::Sandbox::User=root',
  ].flatMap((option) => ['-o', option]);
  const run = (file: string, args: string[]) =>
    execFileSync(file, args, { cwd: CACHE, stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 });
  try {
    run('apt-get', [...apt, 'update']);
    run('apt-get', [...apt, 'download', 'libc6']);
    const deb = readdirSync(CACHE).find((name) => /^libc6_.*\.deb$/.test(name));
    if (!deb) throw new Error('apt-get download libc6 left no .deb');
    run('dpkg-deb', ['-x', join(CACHE, deb), root]);
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    rmSync(root, { recursive: true, force: true });
    throw new Error(
      `could not fetch Debian 13's libc6 from ${mirror}: ${stderr || (error instanceof Error ? error.message : String(error))}`,
    );
  }
  if (!existsSync(loader)) throw new Error(`Debian 13's libc6 has no ${LIB}/ld-linux-x86-64.so.2`);
  return root;
}

/** How to run Tailcall here: the binary, through trixie's glibc when the system's is too old. */
export function prepareTailcall(log: (message: string) => void = () => {}): TailcallCommand {
  const binary = tailcallBinary();
  if (systemGlibcIsEnough()) return { file: binary, args: [], description: binary };
  const lib = join(trixieGlibc(log), LIB);
  // libgcc_s comes from the system (trixie's libc6 does not carry it).
  const args = ['--library-path', `${lib}:/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu`, binary];
  return { file: join(lib, 'ld-linux-x86-64.so.2'), args, description: `${binary} through Debian 13's glibc (${lib})` };
}

export interface TailcallServer {
  /** Its GraphQL endpoint. */
  url: string;
  pid: number | undefined;
  /** Its process's CPU time and peak RSS, from /proc (measureServer's `meter`). */
  meter: Meter;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let units: { pageSize: number; clockTicks: number } | undefined;

/** utime + stime (ms) and RSS (bytes) of a process, from /proc/<pid>/stat. */
function procUsage(pid: number): { cpuMs: number; rssBytes: number } {
  const getconf = (name: string) => Number(execFileSync('getconf', [name]).toString());
  units ??= { pageSize: getconf('PAGESIZE'), clockTicks: getconf('CLK_TCK') };
  const { pageSize, clockTicks } = units;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15, rss 24.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return { cpuMs: ((field(14) + field(15)) * 1000) / clockTicks, rssBytes: field(24) * pageSize };
}

function procMeter(pid: number): Meter {
  return () => {
    const before = procUsage(pid);
    let peakRssBytes = before.rssBytes;
    const sampler = setInterval(() => {
      peakRssBytes = Math.max(peakRssBytes, procUsage(pid).rssBytes);
    }, 50);
    return Promise.resolve(() => {
      clearInterval(sampler);
      const after = procUsage(pid);
      return Promise.resolve({ cpuMs: after.cpuMs - before.cpuMs, peakRssBytes: Math.max(peakRssBytes, after.rssBytes) });
    });
  };
}

/** Resolves once the server answers a GraphQL request; rejects when the process exits or 20 s pass. */
async function ready(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`Tailcall exited (${child.signalCode ?? child.exitCode}): ${output()}`);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Tailcall did not answer within 20 s: ${output()}`);
}

/** Tailcall on a free loopback port in front of `upstreamUrl` (`http://…/api/v4`), `connections` idle ones kept. */
export async function startTailcall(command: TailcallCommand, upstreamUrl: string, connections: number): Promise<TailcallServer> {
  const port = await freePort();
  const config = join(CACHE, `gitlab-${process.pid}-${port}.graphql`);
  mkdirSync(CACHE, { recursive: true });
  const template = readFileSync(CONFIG, 'utf8');
  writeFileSync(
    config,
    template
      .replaceAll('__PORT__', String(port))
      .replaceAll('__UPSTREAM__', upstreamUrl.replace(/\/+$/, ''))
      .replaceAll('__CONNECTIONS__', String(connections)),
  );
  // TC_TRACKER=false: Tailcall reports usage to its makers otherwise.
  const child = spawn(command.file, [...command.args, 'start', config], {
    env: { ...process.env, TC_TRACKER: 'false', TAILCALL_LOG_LEVEL: 'error', TC_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
    rmSync(config, { force: true });
  };
  const url = `http://127.0.0.1:${port}/graphql`;
  try {
    await ready(url, child, () => output.trim());
  } catch (error) {
    await close();
    throw error;
  }
  return { url, pid: child.pid, meter: procMeter(child.pid!), close };
}

/**
 * The scenario's Tailcall server, or none: not asked for (--peers), or it would not start, which the
 * progress and `notes` say; the scenario's other columns run either way.
 */
export async function tailcallPeer(context: ScenarioContext, notes: string[]): Promise<TailcallServer | undefined> {
  if (!context.startTailcall) return undefined;
  try {
    return await context.startTailcall();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    context.progress(`Tailcall: not measured: ${message}`);
    notes.push(`Tailcall: not measured, it would not start: ${message}`);
    return undefined;
  }
}

// npm run bench [-- --quick] [--latency MS] [--scenario NAME ...] [--subscribers N] [--runners M]
//   [--connections C] [--subscribe-batch N] [--interval MS] [--concurrency N] [--upstream-connections N]
//   [--client-rtt MS] [--upstream-h2] [--gateway-settings defaults|bench] [--trace]
//
// Starts the driver process (the embedded v4 server with added latency, and every client), puts the
// gateway in this process in front of it on loopback (and the naive BFF, or a gateway measured the
// same way, in server processes of their own), runs each scenario, prints one table and
// writes bench/results/<timestamp>.json and bench/results/latest.json. A missed budget is a MISS in
// the table; the exit code is 1 only when a scenario FAILED (errors in responses, wrong data) or
// the run could not finish.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { GatewayOptions } from '../src/index.js';
import type * as gatewaySource from '../src/index.js';
import { startDriver, type Driver } from './lib/driver/handle.js';
import { settledMemory } from './lib/measure.js';
import { loadWarning, machine, outcomeOf, renderTable, writeReport, type BenchReport, type ScenarioOutcome } from './lib/report.js';
import { emptyReport, type BenchOptions, type RunningGateway, type ScenarioContext } from './lib/scenario.js';
import { startServerProcess, type ServerProcess } from './lib/server-process/handle.js';
import type { SimulatorInfo } from './lib/driver/protocol.js';
import { STREAMS_PER_CONNECTION } from './lib/upstream.js';
import { scenarios } from './scenarios/index.js';

/** The whole run stops by itself after this long, whatever happens (the default run takes ~1.5 min). */
const WATCHDOG_MS = 8 * 60_000;

const USAGE = `Usage: npm run bench -- [options]
  --quick                  smaller and shorter (1,000 subscribers over 20 runners, short loops)
  --latency MS             latency the v4 server adds to each REST call (default 20)
  --scenario NAME          run only this scenario; repeatable (${scenarios.map((s) => s.name).join(', ')})
  --subscribers N          subscriptions in "subscriptions" (default 10000, quick 1000)
  --runners M              runners they watch (default 100, quick 20)
  --connections C          WebSocket connections they share (default 100)
  --subscribe-batch N      subscriptions sent at once before waiting for them (default 500)
  --interval MS            the gateway's runner poll interval there (default 1000)
  --concurrency N          workers of "hot-path" (default 32)
  --upstream-connections N undici connections to REST, gateway and REST client alike (default 64)
  --upstream-h2            the v4 server serves HTTP/2 over TLS (self-signed): every column reaches it
                           over h2, each connection carrying up to 100 calls at once (the naive BFF
                           through undici's fetch)
  --client-rtt MS          round trip between the client and the servers it calls, paid per request
                           by the page scenarios' clients: the gateway's and the REST client (default 0)
  --gateway-settings S     defaults: the gateway as it ships (createGateway's defaults); bench: the
                           REST-call limits raised to 10,000 and the whole pool for one operation, as
                           the bench ran it before (default: defaults)
  --trace                  after each page scenario, one more operation through the gateway, printed as
                           a timeline: when each REST call was sent, answered and read
  --source                 run the gateway from src/ through tsx instead of the compiled dist/
                           (the default when dist/ is missing; npm run bench builds it first)`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function integer(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

function parseOptions(): { options: BenchOptions; only: string[]; fromSource: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        latency: { type: 'string' },
        scenario: { type: 'string', multiple: true },
        subscribers: { type: 'string' },
        runners: { type: 'string' },
        connections: { type: 'string' },
        'subscribe-batch': { type: 'string' },
        interval: { type: 'string' },
        concurrency: { type: 'string' },
        'upstream-connections': { type: 'string' },
        'client-rtt': { type: 'string' },
        'upstream-h2': { type: 'boolean', default: false },
        'gateway-settings': { type: 'string', default: 'defaults' },
        trace: { type: 'boolean', default: false },
        source: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick ?? false;
  const only = (values.scenario ?? []).flatMap((name) => name.split(','));
  for (const name of only) if (!scenarios.some((scenario) => scenario.name === name)) fail(`unknown scenario "${name}"`);
  const gatewaySettings = values['gateway-settings'];
  if (gatewaySettings !== 'defaults' && gatewaySettings !== 'bench') fail(`--gateway-settings must be defaults or bench, got "${gatewaySettings}"`);
  return {
    only,
    fromSource: values.source ?? false,
    options: {
      latencyMs: integer(values.latency, 'latency', 20, 0),
      quick,
      fleetSize: 100,
      subscribers: integer(values.subscribers, 'subscribers', quick ? 1_000 : 10_000, 1),
      subscribedRunners: integer(values.runners, 'runners', quick ? 20 : 100, 1),
      wsConnections: integer(values.connections, 'connections', 100, 1),
      subscribeBatch: integer(values['subscribe-batch'], 'subscribe-batch', 500, 1),
      pollIntervalMs: integer(values.interval, 'interval', 1_000, 50),
      concurrency: integer(values.concurrency, 'concurrency', 32, 1),
      upstreamConnections: integer(values['upstream-connections'], 'upstream-connections', 64, 1),
      upstreamH2: values['upstream-h2'] ?? false,
      clientRttMs: integer(values['client-rtt'], 'client-rtt', 0, 0),
      trace: values.trace ?? false,
      gatewaySettings,
    },
  };
}

const METHOD = [
  'The gateway runs in the bench process, alone: its CPU time (process.cpuUsage around each measured loop) and memory (RSS, heap) are its own, plus the bench process\'s (its RSS counts the bench too).',
  'The naive BFF runs in a process of its own, which measures itself the same way; RSS at start is measured alike for both, each in a fresh process of its own (scenario "startup").',
  'The embedded v4 server and every client (GraphQL, REST baseline, WebSocket subscribers) run in a separate driver process, on loopback.',
  'Every response body is checked: a GraphQL response with `errors`, or data that differs from REST, fails its scenario.',
];

type GatewayModule = typeof gatewaySource;

/**
 * The gateway's options for --gateway-settings. `defaults` leaves every limit as createGateway ships
 * it; the pool is --upstream-connections (default 64, the shipped default too), the size the REST
 * client and the naive BFF get. With --upstream-h2 the gateway trusts the v4 server's certificate
 * and negotiates h2 by itself (ALPN).
 */
function gatewayOptions(simulator: SimulatorInfo, options: BenchOptions): GatewayOptions {
  const shipped: GatewayOptions = {
    upstreamUrl: simulator.url,
    landingPage: false,
    upstreamConnections: options.upstreamConnections,
    ...(options.upstreamH2 && simulator.ca !== undefined ? { upstreamCa: simulator.ca } : {}),
  };
  if (options.gatewaySettings === 'defaults') return shipped;
  return {
    ...shipped,
    // The REST client may use the whole pool for one page, so the gateway may too. Its default
    // (16 calls in flight per operation) keeps one wide query from taking every connection from
    // the other callers, which a bench of one caller at a time never needs. Over h2 the pool is
    // connections x streams: capped at the connection count, one operation could not multiplex.
    maxConcurrentRestCalls: options.upstreamConnections * (options.upstreamH2 ? STREAMS_PER_CONNECTION : 1),
    // The limits on REST calls, estimated and made, raised far above what any page query needs
    // (the fleet page estimates at 201 calls, and makes 501 with batching off), as a deployment
    // serving such pages would raise them.
    limits: { maxRestCalls: 10_000, maxRestCallsMade: 10_000 },
  };
}

/**
 * The gateway as it runs in production: the compiled JavaScript of `npm run build`, whose errors
 * carry no source maps to resolve (under tsx every stack trace is mapped back to TypeScript, which
 * costs CPU on each failed field). From src/ when asked, or when nothing is built.
 */
async function loadGateway(fromSource: boolean): Promise<{ module: GatewayModule; url: string; compiled: boolean }> {
  const built = new URL('../dist/src/index.js', import.meta.url);
  if (!fromSource && existsSync(built)) return { module: (await import(built.href)) as GatewayModule, url: built.href, compiled: true };
  return { module: await import('../src/index.js'), url: new URL('../src/index.ts', import.meta.url).href, compiled: false };
}

async function main(): Promise<number> {
  const { options, only, fromSource } = parseOptions();
  // As deployed: graphql-js checks every `instanceof` of its type system twice outside production.
  process.env['NODE_ENV'] ??= 'production';
  const { module: gatewayModule, url: gatewayUrl, compiled } = await loadGateway(fromSource);
  const selected = only.length ? scenarios.filter((scenario) => only.includes(scenario.name)) : scenarios;
  const startedAt = new Date().toISOString();
  const startMachine = machine();
  const progress = (message: string) => console.error(`[bench] ${message}`);
  const watchdog = setTimeout(() => {
    console.error(`[bench] still running after ${WATCHDOG_MS / 60_000} minutes: giving up`);
    process.exit(1);
  }, WATCHDOG_MS);

  let driver: Driver | undefined;
  const outcomes: ScenarioOutcome[] = [];
  try {
    driver = await startDriver();
    const fleetSize = Math.max(options.fleetSize, options.subscribedRunners);
    const simulator = await driver.call('startSimulator', {
      latencyMs: options.latencyMs,
      fleetSize,
      restConnections: options.upstreamConnections,
      compiled,
      tls: options.upstreamH2,
    });
    progress(`gateway and v4 server from ${compiled ? 'dist/ (compiled)' : 'src/ (tsx)'}, NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}, gateway settings: ${options.gatewaySettings}`);
    progress(`v4 server at ${simulator.url} (driver pid ${driver.pid}), ${simulator.runnerIds.length} runners, ${options.latencyMs} ms per REST call`);
    progress(
      options.upstreamH2
        ? `upstream: HTTP/2 over TLS, ${options.upstreamConnections} connections x ${STREAMS_PER_CONNECTION} streams for every column`
        : `upstream: HTTP/1.1, ${options.upstreamConnections} connections for every column`,
    );

    for (const scenario of selected) {
      const gateways: RunningGateway[] = [];
      const processes: ServerProcess[] = [];
      const settings = gatewayOptions(simulator, options);
      const context: ScenarioContext = {
        options,
        driver,
        simulator,
        progress,
        async startGateway(overrides: Partial<GatewayOptions> = {}) {
          const gateway = gatewayModule.createGateway({ ...settings, ...overrides });
          const listening = await gateway.listen({ port: 0, host: '127.0.0.1' });
          const running = { ...listening, gateway };
          gateways.push(running);
          return running;
        },
        async startServerProcess(kind) {
          const spec =
            kind === 'gateway'
              ? { kind, module: gatewayUrl, options: settings }
              : { kind, upstreamUrl: simulator.url, connections: options.upstreamConnections, ...(simulator.ca !== undefined ? { ca: simulator.ca } : {}) };
          const server = await startServerProcess(spec, compiled);
          processes.push(server);
          return server;
        },
      };
      const began = performance.now();
      progress(`${scenario.name}: ${scenario.title}`);
      try {
        const report = await scenario.run(context);
        outcomes.push(outcomeOf(scenario, report.failures.length ? 'FAILED' : 'OK', report, performance.now() - began));
      } catch (error) {
        const report = emptyReport();
        report.failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
        outcomes.push(outcomeOf(scenario, 'FAILED', report, performance.now() - began));
      } finally {
        for (const running of gateways) await running.gateway.close();
        for (const server of processes) await server.close();
      }
      // What the closed gateways left behind: a leak shows here as heap that never comes back.
      const left = settledMemory();
      progress(`${scenario.name}: done; heap ${(left.heapUsedBytes / 2 ** 20).toFixed(1)} MB, RSS ${(left.rssBytes / 2 ** 20).toFixed(1)} MB after closing its gateways`);
      const outcome = outcomes[outcomes.length - 1];
      if (outcome) outcome.memoryAfter = left;
    }
  } finally {
    await driver?.stop();
    clearTimeout(watchdog);
  }

  const report: BenchReport = { startedAt, finishedAt: new Date().toISOString(), options, machine: startMachine, method: METHOD, scenarios: outcomes };
  report.machine.loadAverageAtEnd = loadavg();
  console.log(renderTable(outcomes));
  console.log(`\n${METHOD.join('\n')}`);
  const warning = loadWarning(startMachine.cpus);
  if (warning) console.log(warning);
  const file = await writeReport(report);
  console.log(`\nReport: ${file} (and bench/results/latest.json)`);
  return outcomes.some((outcome) => outcome.status === 'FAILED') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

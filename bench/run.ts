// npm run bench [-- --quick] [--latency MS] [--scenario NAME ...] [--subscribers N] [--runners M]
//   [--connections C] [--subscribe-batch N] [--interval MS] [--replicas N] [--concurrency N] [--upstream-connections N]
//   [--client-rtt MS] [--upstream-h2] [--gateway-settings defaults|bench] [--trace] [--peers tailcall]
//
// Starts the driver process (the embedded v4 server with added latency, and every client), puts the
// gateway in this process in front of it on loopback (and the naive BFF, or a gateway measured the
// same way, in server processes of their own; with --replicas, the subscriptions' gateway replicas
// and their redis-server), runs each scenario, prints one table and
// writes bench/results/<timestamp>.json and bench/results/latest.json. A missed budget is a MISS in
// the table; the exit code is 1 only when a scenario FAILED (errors in responses, wrong data) or
// the run could not finish.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { locateGateway, scenarioContext, type PeerCommands } from './lib/context.js';
import { startDriver, type Driver } from './lib/driver/handle.js';
import { settledMemory } from './lib/measure.js';
import { ensureRedisServer } from './lib/redis-server.js';
import { loadWarning, machine, outcomeOf, renderTable, writeReport, type BenchReport, type ScenarioOutcome } from './lib/report.js';
import { benchDefaults, emptyReport, PEERS, type BenchOptions, type Peer } from './lib/scenario.js';
import { prepareTailcall, TAILCALL_PACKAGE } from './lib/tailcall.js';
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
  --replicas N             run "subscriptions" on N gateway processes sharing one redis-server on
                           loopback (REDIS_URL and one REDIS_KEY_SECRET each), the connections spread
                           round-robin over them; needs redis-server (bash scripts/ensure-redis.sh,
                           which the bench runs). Default: one gateway process, no Redis
  --concurrency N          workers of "hot-path" (default 32)
  --upstream-connections N undici connections to REST, every column alike (default 256, the
                           gateway's own default)
  --upstream-h2            the v4 server serves HTTP/2 over TLS (self-signed): every column reaches it
                           over h2, each connection carrying up to 100 calls at once (the naive BFF
                           through undici's fetch)
  --client-rtt MS          round trip between the client and the servers it calls, paid per request
                           by the page scenarios' clients: the gateway's and the REST client (default 0)
  --gateway-settings S     defaults: the gateway as it ships (createGateway's defaults); bench: the
                           REST-call limits raised to 10,000 and the whole pool for one operation, as
                           the bench ran it before (default: defaults)
  --peers NAME             add a peer column that needs more than the bench ships; repeatable
                           (${PEERS.join(', ')}). tailcall: Tailcall's prebuilt binary (the optional
                           dependency ${TAILCALL_PACKAGE}) in "hot-path" and "fleet"; on a glibc
                           older than 2.39 the bench fetches Debian 13's libc6 into bench/.cache/ once
                           (apt-get download, nothing installed). Off by default
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
        replicas: { type: 'string' },
        concurrency: { type: 'string' },
        'upstream-connections': { type: 'string' },
        'client-rtt': { type: 'string' },
        'upstream-h2': { type: 'boolean', default: false },
        'gateway-settings': { type: 'string', default: 'defaults' },
        trace: { type: 'boolean', default: false },
        peers: { type: 'string', multiple: true },
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
  const peers = (values.peers ?? []).flatMap((name) => name.split(','));
  for (const name of peers) if (!(PEERS as readonly string[]).includes(name)) fail(`unknown peer "${name}"`);
  const defaults = benchDefaults(quick);
  return {
    only,
    fromSource: values.source ?? false,
    options: {
      ...defaults,
      latencyMs: integer(values.latency, 'latency', defaults.latencyMs, 0),
      subscribers: integer(values.subscribers, 'subscribers', defaults.subscribers, 1),
      subscribedRunners: integer(values.runners, 'runners', defaults.subscribedRunners, 1),
      wsConnections: integer(values.connections, 'connections', defaults.wsConnections, 1),
      subscribeBatch: integer(values['subscribe-batch'], 'subscribe-batch', defaults.subscribeBatch, 1),
      pollIntervalMs: integer(values.interval, 'interval', defaults.pollIntervalMs, 50),
      replicas: integer(values.replicas, 'replicas', defaults.replicas, 1),
      concurrency: integer(values.concurrency, 'concurrency', defaults.concurrency, 1),
      upstreamConnections: integer(values['upstream-connections'], 'upstream-connections', defaults.upstreamConnections, 1),
      upstreamH2: values['upstream-h2'] ?? false,
      clientRttMs: integer(values['client-rtt'], 'client-rtt', defaults.clientRttMs, 0),
      trace: values.trace ?? false,
      gatewaySettings,
      peers: [...new Set(peers)] as Peer[],
    },
  };
}

/**
 * The peers' commands for the whole run. A peer that cannot be had here is left out with the reason
 * on stderr, and the rest of the bench runs.
 */
function preparePeers(options: BenchOptions, progress: (message: string) => void): PeerCommands {
  if (!options.peers.includes('tailcall')) return {};
  if (options.upstreamH2) {
    progress('--peers tailcall: left out: it reaches the v4 server over plain HTTP only here (no --upstream-h2)');
    return {};
  }
  try {
    const tailcall = prepareTailcall(progress);
    progress(`--peers tailcall: ${tailcall.description}`);
    return { tailcall };
  } catch (error) {
    progress(`--peers tailcall: left out, the Tailcall column will be missing: ${error instanceof Error ? error.message : String(error)}`);
    return {};
  }
}

const METHOD = [
  'The gateway, the naive BFF and (page scenarios) the REST waterfall server each run in a fresh process of their own, started for each scenario, which measures itself: CPU time (process.cpuUsage around each measured loop) and memory (RSS, heap). RSS at start is measured alike for both (scenario "startup"). The raw pass-through of "hot-path" runs in the bench process.',
  'The embedded v4 server and every client (GraphQL, REST baseline, WebSocket subscribers) run in a separate driver process, on loopback.',
  'Every response body is checked: a GraphQL response with `errors`, or data that differs from REST, fails its scenario.',
];
const REPLICAS_METHOD = (replicas: number) =>
  `With --replicas ${replicas}, the subscriptions' gateway is ${replicas} server processes of its own (each measuring itself, as the naive BFF does) sharing one redis-server, not the bench process: their memory and CPU time are summed. With the driver and Redis, that is ${replicas + 2} busy processes on this machine's CPUs.`;

async function main(): Promise<number> {
  const { options, only, fromSource } = parseOptions();
  // As deployed: graphql-js checks every `instanceof` of its type system twice outside production.
  process.env['NODE_ENV'] ??= 'production';
  const gatewayUnderTest = locateGateway(fromSource);
  const { compiled } = gatewayUnderTest;
  const selected = only.length ? scenarios.filter((scenario) => only.includes(scenario.name)) : scenarios;
  if (options.replicas > 0 && selected.some((scenario) => scenario.name === 'subscriptions')) {
    // Installs redis-server when it is missing and we may (root, apt-get); else says how to.
    try {
      ensureRedisServer();
    } catch (error) {
      console.error(`[bench] --replicas ${options.replicas}: ${error instanceof Error ? error.message : String(error)}`);
      return 2;
    }
  }
  const startedAt = new Date().toISOString();
  const startMachine = machine();
  const progress = (message: string) => console.error(`[bench] ${message}`);
  const watchdog = setTimeout(() => {
    console.error(`[bench] still running after ${WATCHDOG_MS / 60_000} minutes: giving up`);
    process.exit(1);
  }, WATCHDOG_MS);
  // Interrupted, it still exits through process.exit, whose handlers kill the redis-server of
  // --replicas (the child processes leave by themselves when this one goes).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`[bench] ${signal}: stopping`);
      process.exit(1);
    });
  }

  const peers = preparePeers(options, progress);
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
      const { context, close } = scenarioContext({ options, driver, simulator, progress }, gatewayUnderTest, peers);
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
        await close();
      }
      // The bench process itself after the scenario (its servers ran in processes of their own).
      const left = settledMemory();
      progress(`${scenario.name}: done; bench process heap ${(left.heapUsedBytes / 2 ** 20).toFixed(1)} MB, RSS ${(left.rssBytes / 2 ** 20).toFixed(1)} MB`);
      const outcome = outcomes[outcomes.length - 1];
      if (outcome) outcome.memoryAfter = left;
    }
  } finally {
    await driver?.stop();
    clearTimeout(watchdog);
  }

  const method = options.replicas > 0 ? [...METHOD, REPLICAS_METHOD(options.replicas)] : METHOD;
  const report: BenchReport = { startedAt, finishedAt: new Date().toISOString(), options, machine: startMachine, method, scenarios: outcomes };
  report.machine.loadAverageAtEnd = loadavg();
  console.log(renderTable(outcomes));
  console.log(`\n${method.join('\n')}`);
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

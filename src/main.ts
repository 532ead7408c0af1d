#!/usr/bin/env node
import { collectDefaultMetrics } from 'prom-client';
import { startSimulator, DEMO_TOKENS, parseRateLimit, type SimulatorRateLimits } from '../simulator/index.js';
import { ConfigError, gatewayOptions, helpText, loadConfig, wantsHelp, type GatewayConfig } from './server/config.js';
import { createGateway, tuneServerProcess } from './index.js';
import { createLogger } from './observability/logger.js';

/**
 * The command line, and the composition root: the only module of src/ that may import the
 * embedded v4 server. Without V4_URL it starts that server with demo data in this process.
 *
 * stdout carries JSON log lines only (pino), for log collectors; the banner for people (the URL,
 * the demo tokens) goes to stderr. Exit codes: 0 after --help or a clean stop on SIGTERM/SIGINT,
 * 2 for bad settings, 1 when the start or the stop fails.
 */
function readSettings(argv: readonly string[]): GatewayConfig {
  try {
    return loadConfig(process.env, argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

/** The embedded v4 server's rate limits (SIMULATOR_RATE_LIMIT_*), off unless set; a malformed one stops the start as bad settings do. */
function simulatorRateLimits(config: GatewayConfig): SimulatorRateLimits | undefined {
  try {
    const authenticated = parseRateLimit(config.simulatorRateLimitAuthenticated);
    const unauthenticated = parseRateLimit(config.simulatorRateLimitUnauthenticated);
    return authenticated || unauthenticated ? { ...(authenticated ? { authenticated } : {}), ...(unauthenticated ? { unauthenticated } : {}) } : undefined;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    console.error(`Invalid settings:\n  - SIMULATOR_RATE_LIMIT_*: ${error.message}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    process.stdout.write(helpText());
    return;
  }
  const config = readSettings(argv);
  // The process is the CLI's own, so it gets the V8 settings a server of REST pages wants.
  tuneServerProcess();
  const logger = createLogger({ level: config.logLevel });

  const simulator = config.upstreamUrl ? undefined : await startSimulator({ latencyMs: config.simulatorLatencyMs, rateLimits: simulatorRateLimits(config) });
  const upstreamUrl = config.upstreamUrl ?? simulator!.url;
  const gateway = createGateway(gatewayOptions(config, upstreamUrl, logger));
  // Process metrics (CPU, memory, event loop) belong to the process: the CLI's, not the library's.
  if (gateway.metrics) collectDefaultMetrics({ register: gateway.metrics.registry });
  const listening = await gateway.listen({ port: config.port, host: config.host });

  logger.info(
    { url: listening.url, wsUrl: listening.wsUrl, upstream: new URL(upstreamUrl).origin, embedded: simulator !== undefined },
    'listening',
  );
  console.error(`GraphQL gateway ready at ${listening.url} (subscriptions at ${listening.wsUrl})`);
  console.error(`Offline explorer at ${new URL('/explorer', listening.url).href}`);
  if (simulator) {
    console.error(`Upstream: the embedded v4 server with demo data at ${simulator.url}`);
    console.error('Demo tokens (send one as the PRIVATE-TOKEN header):');
    for (const role of ['admin', 'maintainer', 'developer', 'guest'] as const) {
      console.error(`  ${role.padEnd(10)} ${DEMO_TOKENS[role]}`);
    }
  } else {
    console.error(`Upstream: ${new URL(upstreamUrl).origin}`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    // close() cuts what is still running after the timeout; this only guards against a hang, and
    // is armed before anything else runs (a log line included: stdout may be a broken pipe).
    setTimeout(() => {
      logger.error('stopping took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000).unref();
    logger.info({ signal, shutdownTimeoutMs: config.shutdownTimeoutMs }, 'stopping: finishing in-flight requests');
    gateway
      .close()
      .then(() => simulator?.close())
      .then(
        () => {
          logger.info({ signal }, 'stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error(`stopping failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();

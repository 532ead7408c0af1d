import { startSimulator, DEMO_TOKENS } from '../simulator/index.js';
import { ConfigError, loadConfig, type GatewayConfig } from './config.js';
import { createGateway } from './index.js';

/**
 * The command line, and the composition root: the only module of src/ that may import the
 * embedded v4 server. Without V4_URL it starts that server with demo data in this process.
 */
async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  const simulator = config.upstreamUrl ? undefined : await startSimulator({ latencyMs: config.simulatorLatencyMs });
  const upstreamUrl = config.upstreamUrl ?? simulator!.url;
  const gateway = createGateway({
    upstreamUrl,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    upstreamConnections: config.upstreamConnections,
    upstreamRetryAttempts: config.upstreamRetryAttempts,
    circuitBreaker:
      config.circuitBreakerFailures === 0
        ? false
        : { failureThreshold: config.circuitBreakerFailures, cooldownMs: config.circuitBreakerCooldownMs },
    runnerPollIntervalMs: config.runnerPollIntervalMs,
    batching: config.batching,
    landingPage: config.landingPage,
    introspection: config.introspection,
    maxUploadBytes: config.maxUploadBytes,
    limits: config.limits,
  });
  const listening = await gateway.listen({ port: config.port, host: config.host });

  console.log(`GraphQL gateway ready at ${listening.url} (subscriptions at ${listening.wsUrl})`);
  if (simulator) {
    console.log(`Upstream: the embedded v4 server with demo data at ${simulator.url}`);
    console.log('Demo tokens (send one as the PRIVATE-TOKEN header):');
    for (const role of ['admin', 'maintainer', 'developer', 'guest'] as const) {
      console.log(`  ${role.padEnd(10)} ${DEMO_TOKENS[role]}`);
    }
  } else {
    console.log(`Upstream: ${new URL(upstreamUrl).origin}`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    void gateway
      .close()
      .then(() => simulator?.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();

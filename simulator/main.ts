// npx tsx simulator/main.ts --port 4010 [--host 127.0.0.1] [--latency 20] [--tls]
//   [--rate-limit-authenticated 7200/3600] [--rate-limit-unauthenticated 3600/3600]
// The rate limits may also come from SIMULATOR_RATE_LIMIT_AUTHENTICATED and
// SIMULATOR_RATE_LIMIT_UNAUTHENTICATED (requests/periodSeconds); a flag wins over its variable.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_TOKENS, parseRateLimit, startSimulator, type RateLimit } from './index.js';

function numberOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer, got "${value}"`);
    process.exit(2);
  }
  return n;
}

function rateLimitOption(flag: string | undefined, envName: string, name: string): RateLimit | undefined {
  const value = flag ?? process.env[envName];
  try {
    return parseRateLimit(value);
  } catch {
    console.error(`--${name} (${envName}) must be requests/periodSeconds with positive integers, e.g. 7200/3600, got "${value}"`);
    process.exit(2);
  }
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    latency: { type: 'string' },
    tls: { type: 'boolean', default: false },
    'rate-limit-authenticated': { type: 'string' },
    'rate-limit-unauthenticated': { type: 'string' },
  },
});

const rateLimits = {
  authenticated: rateLimitOption(values['rate-limit-authenticated'], 'SIMULATOR_RATE_LIMIT_AUTHENTICATED', 'rate-limit-authenticated'),
  unauthenticated: rateLimitOption(values['rate-limit-unauthenticated'], 'SIMULATOR_RATE_LIMIT_UNAUTHENTICATED', 'rate-limit-unauthenticated'),
};

const simulator = await startSimulator({
  port: numberOption(values.port, 'port', 4010),
  host: values.host ?? '127.0.0.1',
  latencyMs: numberOption(values.latency, 'latency', 0),
  tls: values.tls ?? false,
  rateLimits,
});

console.log(`Embedded GitLab v4 server at ${simulator.url}`);
if (simulator.ca) {
  // A client must trust the certificate made at start: the gateway with UPSTREAM_CA_FILE, others with NODE_EXTRA_CA_CERTS.
  const caFile = join(tmpdir(), `gitlab-v4-simulator-${new URL(simulator.origin).port}.pem`);
  writeFileSync(caFile, simulator.ca);
  console.log(`HTTP/2 and HTTP/1.1 over TLS; its self-signed certificate: ${caFile}`);
  console.log(`  V4_URL=${simulator.url} UPSTREAM_CA_FILE=${caFile} npm start`);
}
for (const [kind, limit] of Object.entries(rateLimits)) {
  if (limit) console.log(`Rate limit, ${kind} API requests: ${limit.requests} per ${limit.periodSeconds} s per ${kind === 'authenticated' ? 'user' : 'IP'}`);
}
console.log('Demo tokens (PRIVATE-TOKEN header):');
for (const [role, token] of Object.entries(DEMO_TOKENS)) console.log(`  ${role.padEnd(18)} ${token}`);
console.log('Runner registration tokens (POST /runners token=...):');
console.log(`  ${'instance'.padEnd(18)} ${DEMO_TOKENS.runnerRegistration}`);
for (const path of ['gitlab-org', 'opensource']) {
  const group = simulator.state.findGroup(path);
  if (group) console.log(`  ${`group ${path}`.padEnd(18)} ${group.runnersToken}`);
}
const project = simulator.state.findProject('gitlab-org/frontend/web-ui');
if (project) console.log(`  ${'project web-ui'.padEnd(18)} ${project.runnersToken}  (and GR1348941-demo-project-<id>)`);
console.log('Runner authentication tokens (POST /runners/verify, DELETE /runners token=...):');
for (const id of [1, 16, 37]) {
  const runner = simulator.state.runners.get(id);
  if (runner) console.log(`  ${`runner ${id} (${runner.runnerType})`.padEnd(28)} ${runner.token}`);
}
console.log(`Control API: ${simulator.origin}/__simulator/{requests,reset,latency,faults,rate-limits}`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping`);
  simulator.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

import { describe, expect, it } from 'vitest';
import type { Credential, CredentialRequest } from '../../src/index.js';
import { ARTIFACTS_DEMO_PROJECT_ID, DEMO_TOKENS, type Simulator } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { until } from '../support/wait.js';
import { connectWebSocket, postGraphQL } from './support.js';

const { maintainer, developer, guest } = DEMO_TOKENS;
const CURRENT_USER = '{ currentUser { username } }';

/** The archive path of a demo job with artifacts, on the gateway and on REST. */
function artifactPath(simulator: Simulator): string {
  const job = [...simulator.state.jobs.values()].find((candidate) => candidate.projectId === ARTIFACTS_DEMO_PROJECT_ID && candidate.name === 'build-docs');
  return `/projects/${ARTIFACTS_DEMO_PROJECT_ID}/jobs/${job!.id}/artifacts/notes/readme.txt`;
}

/** What REST answers for `path` with `token`, asked directly (not counted as the gateway's call). */
async function restAnswer(simulator: Simulator, path: string, token?: string): Promise<{ status: number; bytes: Buffer }> {
  const before = simulator.requests.length;
  const response = await fetch(`${simulator.url}${path}`, { headers: token ? { 'private-token': token } : {} });
  const bytes = Buffer.from(await response.arrayBuffer());
  simulator.requests.splice(before);
  return { status: response.status, bytes };
}

async function gatewayDownload(gatewayUrl: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gatewayUrl.replace(/\/graphql$/, '')}/artifacts${path}`, { headers });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('a credential reader of the embedder', () => {
  // A BFF whose callers hold a session, not a GitLab token: the reader maps one to the other.
  const sessions: Record<string, string> = { alice: maintainer, bob: developer };
  const credentials = ({ headers, connectionParams }: CredentialRequest): Credential | null => {
    const session = connectionParams ? connectionParams['session'] : headers['x-bff-session'];
    const token = typeof session === 'string' ? sessions[session] : undefined;
    return token ? { kind: 'private-token', value: token } : null;
  };
  const harness = gatewayOverSimulator({ credentials });

  it('decides who an HTTP request runs as; the usual headers no longer count', async () => {
    const alice = await postGraphQL(harness.gateway.url, CURRENT_USER, { headers: { 'x-bff-session': 'alice' } });
    expect(alice.body).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    const tokenOnly = await postGraphQL(harness.gateway.url, CURRENT_USER, { headers: { 'private-token': maintainer } });
    expect(tokenOnly.body).toEqual({ data: { currentUser: null } });
  });

  it('decides who an artifact download runs as', async () => {
    const path = artifactPath(harness.simulator);
    const asBob = await gatewayDownload(harness.gateway.url, path, { 'x-bff-session': 'bob' });
    expect(asBob).toEqual(await restAnswer(harness.simulator, path, developer));
    expect(asBob.status).toBe(200);
  });

  it('decides who a WebSocket runs as, from its connection_init payload', async () => {
    const alice = connectWebSocket(harness.gateway.wsUrl, { session: 'alice' });
    try {
      expect(await alice.first(CURRENT_USER)).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    } finally {
      await alice.client.dispose();
    }
    const stranger = connectWebSocket(harness.gateway.wsUrl, { session: 'mallory', 'PRIVATE-TOKEN': maintainer });
    await until(() => stranger.closeCode !== undefined);
    expect(stranger.closeCode).toBe(4403);
  });
});

describe('a service token', () => {
  const harness = gatewayOverSimulator({ serviceToken: guest });

  it('runs HTTP requests without a credential as the service user, and the others as their caller', async () => {
    expect((await postGraphQL(harness.gateway.url, CURRENT_USER)).body).toEqual({ data: { currentUser: { username: 'guest' } } });
    const own = await postGraphQL(harness.gateway.url, CURRENT_USER, { headers: { authorization: `Bearer ${maintainer}` } });
    expect(own.body).toEqual({ data: { currentUser: { username: 'maintainer' } } });
  });

  it('runs artifact downloads without a credential as the service user', async () => {
    // An internal project's archive: any signed-in user may read it, an anonymous caller may not.
    const { state } = harness.simulator;
    const unexpired = (jobId: number) => {
      const expireAt = state.jobArtifacts.get(jobId)?.expireAt;
      return expireAt === null || (expireAt !== undefined && Date.parse(expireAt) > Date.now());
    };
    const job = [...state.jobs.values()].find((candidate) => unexpired(candidate.id) && state.projects.get(candidate.projectId)?.visibility === 'internal');
    const path = `/projects/${job!.projectId}/jobs/${job!.id}/artifacts`;
    const withoutCredential = await gatewayDownload(harness.gateway.url, path);
    expect(withoutCredential).toEqual(await restAnswer(harness.simulator, path, guest));
    expect(withoutCredential.status).toBe(200);
    expect((await restAnswer(harness.simulator, path)).status).toBe(404);
  });

  it('accepts a WebSocket without a credential as the service user', async () => {
    const socket = connectWebSocket(harness.gateway.wsUrl);
    try {
      expect(await socket.first(CURRENT_USER)).toEqual({ data: { currentUser: { username: 'guest' } } });
    } finally {
      await socket.client.dispose();
    }
  });
});

describe('the service token in errors and logs', () => {
  // Not GitLab-shaped, so only the gateway's knowledge of it can keep it out of what it sends.
  const SECRET = 'bff-service-secret-2f9c81';
  const logged: string[] = [];
  const harness = gatewayOverSimulator({
    serviceToken: SECRET,
    logger: { error: (message) => logged.push(message) },
    extend: {
      typeDefs: 'extend type Query { "Fails with the service token in its message." leaky: String }',
      resolvers: { Query: { leaky: () => Promise.reject(new Error(`lost ${SECRET} somewhere`)) } },
    },
  });
  const echoing = { message: `403 Forbidden - the token ${SECRET} may not read this` };

  it('never reaches a GraphQL error over HTTP, nor the log of an unexpected error', async () => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/1', kind: 'status', status: 403, body: echoing });
    const refused = await postGraphQL(harness.gateway.url, '{ runner(id: "gid://gitlab/Ci::Runner/1") { id } }');
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    expect(JSON.stringify(refused.body)).toContain('[REDACTED] may not read this');
    expect(JSON.stringify(refused.body)).not.toContain(SECRET);

    const failed = await postGraphQL(harness.gateway.url, '{ leaky }');
    expect(failed.body.errors?.[0]).toMatchObject({ message: 'Internal error in the gateway', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    await until(() => logged.some((line) => line.includes('lost [REDACTED] somewhere')));
    expect(logged.join('\n')).not.toContain(SECRET);
    harness.simulator.faults.clear();
  });

  it('never reaches a GraphQL error over WebSocket', async () => {
    // The connection's check of the credential: this upstream takes the service token.
    harness.simulator.faults.add({ method: 'GET', path: '/user', kind: 'status', status: 200, body: { id: 99, username: 'service', name: 'Service' } });
    harness.simulator.faults.add({ method: 'GET', path: '/runners/1', kind: 'status', status: 403, body: echoing });
    const socket = connectWebSocket(harness.gateway.wsUrl);
    try {
      const refused = await socket.first('{ runner(id: "gid://gitlab/Ci::Runner/1") { id } }');
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      expect(JSON.stringify(refused)).not.toContain(SECRET);
    } finally {
      await socket.client.dispose();
      harness.simulator.faults.clear();
    }
  });

  it('never reaches the error of an artifact download', async () => {
    const path = artifactPath(harness.simulator);
    harness.simulator.faults.add({ method: 'GET', path: /\/artifacts\//, kind: 'status', status: 404, body: { message: `404 Not found for ${SECRET}` } });
    const download = await gatewayDownload(harness.gateway.url, path);
    expect(download.status).toBe(404);
    expect(download.bytes.toString()).not.toContain(SECRET);
    expect(restCalls(harness.simulator)).toHaveLength(1);
    harness.simulator.faults.clear();
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { start as startExpressBff } from '../../examples/express/server.js';
import { start as startFastifyBff } from '../../examples/fastify/server.js';
import { hello, type BffOptions, type RunningBff } from '../../examples/shared/bff.js';
import { ARTIFACTS_DEMO_PROJECT_ID, DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { restCalls, restOracle } from '../support/rest-oracle.js';
import { graphqlStatusOf } from '../support/runner-watch.js';
import { until } from '../support/wait.js';
import { connectWebSocket, postGraphQL } from './support.js';

const { maintainer, developer } = DEMO_TOKENS;
const runnerGid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

/** `group { parent { parent { ... { id } } } }`: a valid query `depth` fields deep. */
function nestedQuery(depth: number): string {
  return `{ group(fullPath: "gitlab-org/frontend") { ${'parent { '.repeat(depth - 2)}id${' }'.repeat(depth - 2)} } }`;
}

interface RestRunner {
  id: number;
  description: string;
}
interface RestJob {
  id: number;
  commit: { title: string };
  user: { username: string } | null;
}

describe.each([
  ['Express', startExpressBff],
  ['Fastify', startFastifyBff],
] as Array<[string, (options: BffOptions) => Promise<RunningBff>]>)('the %s example, embedding the gateway', (framework, start) => {
  let simulator: Simulator;
  let bff: RunningBff;
  let oracle: ReturnType<typeof restOracle>;
  const query = <T>(text: string, variables: Record<string, unknown> = {}, token?: string, headers: Record<string, string> = {}) =>
    postGraphQL<T>(bff.url, text, { variables, headers: { ...(token ? { 'private-token': token } : {}), ...headers } });

  beforeAll(async () => {
    simulator = await startSimulator();
    oracle = restOracle(simulator);
    bff = await start({ upstreamUrl: simulator.url, gateway: { runnerPollIntervalMs: 40 } });
  });
  afterAll(async () => {
    await bff?.close();
    await simulator?.close();
  });
  beforeEach(() => simulator.resetRequests());

  it('answers its own REST route beside the gateway', async () => {
    const response = await fetch(`${bff.origin}/api/hello`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(hello(framework));
    expect(restCalls(simulator)).toEqual([]);
  });

  it("runs a nested query of the gateway's with the BFF's own field, one REST call per distinct resource", async () => {
    const [runner] = await oracle.all<RestRunner>('/runners?type=group_type', maintainer);
    const result = await query<{
      bffInfo: { framework: string; greeting: string; viewer: { id: string; username: string } };
      runner: { description: string; jobs: { nodes: Array<{ id: string; commit: { title: string }; user: { username: string } | null }> } };
    }>(
      `query($id: CiRunnerID!) {
         bffInfo { framework greeting viewer { id username } }
         runner(id: $id) { description jobs(first: 3) { nodes { id commit { title } user { username } } } }
       }`,
      { id: runnerGid(runner!.id) },
      maintainer,
      { 'x-request-id': `embedding-${framework}` },
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.headers.get('x-request-id')).toBe(`embedding-${framework}`);
    const calls = restCalls(simulator);

    const me = await oracle.get<{ id: number; username: string; name: string }>('/user', maintainer);
    const jobs = await oracle.get<RestJob[]>(`/runners/${runner!.id}/jobs?per_page=3&page=1`, maintainer);
    expect(result.body.data).toEqual({
      bffInfo: { framework, greeting: `Hello, ${me.name}!`, viewer: { id: `gid://gitlab/User/${me.id}`, username: me.username } },
      runner: {
        description: runner!.description,
        jobs: {
          nodes: jobs.map((job) => ({
            id: `gid://gitlab/Ci::Build/${job.id}`,
            commit: { title: job.commit.title },
            user: job.user ? { username: job.user.username } : null,
          })),
        },
      },
    });
    // The BFF's field: GET /user; the runner and its jobs: one call each (commits and users are embedded).
    expect(calls.sort()).toEqual(['GET /runners/' + runner!.id, `GET /runners/${runner!.id}/jobs`, 'GET /user']);
  });

  it("answers the BFF's field without a credential with no REST call", async () => {
    const result = await query(`{ bffInfo { framework greeting viewer { username } } }`);
    expect(result.body).toEqual({ data: { bffInfo: { framework, greeting: null, viewer: null } } });
    expect(restCalls(simulator)).toEqual([]);
  });

  it("keeps the gateway's limits on its mount, the BFF's field included, before any REST call", async () => {
    const deep = await query(nestedQuery(21), {}, maintainer);
    expect(deep.body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'depth' });
    const aliases = Array.from({ length: 31 }, (_, index) => `b${index}: bffInfo { greeting }`).join(' ');
    const aliased = await query(`{ ${aliases} }`, {}, maintainer);
    expect(aliased.body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'aliases' });
    const long = await query(`{ bffInfo { framework } ${' '.repeat(10_000)}}`, {}, maintainer);
    expect(long.status).toBe(400);
    expect(long.body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'length' });
    expect(restCalls(simulator)).toEqual([]);
  });

  it('pushes a runner status change over graphql-ws on the same server, under the same limits', async () => {
    const [runner] = await oracle.all<RestRunner & { paused: boolean }>('/runners?type=group_type&paused=false', maintainer);
    const socket = connectWebSocket(bff.wsUrl, { 'PRIVATE-TOKEN': maintainer });
    try {
      const tooDeep = await socket.first(nestedQuery(21));
      expect(tooDeep.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'depth' });
      expect(await socket.first('{ bffInfo { framework } }')).toEqual({ data: { bffInfo: { framework } } });

      const events = socket.client.iterate<{ ciRunnerStatusUpdated: { id: string; status: string; paused: boolean } }>({
        query: 'subscription($id: CiRunnerID!) { ciRunnerStatusUpdated(runnerId: $id) { id status paused } }',
        variables: { id: runnerGid(runner!.id) },
      });
      const next = events.next();
      const polls = () => simulator.requests.filter((request) => request.path === `/runners/${runner!.id}`).length;
      await until(() => bff.gateway.pollers.activeSubscriptions === 1 && polls() >= 1);
      const paused = await query(`mutation($id: CiRunnerID!) { runnerUpdate(input: { id: $id, paused: true }) { errors } }`, { id: runnerGid(runner!.id) }, maintainer);
      expect(paused.body).toEqual({ data: { runnerUpdate: { errors: [] } } });
      const status = graphqlStatusOf(await restOracle(simulator).get<{ status: string; online: boolean | null }>(`/runners/${runner!.id}`, maintainer));
      expect((await next).value).toEqual({ data: { ciRunnerStatusUpdated: { id: runnerGid(runner!.id), status, paused: true } } });
      await events.return?.();
      await until(() => bff.gateway.pollers.activePollers === 0);
    } finally {
      await socket.client.dispose();
    }
  });

  it('closes a WebSocket without a credential with 4403 Forbidden', async () => {
    const socket = connectWebSocket(bff.wsUrl);
    await until(() => socket.closeCode !== undefined);
    expect(socket.closeCode).toBe(4403);
  });

  it("streams the gateway's artifact downloads, and leaves other paths to the BFF", async () => {
    const job = [...simulator.state.jobs.values()].find((candidate) => candidate.projectId === ARTIFACTS_DEMO_PROJECT_ID && candidate.name === 'build-docs');
    const path = `/projects/${ARTIFACTS_DEMO_PROJECT_ID}/jobs/${job!.id}/artifacts/notes/readme.txt`;
    const download = await fetch(`${bff.origin}/artifacts${path}`, { headers: { 'private-token': developer } });
    expect(download.status).toBe(200);
    const fromRest = await fetch(`${simulator.url}${path}`, { headers: { 'private-token': developer } });
    expect(Buffer.from(await download.arrayBuffer())).toEqual(Buffer.from(await fromRest.arrayBuffer()));

    simulator.resetRequests();
    expect((await fetch(`${bff.origin}/api/nothing-here`)).status).toBe(404);
    expect(restCalls(simulator)).toEqual([]);
  });
});

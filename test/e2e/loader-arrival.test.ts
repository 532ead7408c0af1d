import { afterEach, describe, expect, it } from 'vitest';
import { gatewayOverSimulator } from '../support/harness.js';

// A by-key loader's batch is only concurrent REST calls (REST has no multi-get), so each key's load
// settles when its own answer arrives: a record that has arrived goes on resolving, and its
// children's calls go out, while a sibling of its batch is still awaited.

const admin = 'glpat-demo-admin';
/** Runner 41's one project is gitlab-org/gitaly (id 3); runner 42 is another project runner. */
const QUERY = `{
  fast: runner(id: "gid://gitlab/Ci::Runner/41") { id projects { nodes { fullPath visibility } } }
  held: runner(id: "gid://gitlab/Ci::Runner/42") { id version }
}`;

describe('a batch of by-key loads', () => {
  const harness = gatewayOverSimulator({ requestDeadlineMs: 1_500 });
  afterEach(() => harness.simulator.faults.clear());

  it("settles each load with its own answer, not after the batch's slowest", async () => {
    // Runner 42's detail never comes; the operation ends at its deadline.
    harness.simulator.faults.add({ method: 'GET', path: '/runners/42', kind: 'timeout' });
    const result = await harness.gateway.query<{ fast: unknown; held: unknown }>(QUERY, {}, admin);

    // Runner 41 arrived at once: its project's own record (for `visibility`) was asked for then,
    // long before the deadline. Held behind runner 42, it would have been sent past the deadline.
    expect(result.data?.fast).toEqual({
      id: 'gid://gitlab/Ci::Runner/41',
      projects: { nodes: [{ fullPath: 'gitlab-org/gitaly', visibility: 'public' }] },
    });
    expect(result.data?.held).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]?.path).toEqual(['held']);
    const asked = harness.simulator.requests.map((request) => `${request.method} ${request.path}`);
    expect(asked).toEqual(expect.arrayContaining(['GET /runners/41', 'GET /runners/42', 'GET /projects/3']));
    expect(asked).toHaveLength(3);
  });

  it("fails only its own key when a key's call cannot be built", async () => {
    // A lone surrogate cannot travel in a URL: that project's call is refused while it is built,
    // inside the batch it shares with a project that is fine.
    const result = await harness.gateway.query<{ fine: unknown; unsendable: unknown }>(
      'query ($path: ID!) { fine: project(fullPath: "gitlab-org/gitaly") { fullPath } unsendable: project(fullPath: $path) { fullPath } }',
      { path: 'gitlab-org/\uD800' },
      admin,
    );
    expect(result.data).toEqual({ fine: { fullPath: 'gitlab-org/gitaly' }, unsendable: null });
    expect(result.errors?.map((error) => [error.path, error.extensions?.['code']])).toEqual([[['unsendable'], 'BAD_USER_INPUT']]);
    expect(harness.simulator.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /projects/gitlab-org%2Fgitaly']);
  });
});

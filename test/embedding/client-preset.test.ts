import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import config from '../../examples/client/codegen.js';
import { fleet, setPaused } from '../../examples/client/run.js';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { maintainer } = DEMO_TOKENS;

interface RestRunner {
  id: number;
  description: string | null;
  status: string;
  paused: boolean;
  projects?: Array<{ path_with_namespace: string }>;
}

describe('the typed client example (GraphQL Code Generator client preset)', () => {
  it('has its generated code up to date with schema.graphql and its documents (run `npm run codegen:client`)', async () => {
    const generated = (await generate({ ...config, silent: true }, false)) as Array<{ filename: string; content: string }>;
    expect(generated.map((file) => file.filename).sort()).toEqual(
      ['graphql.ts', 'gql.ts', 'fragment-masking.ts', 'index.ts', 'persisted-documents.json'].map((name) => `examples/client/gql/${name}`).sort(),
    );
    for (const { filename, content } of generated) expect(readFileSync(filename, 'utf8'), `${filename} is stale`).toBe(content);
  });

  describe('against a gateway', () => {
    const harness = gatewayOverSimulator();
    const endpoint = () => ({ url: harness.gateway.url, token: maintainer });

    it('runs its typed query, fragments unmasked, with the data REST holds', async () => {
      const view = await fleet(endpoint(), 3);
      const me = await harness.oracle.get<{ username: string }>('/user', maintainer);
      const listed = await harness.oracle.get<RestRunner[]>('/runners?status=active&per_page=3&page=1', maintainer);
      const details = await Promise.all(listed.map((runner) => harness.oracle.get<RestRunner>(`/runners/${runner.id}`, maintainer)));
      expect(view).toEqual({
        username: me.username,
        runners: details.map((runner) => ({
          id: `gid://gitlab/Ci::Runner/${runner.id}`,
          description: runner.description,
          status: runner.status.toUpperCase(),
          paused: runner.paused,
          projects: (runner.projects ?? []).map((project) => project.path_with_namespace),
        })),
      });
      expect(view.runners).toHaveLength(3);
    });

    it('runs its typed mutation as one REST write', async () => {
      const [runner] = await harness.oracle.get<RestRunner[]>('/runners?status=active&per_page=1&page=1', maintainer);
      harness.simulator.resetRequests();
      const paused = await setPaused(endpoint(), `gid://gitlab/Ci::Runner/${runner!.id}`, true);
      expect(paused).toMatchObject({ id: `gid://gitlab/Ci::Runner/${runner!.id}`, paused: true });
      expect(restCalls(harness.simulator)).toEqual([`PUT /runners/${runner!.id}`]);
      expect((await harness.oracle.get<RestRunner>(`/runners/${runner!.id}`, maintainer)).paused).toBe(true);
      await setPaused(endpoint(), `gid://gitlab/Ci::Runner/${runner!.id}`, false);
    });
  });
});

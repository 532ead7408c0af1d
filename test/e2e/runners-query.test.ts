import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestRunner {
  id: number;
  description: string;
  status: string;
  paused?: boolean;
  active: boolean;
  runner_type: string;
  tag_list?: string[];
  projects?: Array<{ path_with_namespace: string }>;
}
interface RestJob {
  id: number;
  status: string;
  commit: { id: string; title: string };
  project: { id: number; path_with_namespace: string };
}
interface Connection<T> {
  count: number | null;
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

describe('runners over real HTTP', () => {
  // The caller-isolation test lists 100 runners with a detail field (estimate 102, above the default limit).
  const harness = gatewayOverSimulator({ limits: { maxRestCalls: 200 } });

  describe('a nested query', () => {
    it('answers runners -> projects and runners -> jobs -> commit with one REST call per distinct resource', async () => {
      const token = DEMO_TOKENS.maintainer;
      const result = await harness.gateway.query<{
        ownedRunners: Connection<{ id: string; description: string; projects: Connection<{ fullPath: string }> | null; jobs: Connection<{ id: string; status: string; commit: { sha: string; title: string } }> }>;
      }>(
        `{ ownedRunners(first: 5) { count nodes { id description
             projects { nodes { fullPath } }
             jobs(first: 3) { nodes { id status commit { sha title } } } } } }`,
        {},
        token,
      );
      expect(result.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);

      const expectedRunners = (await harness.oracle.get<RestRunner[]>('/runners?per_page=5&page=1', token)).slice(0, 5);
      const nodes = result.data!.ownedRunners.nodes;
      expect(nodes.map((node) => node.id)).toEqual(expectedRunners.map((runner) => gid(runner.id)));
      for (const [index, runner] of expectedRunners.entries()) {
        const detail = await harness.oracle.get<RestRunner>(`/runners/${runner.id}`, token);
        // As in GitLab, only project runners list projects.
        if (runner.runner_type === 'project_type') {
          expect(nodes[index]!.projects!.nodes.map((project) => project.fullPath)).toEqual(detail.projects!.map((project) => project.path_with_namespace));
        } else {
          expect(nodes[index]!.projects).toBeNull();
        }
        const jobs = await harness.oracle.get<RestJob[]>(`/runners/${runner.id}/jobs?per_page=3&page=1`, token);
        expect(nodes[index]!.jobs.nodes).toEqual(jobs.map((job) => ({ id: `gid://gitlab/Ci::Build/${job.id}`, status: job.status.toUpperCase(), commit: { sha: job.commit.id, title: job.commit.title } })));
      }

      // One list call, one detail call per project runner (for `projects`), one jobs call per
      // runner; commits are embedded in the jobs, so they cost nothing.
      const projectRunners = expectedRunners.filter((runner) => runner.runner_type === 'project_type').length;
      expect(calls).toHaveLength(1 + projectRunners + expectedRunners.length);
      expect(calls.filter((call) => call.startsWith('GET /runners?') || call === 'GET /runners')).toHaveLength(1);
      expect(new Set(calls).size).toBe(calls.length);
    });

    it('fetches a project embedded in many jobs once, and only for fields the embed lacks', async () => {
      const token = DEMO_TOKENS.admin;
      const runnerId = 1;
      const result = await harness.gateway.query<{ runner: { jobs: { nodes: Array<{ project: { fullPath: string; name: string; visibility: string } }> } } }>(
        `query($id: CiRunnerID!) { runner(id: $id) { jobs(first: 40) { nodes { project { fullPath name visibility } } } } }`,
        { id: gid(runnerId) },
        token,
      );
      expect(result.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);
      const jobs = await harness.oracle.get<RestJob[]>(`/runners/${runnerId}/jobs?per_page=40&page=1`, token);
      const distinctProjects = new Set(jobs.map((job) => job.project.id));
      expect(distinctProjects.size).toBeGreaterThan(1);
      expect(distinctProjects.size).toBeLessThan(jobs.length);
      // runner(id:) is answered by GET /runners/:id, the jobs by one list call; `visibility` is not
      // in the embedded project, so each distinct project is fetched exactly once.
      expect(calls.filter((call) => call.startsWith('GET /projects/'))).toHaveLength(distinctProjects.size);
      expect(calls).toHaveLength(2 + distinctProjects.size);
      for (const [index, node] of result.data!.runner.jobs.nodes.entries()) {
        const project = await harness.oracle.get<{ visibility: string; path_with_namespace: string }>(`/projects/${jobs[index]!.project.id}`, token);
        expect(node.project).toMatchObject({ fullPath: project.path_with_namespace, visibility: project.visibility });
      }
    });

    it('fetches the same runner once however many fields and aliases ask for it', async () => {
      const result = await harness.gateway.query(
        `{ a: runner(id: "${gid(16)}") { description tagList version }
           b: runner(id: "${gid(16)}") { status accessLevel projects { count } }
           node(id: "${gid(16)}") { id ... on CiRunner { locked } } }`,
        {},
        DEMO_TOKENS.admin,
      );
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual(['GET /runners/16']);
    });
  });

  describe('paging', () => {
    it.each([7, 13, 33])('walks all runners forward with first: %i, each exactly once', async (size) => {
      const token = DEMO_TOKENS.admin;
      const expected = await harness.oracle.all<RestRunner>('/runners/all', token);
      const seen: string[] = [];
      let after: string | null = null;
      for (let guard = 0; guard < 100; guard++) {
        harness.simulator.resetRequests();
        const result: { data?: { runners: Connection<{ id: string }> } | null; errors?: unknown } = await harness.gateway.query(
          `query($first: Int, $after: String) { runners(first: $first, after: $after) { count nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
          { first: size, after },
          token,
        );
        expect(result.errors).toBeUndefined();
        const connection = result.data!.runners;
        expect(restCalls(harness.simulator).length).toBeLessThanOrEqual(2);
        expect(connection.count).toBe(expected.length);
        expect(connection.pageInfo.hasPreviousPage).toBe(after !== null);
        seen.push(...connection.nodes.map((node) => node.id));
        if (!connection.pageInfo.hasNextPage) break;
        after = connection.pageInfo.endCursor;
      }
      expect(seen).toEqual(expected.map((runner) => gid(runner.id)));
    });

    it.each([7, 13, 33])('walks all runners backward with last: %i, each exactly once', async (size) => {
      const token = DEMO_TOKENS.admin;
      const expected = await harness.oracle.all<RestRunner>('/runners/all', token);
      const seen: string[] = [];
      let before: string | null = null;
      for (let guard = 0; guard < 100; guard++) {
        const result: { data?: { runners: Connection<{ id: string }> } | null; errors?: unknown } = await harness.gateway.query(
          `query($last: Int, $before: String) { runners(last: $last, before: $before) { count nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
          { last: size, before },
          token,
        );
        expect(result.errors).toBeUndefined();
        const connection = result.data!.runners;
        expect(connection.count).toBe(expected.length);
        expect(connection.pageInfo.hasNextPage).toBe(before !== null);
        seen.unshift(...connection.nodes.map((node) => node.id));
        if (!connection.pageInfo.hasPreviousPage) break;
        before = connection.pageInfo.startCursor;
      }
      expect(seen).toEqual(expected.map((runner) => gid(runner.id)));
    });

    it('pages a runner with over 100 jobs in both directions', async () => {
      const token = DEMO_TOKENS.admin;
      const expected = await harness.oracle.all<RestJob>('/runners/1/jobs', token);
      expect(expected.length).toBeGreaterThan(100);
      const firstPage = await harness.gateway.query<{ runner: { jobs: Connection<{ id: string }> } }>(
        `{ runner(id: "${gid(1)}") { jobs(first: 100) { count nodes { id } pageInfo { hasNextPage endCursor } } } }`,
        {},
        token,
      );
      const rest = await harness.gateway.query<{ runner: { jobs: Connection<{ id: string }> } }>(
        `query($after: String) { runner(id: "${gid(1)}") { jobs(first: 100, after: $after) { nodes { id } pageInfo { hasNextPage } } } }`,
        { after: firstPage.data!.runner.jobs.pageInfo.endCursor },
        token,
      );
      const ids = [...firstPage.data!.runner.jobs.nodes, ...rest.data!.runner.jobs.nodes].map((node) => node.id);
      expect(ids.slice(0, 200)).toEqual(expected.slice(0, 200).map((job) => `gid://gitlab/Ci::Build/${job.id}`));
      expect(firstPage.data!.runner.jobs.count).toBe(expected.length);

      const tail = await harness.gateway.query<{ runner: { jobs: Connection<{ id: string }> } }>(
        `{ runner(id: "${gid(1)}") { jobs(last: 10, sort: ASC) { nodes { id } pageInfo { hasNextPage hasPreviousPage } } } }`,
        {},
        token,
      );
      const ascending = await harness.oracle.all<RestJob>('/runners/1/jobs?sort=asc', token);
      expect(tail.data!.runner.jobs.nodes.map((node) => node.id)).toEqual(ascending.slice(-10).map((job) => `gid://gitlab/Ci::Build/${job.id}`));
      expect(tail.data!.runner.jobs.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    });
  });

  describe('filters', () => {
    it.each([
      ['type: GROUP_TYPE', 'type=group_type'],
      ['status: PAUSED', 'status=paused'],
      ['status: ONLINE', 'status=online'],
      ['tagList: ["linux"]', 'tag_list=linux'],
      ['type: PROJECT_TYPE, status: OFFLINE', 'type=project_type&status=offline'],
    ])('runners(%s) answers what REST answers for %s', async (args, query) => {
      const token = DEMO_TOKENS.admin;
      const expected = await harness.oracle.all<RestRunner>(`/runners/all?${query}`, token);
      const result = await harness.gateway.query<{ runners: Connection<{ id: string }> }>(`{ runners(first: 100, ${args}) { count nodes { id } } }`, {}, token);
      expect(result.errors).toBeUndefined();
      expect(result.data!.runners.nodes.map((node) => node.id)).toEqual(expected.slice(0, 100).map((runner) => gid(runner.id)));
      expect(result.data!.runners.count).toBe(expected.length);
    });

    it('filters a runner\'s jobs by status and sorts them', async () => {
      const token = DEMO_TOKENS.admin;
      const expected = await harness.oracle.all<RestJob>('/runners/16/jobs?status=failed&sort=asc', token);
      const result = await harness.gateway.query<{ runner: { jobs: Connection<{ id: string; status: string }> } }>(
        `{ runner(id: "${gid(16)}") { jobs(first: 100, statuses: [FAILED], sort: ASC) { nodes { id status } } } }`,
        {},
        token,
      );
      expect(result.data!.runner.jobs.nodes.map((node) => node.id)).toEqual(expected.map((job) => `gid://gitlab/Ci::Build/${job.id}`));
      expect(result.data!.runner.jobs.nodes.every((node) => node.status === 'FAILED')).toBe(true);
    });

    it('lists a project\'s and a group\'s runners as REST does', async () => {
      const token = DEMO_TOKENS.maintainer;
      const detail = await harness.oracle.get<RestRunner>('/runners/36', DEMO_TOKENS.admin);
      const projectPath = detail.projects![0]!.path_with_namespace;
      const expected = await harness.oracle.all<RestRunner>(`/projects/${encodeURIComponent(projectPath)}/runners`, DEMO_TOKENS.admin);
      const result = await harness.gateway.query<{ project: { runners: Connection<{ id: string }> } }>(
        `query($path: ID!) { project(fullPath: $path) { runners(first: 100) { count nodes { id } } } }`,
        { path: projectPath },
        DEMO_TOKENS.admin,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.runners.nodes.map((node) => node.id)).toEqual(expected.map((runner) => gid(runner.id)));

      const groupRunners = await harness.oracle.all<RestRunner>('/groups/gitlab-org%2Ffrontend/runners', token);
      const groupResult = await harness.gateway.query<{ group: { runners: Connection<{ id: string }> } }>(
        `{ group(fullPath: "gitlab-org/frontend") { runners(first: 100) { nodes { id } } } }`,
        {},
        token,
      );
      expect(groupResult.errors).toBeUndefined();
      expect(groupResult.data!.group.runners.nodes.map((node) => node.id)).toEqual(groupRunners.map((runner) => gid(runner.id)));
    });
  });

  describe('bad input', () => {
    it.each([
      ['{ ownedRunners(first: 101) { nodes { id } } }', 'first'],
      ['{ ownedRunners(first: 2, last: 2) { nodes { id } } }', 'last'],
      ['{ ownedRunners(after: "bogus") { nodes { id } } }', 'after'],
      ['{ ownedRunners(scope: SPECIFIC) { nodes { id } } }', 'scope'],
      ['{ ownedRunners(tagList: ["a,b"]) { nodes { id } } }', 'tagList'],
      ['{ project(fullPath: "no spaces/allowed here") { id } }', 'fullPath'],
    ])('refuses %s with BAD_USER_INPUT before any REST call', async (query, argumentName) => {
      const result = await harness.gateway.query(query, {}, DEMO_TOKENS.admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it.each(['6', 'gid://gitlab/Project/6'])('refuses the runner ID %s with BAD_USER_INPUT before any REST call', async (id) => {
      const result = await harness.gateway.query('query($id: CiRunnerID!) { runner(id: $id) { id } }', { id }, DEMO_TOKENS.admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('access', () => {
    it('asks for a credential where REST needs one', async () => {
      const result = await harness.gateway.query('{ ownedRunners { nodes { id } } }');
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', restStatus: 401 });
    });

    it('refuses the administrators\' list to others, and answers null for a runner that does not exist', async () => {
      const result = await harness.gateway.query(`{ runners { nodes { id } } }`, {}, DEMO_TOKENS.guest);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      const missing = await harness.gateway.query(`{ runner(id: "${gid(999_999)}") { id } }`, {}, DEMO_TOKENS.admin);
      expect(missing).toEqual({ data: { runner: null } });
    });

    it('keeps the fields that succeed when a sibling fails', async () => {
      const instanceRunner = gid(1);
      const groupRunner = gid(16);
      const result = await harness.gateway.query<{ visible: { id: string } | null; hidden: { id: string } | null }>(
        `{ visible: runner(id: "${instanceRunner}") { id } hidden: runner(id: "${groupRunner}") { id } }`,
        {},
        DEMO_TOKENS.guest,
      );
      expect(result.data?.visible).toEqual({ id: instanceRunner });
      expect(result.data?.hidden).toBeNull();
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0]).toMatchObject({ path: ['hidden'], extensions: { code: 'FORBIDDEN' } });
    });

    it('never puts a token or the upstream URL in an error', async () => {
      const result = await harness.gateway.query(`{ runners { nodes { id } } }`, {}, DEMO_TOKENS.guest);
      const text = JSON.stringify(result);
      expect(text).not.toContain(DEMO_TOKENS.guest);
      expect(text).not.toContain(harness.simulator.origin);
    });

    it('maps an upstream fault to its code and keeps the other fields', async () => {
      const faultId = harness.simulator.faults.add({ method: 'GET', path: '/runners/2', kind: 'status', status: 500 });
      try {
        const result = await harness.gateway.query<{ ok: { id: string }; broken: unknown }>(
          `{ ok: runner(id: "${gid(3)}") { id } broken: runner(id: "${gid(2)}") { id } }`,
          {},
          DEMO_TOKENS.admin,
        );
        expect(result.data?.ok).toEqual({ id: gid(3) });
        expect(result.errors?.[0]).toMatchObject({ path: ['broken'], extensions: { code: 'UPSTREAM_ERROR', restStatus: 500 } });
      } finally {
        harness.simulator.faults.remove(faultId);
      }
    });
  });

  describe('isolation between callers', () => {
    it('never shows one caller another caller\'s runners, even when their requests interleave', async () => {
      const callers = [DEMO_TOKENS.maintainer, DEMO_TOKENS.developer, DEMO_TOKENS.guest, DEMO_TOKENS.admin];
      const expected = new Map<string, string[]>();
      for (const token of callers) {
        expected.set(token, (await harness.oracle.all<RestRunner>('/runners', token)).slice(0, 100).map((runner) => gid(runner.id)));
      }
      expect(new Set([...expected.values()].map((ids) => ids.join())).size).toBeGreaterThan(1);
      const rounds = Array.from({ length: 40 }, (_, index) => callers[index % callers.length]!);
      const results = await Promise.all(
        rounds.map((token) =>
          harness.gateway.query<{ ownedRunners: { nodes: Array<{ id: string; tagList: string[] | null }> }; currentUser: { username: string } }>(
            '{ currentUser { username } ownedRunners(first: 100) { nodes { id tagList } } }',
            {},
            token,
          ),
        ),
      );
      for (const [index, result] of results.entries()) {
        const token = rounds[index]!;
        expect(result.errors).toBeUndefined();
        expect(result.data!.ownedRunners.nodes.map((node) => node.id)).toEqual(expected.get(token));
      }
    });
  });
});

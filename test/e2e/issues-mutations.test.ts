import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { GraphQLResponse } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { postUpload } from '../support/uploads.js';

interface RestIssue {
  id: number;
  iid: number;
  project_id: number;
  state: string;
  issue_type: string;
  title: string;
  time_stats: { time_estimate: number; total_time_spent: number };
}

const { admin, maintainer, developer, guest } = DEMO_TOKENS;

describe('issue mutations over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const mutate = <T>(text: string, variables: Record<string, unknown>, token: string) => harness.gateway.query<T>(text, variables, token);

  /** An issue of a gitlab-org project, found through REST. */
  async function anIssue(test: (issue: RestIssue) => boolean, path = 'gitlab-org/gitlab-runner'): Promise<RestIssue & { path: string }> {
    const issues = await harness.oracle.all<RestIssue>(`/projects/${encodeURIComponent(path)}/issues`, admin);
    const issue = issues.find(test);
    if (!issue) throw new Error(`no such issue in ${path}`);
    return { ...issue, path };
  }

  describe('todoCreate', () => {
    const TODO = `mutation CreateTodo($targetId: TodoableID!) { todoCreate(input: { targetId: $targetId, clientMutationId: "t1" }) {
        clientMutationId errors alreadyPending todo { id action targetType state body createdAt project { fullPath } author { username }
          target { ... on Issue { iid title timeStats { timeEstimate } links { self } } } } } }`;
    type TodoAnswer = { todoCreate: { clientMutationId: string; errors: string[]; alreadyPending: boolean; todo: Record<string, unknown> | null } };

    it('creates a to-do once; the second time, one already exists, which is data and not an error', async () => {
      const issue = await anIssue((candidate) => candidate.state === 'opened');
      const targetId = `gid://gitlab/Issue/${issue.id}`;
      const first = await mutate<TodoAnswer>(TODO, { targetId }, admin);
      expect(first.errors).toBeUndefined();
      expect(first.data!.todoCreate).toMatchObject({
        clientMutationId: 't1',
        errors: [],
        alreadyPending: false,
        todo: { action: 'marked', targetType: 'ISSUE', state: 'pending', project: { fullPath: issue.path }, author: { username: 'root' }, target: { iid: String(issue.iid), title: issue.title } },
      });
      const target = first.data!.todoCreate.todo!['target'] as { timeStats: { timeEstimate: number }; links: { self: string } };
      expect(target.timeStats.timeEstimate).toBe(issue.time_stats.time_estimate);
      // REST finds an issue by its global ID at GET /issues/:id only; the to-do's target is an
      // embedded issue, so its time stats and links are read from REST.
      expect(restCalls(harness.simulator)).toEqual([
        `GET /issues/${issue.id}`,
        `POST /projects/${issue.project_id}/issues/${issue.iid}/todo`,
        `GET /projects/${issue.project_id}/issues/${issue.iid}/time_stats`,
        `GET /projects/${issue.project_id}/issues/${issue.iid}`,
      ]);

      harness.simulator.resetRequests();
      const again = await mutate<TodoAnswer>(TODO, { targetId }, admin);
      expect(again).toEqual({ data: { todoCreate: { clientMutationId: 't1', errors: [], alreadyPending: true, todo: null } } });
      expect(restCalls(harness.simulator)).toEqual([`GET /issues/${issue.id}`, `POST /projects/${issue.project_id}/issues/${issue.iid}/todo`]);
    });

    it('answers NOT_FOUND for an issue that does not exist, FORBIDDEN where REST finds issues by ID for administrators only', async () => {
      const missing = await mutate(TODO, { targetId: 'gid://gitlab/Issue/999999' }, admin);
      expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', restStatus: 404 });
      const issue = await anIssue((candidate) => candidate.state === 'opened');
      const forDeveloper = await mutate(TODO, { targetId: `gid://gitlab/Issue/${issue.id}` }, developer);
      expect(forDeveloper.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    });

    it('refuses a target of another class before any REST call', async () => {
      const result = await mutate(TODO, { targetId: 'gid://gitlab/MergeRequest/1' }, admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'targetId' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('time tracking', () => {
    const STATS = 'errors timeStats { timeEstimate totalTimeSpent humanTimeEstimate humanTotalTimeSpent }';
    type Stats = { errors: string[]; timeStats: { timeEstimate: number; totalTimeSpent: number; humanTimeEstimate: string | null; humanTotalTimeSpent: string | null } | null };

    it('sets and resets the estimate, and adds up spent time until it is reset', async () => {
      const issue = await anIssue((candidate) => candidate.state === 'opened');
      const input = `projectPath: "${issue.path}", iid: "${issue.iid}"`;
      const run = async (name: string, extra = '') => {
        const result = await mutate<Record<string, Stats>>(`mutation { ${name}(input: { ${input}${extra} }) { ${STATS} } }`, {}, maintainer);
        expect(result.errors).toBeUndefined();
        return result.data![name]!;
      };
      expect(await run('issueTimeEstimateSet', ', duration: "3h30m"')).toMatchObject({ errors: [], timeStats: { timeEstimate: 12600, humanTimeEstimate: '3h 30m' } });
      await run('issueSpentTimeReset');
      expect((await run('issueSpentTimeAdd', ', duration: "1h30m", summary: "Review"')).timeStats).toMatchObject({ totalTimeSpent: 5400, humanTotalTimeSpent: '1h 30m' });
      expect((await run('issueSpentTimeAdd', ', duration: "1w 2d"')).timeStats).toMatchObject({ totalTimeSpent: 5400 + 7 * 8 * 3600, humanTotalTimeSpent: '1w 2d 1h 30m' });
      expect((await run('issueSpentTimeAdd', ', duration: "-30m"')).timeStats).toMatchObject({ totalTimeSpent: 7 * 8 * 3600 + 3600 });
      // Subtracting more than was spent is REST's refusal: an outcome for the payload.
      expect(await run('issueSpentTimeAdd', ', duration: "-10w"')).toEqual({ errors: ['Time to subtract exceeds the total time spent'], timeStats: null });
      expect((await harness.oracle.get<RestIssue>(`/projects/${issue.project_id}/issues/${issue.iid}`, maintainer)).time_stats).toMatchObject({ time_estimate: 12600, total_time_spent: 7 * 8 * 3600 + 3600 });
      expect(await run('issueTimeEstimateReset')).toMatchObject({ timeStats: { timeEstimate: 0, humanTimeEstimate: null } });
      expect(await run('issueSpentTimeReset')).toEqual({ errors: [], timeStats: { timeEstimate: 0, totalTimeSpent: 0, humanTimeEstimate: null, humanTotalTimeSpent: null } });
    });

    it.each([
      ['issueTimeEstimateSet', '1x'],
      ['issueTimeEstimateSet', '-1h'],
      ['issueTimeEstimateSet', ''],
      ['issueSpentTimeAdd', 'an hour'],
      ['issueSpentTimeAdd', '1h30'],
    ])('%s refuses the duration "%s" before any REST call, saying why', async (name, duration) => {
      const result = await mutate(`mutation($d: String!) { ${name}(input: { projectPath: "gitlab-org/gitlab", iid: "1", duration: $d }) { errors } }`, { d: duration }, maintainer);
      expect(result.errors?.[0]).toMatchObject({ message: expect.stringContaining('human duration such as 1h30m') as string, extensions: { code: 'BAD_USER_INPUT', argumentName: 'duration' } });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('is FORBIDDEN to guests', async () => {
      const result = await mutate(`mutation { issueSpentTimeAdd(input: { projectPath: "gitlab-org/gitlab", iid: "1", duration: "1h" }) { errors } }`, {}, guest);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    });

    it('refuses a bad internal ID or project path before any REST call', async () => {
      for (const input of ['projectPath: "gitlab-org/gitlab", iid: "#1"', 'projectPath: "/gitlab", iid: "1"']) {
        const result = await mutate(`mutation { issueSpentTimeReset(input: { ${input} }) { errors } }`, {}, maintainer);
        expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      }
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('promoteToEpic', () => {
    const PROMOTE = `mutation($path: ID!, $iid: String!, $comment: String) { promoteToEpic(input: { projectPath: $path, iid: $iid, comment: $comment }) {
        errors promoted note { id body author { username } noteableType noteableIid system } } }`;
    type Answer = { promoteToEpic: { errors: string[]; promoted: boolean; note: { body: string; noteableIid: string } | null } };

    it('promotes an issue of a group project with a comment, and closes it', async () => {
      const issue = await anIssue((candidate) => candidate.state === 'opened');
      const result = await mutate<Answer>(PROMOTE, { path: issue.path, iid: String(issue.iid), comment: 'This is an epic' }, maintainer);
      expect(result.errors).toBeUndefined();
      expect(result.data!.promoteToEpic).toMatchObject({ errors: [], promoted: true, note: { body: 'This is an epic', noteableIid: String(issue.iid), author: { username: 'maintainer' } } });
      // The note carries the quick action on a line of its own.
      expect(restCalls(harness.simulator)).toEqual([`POST /projects/${encodeURIComponent(issue.path)}/issues/${issue.iid}/notes`]);
      expect((await harness.oracle.get<RestIssue>(`/projects/${issue.project_id}/issues/${issue.iid}`, maintainer)).state).toBe('closed');
    });

    it('promotes without a comment: REST saves no note (202)', async () => {
      const issue = await anIssue((candidate) => candidate.state === 'opened');
      const result = await mutate<Answer>(PROMOTE, { path: issue.path, iid: String(issue.iid) }, maintainer);
      expect(result).toEqual({ data: { promoteToEpic: { errors: [], promoted: true, note: null } } });
    });

    it('reports an issue that could not be promoted in the payload', async () => {
      const issue = await anIssue(() => true, 'maintainer/dotfiles');
      const result = await mutate<Answer>(PROMOTE, { path: issue.path, iid: String(issue.iid) }, maintainer);
      expect(result.errors).toBeUndefined();
      expect(result.data!.promoteToEpic.promoted).toBe(false);
      expect(result.data!.promoteToEpic.errors).toEqual([expect.stringContaining('PREMIUM') as string]);
      expect(result.data!.promoteToEpic.note?.body).toBe('/promote');
    });
  });

  describe('metric images', () => {
    const UPLOAD = `mutation($input: MetricImageUploadInput!) { metricImageUpload(input: $input) { errors metricImage { id filename filePath url urlText createdAt } } }`;
    const png = (size = 8) => new File([new Uint8Array(size).fill(7)], 'latency.png', { type: 'image/png' });

    /** A GraphQL multipart request (the GraphQL multipart request spec), as upload clients send it. */
    async function upload(input: Record<string, unknown>, file: File, token: string): Promise<GraphQLResponse<{ metricImageUpload: { errors: string[]; metricImage: Record<string, string> | null } }>> {
      const response = await postUpload(harness.gateway.url, UPLOAD, { input }, { 'input.file': file }, token);
      return (await response.json()) as GraphQLResponse<{ metricImageUpload: { errors: string[]; metricImage: Record<string, string> | null } }>;
    }

    it('uploads an image to an incident, lists it, and deletes it', async () => {
      const incident = await anIssue((candidate) => candidate.issue_type === 'incident', 'gitlab-org/gitaly');
      const input = { projectPath: incident.path, iid: String(incident.iid), url: 'https://grafana.example.com/d/api', urlText: 'API latency' };
      const result = await upload(input, png(), maintainer);
      expect(result.errors).toBeUndefined();
      const image = result.data!.metricImageUpload.metricImage!;
      expect(image).toMatchObject({ filename: 'latency.png', url: 'https://grafana.example.com/d/api', urlText: 'API latency' });
      expect(image['filePath']).toMatch(/\/latency\.png$/);
      const call = harness.simulator.requests.find((request) => request.method === 'POST')!;
      expect(call.path).toBe(`/projects/${encodeURIComponent(incident.path)}/issues/${incident.iid}/metric_images`);

      const listed = await harness.gateway.query<{ project: { issue: { metricImages: Array<{ id: string }> } } }>(
        `{ project(fullPath: "${incident.path}") { issue(iid: "${incident.iid}") { metricImages { id } } } }`,
        {},
        maintainer,
      );
      expect(listed.data!.project.issue.metricImages.map((entry) => entry.id)).toContain(image['id']);

      const deleted = await mutate<{ metricImageDelete: { errors: string[] } }>(
        `mutation($id: ID!) { metricImageDelete(input: { projectPath: "${incident.path}", iid: "${incident.iid}", id: $id }) { errors } }`,
        { id: image['id'] },
        maintainer,
      );
      expect(deleted).toEqual({ data: { metricImageDelete: { errors: [] } } });
      const again = await mutate(`mutation($id: ID!) { metricImageDelete(input: { projectPath: "${incident.path}", iid: "${incident.iid}", id: $id }) { errors } }`, { id: image['id'] }, maintainer);
      expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', restMessage: 'Metric image not found' });
    });

    it('maps REST\'s 400 "could not be deleted" to the payload', async () => {
      const incident = await anIssue((candidate) => candidate.issue_type === 'incident', 'gitlab-org/gitaly');
      harness.simulator.faults.add({ method: 'DELETE', path: /\/metric_images\/\d+$/, kind: 'status', status: 400, body: { message: 'Metric image could not be deleted' }, times: 1 });
      const result = await mutate(`mutation { metricImageDelete(input: { projectPath: "${incident.path}", iid: "${incident.iid}", id: "gid://gitlab/IssuableMetricImage/1" }) { errors } }`, {}, maintainer);
      expect(result).toEqual({ data: { metricImageDelete: { errors: ['Metric image could not be deleted'] } } });
    });

    it('refuses a file over 1 MiB, or one that is not an image, before any REST call', async () => {
      const incident = await anIssue((candidate) => candidate.issue_type === 'incident', 'gitlab-org/gitaly');
      harness.simulator.resetRequests();
      const input = { projectPath: incident.path, iid: String(incident.iid) };
      const big = await upload(input, png(1024 * 1024 + 1), maintainer);
      expect(big.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'file' });
      const text = await upload(input, new File([new Uint8Array([1, 2])], 'notes.txt', { type: 'text/plain' }), maintainer);
      expect(text.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'file' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('is FORBIDDEN for an issue that is not an incident, as REST answers', async () => {
      const plain = await anIssue((candidate) => candidate.issue_type === 'issue', 'gitlab-org/gitaly');
      const result = await upload({ projectPath: plain.path, iid: String(plain.iid) }, png(), maintainer);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restMessage: 'Not allowed!' });
    });
  });
});

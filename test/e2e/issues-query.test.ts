import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestUser {
  id: number;
  username: string;
}
interface RestIssue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  state: string;
  confidential: boolean;
  issue_type: string;
  labels: string[];
  author: RestUser;
  assignees: RestUser[];
  milestone: { title: string; due_date: string | null } | null;
  time_stats: { time_estimate: number; human_time_estimate: string | null };
  references: { short: string; full: string; relative: string };
  subscribed?: boolean;
  type: string;
  weight: number | null;
  severity: string;
  _links: { self: string };
}
interface RestProject {
  id: number;
  path_with_namespace: string;
  name: string;
}
interface Connection<T> {
  count: number | null;
  nodes: T[];
}

const { admin, maintainer, developer, guest } = DEMO_TOKENS;
const issueGid = (id: number) => `gid://gitlab/Issue/${id}`;
const userGid = (id: number) => `gid://gitlab/User/${id}`;

describe('issues over real HTTP', () => {
  // The dashboard below reads every person's profile: its estimated cost (12,128 calls at most) is
  // above the default limit, which test/e2e/limits.test.ts covers; here the real count is asserted.
  const harness = gatewayOverSimulator({ limits: { maxRestCalls: 20_000 } });
  const query = <T>(text: string, token?: string) => harness.gateway.query<T>(text, {}, token);

  describe('a dashboard', () => {
    it('answers group -> projects -> issues -> assignees and milestone with one REST call per list, and each person once', async () => {
      const result = await query<{
        group: {
          projects: Connection<{
            fullPath: string;
            issues: Connection<{ id: string; title: string; project: { name: string }; author: { username: string; location: string }; assignees: { nodes: Array<{ username: string; location: string }> }; milestone: { title: string; dueDate: string | null } | null }>;
          }>;
        };
      }>(
        `{ group(fullPath: "gitlab-org") { projects(first: 6) { count nodes { fullPath
             issues(first: 10, state: opened) { count nodes { id title project { name } author { username location }
               assignees { nodes { username location } } milestone { title dueDate } } } } } } }`,
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);

      const { oracle } = harness;
      const projects = await oracle.get<RestProject[]>('/groups/gitlab-org/projects?per_page=6&page=1', maintainer);
      const people = new Set<number>();
      const nodes = result.data!.group.projects.nodes;
      expect(nodes.map((node) => node.fullPath)).toEqual(projects.map((project) => project.path_with_namespace));
      for (const [index, project] of projects.entries()) {
        const page = await oracle.call<RestIssue[]>('GET', `/projects/${project.id}/issues?state=opened&per_page=10&page=1`, maintainer);
        const connection = nodes[index]!.issues;
        expect(connection.count).toBe(Number(page.headers.get('x-total')));
        expect(connection.nodes.map((node) => [node.id, node.title, node.project.name, node.author.username, node.assignees.nodes.map((user) => user.username), node.milestone])).toEqual(
          page.body.map((issue) => [
            issueGid(issue.id),
            issue.title,
            project.name,
            issue.author.username,
            issue.assignees.map((user) => user.username),
            issue.milestone ? { title: issue.milestone.title, dueDate: issue.milestone.due_date } : null,
          ]),
        );
        for (const issue of page.body) for (const user of [issue.author, ...issue.assignees]) people.add(user.id);
      }
      // Several issues share an author or an assignee; each person's profile is read once.
      const mentions = nodes.reduce((sum, node) => sum + node.issues.nodes.reduce((inner, issue) => inner + 1 + issue.assignees.nodes.length, 0), 0);
      expect(people.size).toBeLessThan(mentions);
      // The group, its project list, one issue list per project, one profile per person; the
      // issues' projects come from the project list.
      expect(calls).toHaveLength(2 + projects.length + people.size);
      expect(calls.filter((call) => call.startsWith('GET /users/')).sort()).toEqual([...people].map((id) => `GET /users/${id}`).sort());
      expect(calls.filter((call) => /^GET \/projects\/\d+$/.test(call))).toEqual([]);
    });

    it('reads `subscribed`, which list records lack, with one single read per issue', async () => {
      const result = await query<{ project: { issues: Connection<{ iid: string; subscribed: boolean }> } }>(
        `{ project(fullPath: "gitlab-org/gitaly") { issues(first: 3) { nodes { iid subscribed } } } }`,
        developer,
      );
      expect(result.errors).toBeUndefined();
      const iids = result.data!.project.issues.nodes.map((node) => node.iid);
      for (const node of result.data!.project.issues.nodes) {
        const single = await harness.oracle.get<RestIssue>(`/projects/gitlab-org%2Fgitaly/issues/${node.iid}`, developer);
        expect(node.subscribed).toBe(single.subscribed);
      }
      // The project and its issue list are both asked by path, at once; then each issue by the project's id.
      const calls = restCalls(harness.simulator);
      expect(calls.slice(0, 2).sort()).toEqual(['GET /projects/gitlab-org%2Fgitaly', 'GET /projects/gitlab-org%2Fgitaly/issues']);
      expect(calls.slice(2)).toEqual(iids.map((iid) => `GET /projects/3/issues/${iid}`));
    });
  });

  describe('one issue', () => {
    it('maps every field of the Issue resource, with its links', async () => {
      const result = await query<{ project: { issue: Record<string, unknown> } }>(
        `{ project(fullPath: "gitlab-org/gitaly") { issue(iid: "2") { id iid title description state createdAt updatedAt closedAt closedBy { username }
             author { username } assignees { nodes { username } } assignee { username } milestone { id iid title state dueDate startDate closedAt webUrl project { fullPath } }
             labels { nodes { id title color } } type upvotes downvotes mergeRequestsCount userNotesCount dueDate movedToId moved webUrl webPath
             references { short relative full } reference fullReference: reference(full: true) timeStats { timeEstimate totalTimeSpent humanTimeEstimate humanTotalTimeSpent }
             timeEstimate totalTimeSpent humanTimeEstimate humanTotalTimeSpent
             hasTasks taskStatus taskCompletionStatus { count completedCount } confidential discussionLocked subscribed
             links { self notes awardEmoji project closedAsDuplicateOf } weight epic { id iid title webPath group { fullPath } } epicIid
             iteration { id title state startDate dueDate group { fullPath } } healthStatus severity imported importedFrom serviceDeskReplyTo project { fullPath } } } }`,
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<RestIssue>('/projects/gitlab-org%2Fgitaly/issues/2', maintainer);
      const projectLabels = await harness.oracle.all<{ id: number; name: string; color: string }>('/projects/3/labels', maintainer);
      const labelNamed = (name: string) => projectLabels.find((label) => label.name === name)!;
      const issue = result.data!.project.issue;
      expect(issue).toMatchObject({
        id: issueGid(rest.id),
        iid: '2',
        title: rest.title,
        state: rest.state,
        author: { username: rest.author.username },
        assignees: { nodes: rest.assignees.map((user) => ({ username: user.username })) },
        assignee: rest.assignees[0] ? { username: rest.assignees[0].username } : null,
        labels: { nodes: rest.labels.map((name) => ({ id: `gid://gitlab/Label/${labelNamed(name).id}`, title: name, color: labelNamed(name).color })) },
        type: rest.type,
        moved: false,
        webPath: '/gitlab-org/gitaly/-/issues/2',
        references: rest.references,
        reference: rest.references.short,
        fullReference: rest.references.full,
        timeEstimate: rest.time_stats.time_estimate,
        timeStats: { timeEstimate: rest.time_stats.time_estimate, humanTimeEstimate: rest.time_stats.human_time_estimate },
        subscribed: rest.subscribed,
        links: { self: rest._links.self },
        weight: rest.weight,
        severity: rest.severity,
        project: { fullPath: 'gitlab-org/gitaly' },
      });
      // The project, then the issue: every field came from that one record, but the labels' details
      // from the project's labels, when the issue has labels.
      const labelsRead = rest.labels.length > 0 ? ['GET /projects/3/labels'] : [];
      expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitaly', 'GET /projects/3/issues/2', ...labelsRead]);
    });

    it('answers null for an issue that does not exist', async () => {
      const result = await query<{ project: { issue: null } }>(`{ project(fullPath: "gitlab-org/gitaly") { issue(iid: "9999") { id } } }`, maintainer);
      expect(result).toEqual({ data: { project: { issue: null } } });
    });

    it('lists related and closing merge requests, participants, metric images, and the user agent for administrators', async () => {
      const closing = await harness.oracle.all<{ id: number; iid: number; project_id: number; description: string }>('/issues?scope=all&per_page=100', admin);
      // An issue of a public project with a merge request that closes it.
      const candidates = closing.filter((issue) => issue.project_id <= 3);
      let target: { project: number; iid: number } | undefined;
      for (const issue of candidates) {
        const mrs = await harness.oracle.get<unknown[]>(`/projects/${issue.project_id}/issues/${issue.iid}/closed_by`, admin);
        if (mrs.length > 0) {
          target = { project: issue.project_id, iid: issue.iid };
          break;
        }
      }
      expect(target).toBeDefined();
      const project = await harness.oracle.get<RestProject>(`/projects/${target!.project}`, admin);
      const text = `{ project(fullPath: "${project.path_with_namespace}") { issue(iid: "${target!.iid}") {
          relatedMergeRequests { count nodes { id iid state changesCount author { username } pipeline { status } diffRefs { headSha } userPermissions { canMerge } project { fullPath } } }
          closedByMergeRequests { count nodes { id title references { full } } }
          participants { count nodes { username } } userAgentDetail { userAgent ipAddress submitted } metricImages { id } } } }`;
      harness.simulator.resetRequests();
      const result = await query<{
        project: {
          issue: {
            relatedMergeRequests: Connection<{ id: string; changesCount: string }>;
            closedByMergeRequests: Connection<{ id: string }>;
            participants: Connection<{ username: string }>;
            userAgentDetail: { userAgent: string; ipAddress: string; submitted: boolean };
            metricImages: null;
          };
        };
      }>(text, admin);
      expect(result.errors).toBeUndefined();
      const base = `/projects/${target!.project}/issues/${target!.iid}`;
      const related = await harness.oracle.get<Array<{ id: number; changes_count: string }>>(`${base}/related_merge_requests`, admin);
      const issue = result.data!.project.issue;
      expect(issue.relatedMergeRequests.nodes.map((node) => [node.id, node.changesCount])).toEqual(related.map((mr) => [`gid://gitlab/MergeRequest/${mr.id}`, mr.changes_count]));
      expect(issue.closedByMergeRequests.count).toBeGreaterThan(0);
      expect(issue.participants.nodes.map((node) => node.username)).toEqual((await harness.oracle.get<RestUser[]>(`${base}/participants`, admin)).map((user) => user.username));
      expect(issue.userAgentDetail).toEqual({
        userAgent: expect.any(String) as string,
        ipAddress: expect.stringMatching(/^10\.0\./) as string,
        submitted: false,
      });
      const single = await harness.oracle.get<RestIssue>(base, admin);
      expect(issue.metricImages).toBe(single.issue_type === 'incident' ? issue.metricImages : null);

      const forDeveloper = await query<{ project: { issue: { userAgentDetail: null } } }>(
        `{ project(fullPath: "${project.path_with_namespace}") { issue(iid: "${target!.iid}") { title userAgentDetail { userAgent } } } }`,
        developer,
      );
      expect(forDeveloper.errors?.[0]).toMatchObject({ path: ['project', 'issue', 'userAgentDetail'], extensions: { code: 'FORBIDDEN' } });
    });

    it('reads an incident\'s metric images and asks nothing for other issues', async () => {
      const incidents = await harness.oracle.all<RestIssue>('/projects/gitlab-org%2Fgitaly/issues?issue_type=incident', admin);
      const incident = incidents[0]!;
      const result = await query<{ project: { incident: { metricImages: Array<{ id: string; filename: string }> }; plain: { metricImages: null } } }>(
        `{ project(fullPath: "gitlab-org/gitaly") { incident: issue(iid: "${incident.iid}") { metricImages { id filename filePath url urlText createdAt } }
             plain: issue(iid: "1") { type metricImages { id } } } }`,
        developer,
      );
      expect(result.errors).toBeUndefined();
      const images = await harness.oracle.get<Array<{ id: number; filename: string }>>(`/projects/3/issues/${incident.iid}/metric_images`, developer);
      expect(result.data!.project.incident.metricImages.map((image) => [image.id, image.filename])).toEqual(images.map((image) => [`gid://gitlab/IssuableMetricImage/${image.id}`, image.filename]));
      expect(result.data!.project.plain.metricImages).toBeNull();
      expect(restCalls(harness.simulator).filter((call) => call.endsWith('/metric_images'))).toEqual([`GET /projects/3/issues/${incident.iid}/metric_images`]);
    });

    it('lets administrators look an issue up by global ID, and nobody else', async () => {
      const issue = (await harness.oracle.get<RestIssue[]>('/projects/1/issues?per_page=1', admin))[0]!;
      const text = `{ issue(id: "${issueGid(issue.id)}") { iid title project { fullPath } } node(id: "${issueGid(issue.id)}") { ... on Issue { iid } } }`;
      const forAdmin = await query<{ issue: { iid: string; title: string }; node: { iid: string } }>(text, admin);
      expect(forAdmin.errors).toBeUndefined();
      expect(forAdmin.data).toMatchObject({ issue: { iid: String(issue.iid), title: issue.title, project: { fullPath: 'gitlab-org/gitlab' } }, node: { iid: String(issue.iid) } });
      expect(restCalls(harness.simulator)).toEqual([`GET /issues/${issue.id}`, 'GET /projects/1']);

      const forDeveloper = await query(`{ issue(id: "${issueGid(issue.id)}") { iid } }`, developer);
      expect(forDeveloper.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      const missing = await query<{ issue: null }>(`{ issue(id: "gid://gitlab/Issue/999999") { iid } }`, admin);
      expect(missing).toEqual({ data: { issue: null } });
    });

    it('gives label details when the list is asked withLabelsDetails', async () => {
      const result = await query<{ project: { issues: Connection<{ labels: { nodes: Array<{ id: string; title: string; color: string; description: string | null; textColor: string }> } }> } }>(
        `{ project(fullPath: "gitlab-org/gitaly") { issues(first: 5, labelWildcardId: ANY, withLabelsDetails: true) { nodes { labels { nodes { id title color description descriptionHtml textColor } } } } } }`,
        developer,
      );
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<Array<{ labels: Array<{ id: number; name: string; color: string; description: string | null; description_html: string; text_color: string }> }>>(
        '/projects/3/issues?labels=Any&with_labels_details=true&per_page=5',
        developer,
      );
      expect(result.data!.project.issues.nodes.map((node) => node.labels.nodes)).toEqual(
        rest.map((issue) =>
          issue.labels.map((label) => ({ id: `gid://gitlab/Label/${label.id}`, title: label.name, color: label.color, description: label.description, descriptionHtml: label.description_html, textColor: label.text_color })),
        ),
      );
    });
  });

  describe('confidential issues', () => {
    it('are invisible to callers who may not see them, at every level', async () => {
      const all = await harness.oracle.all<RestIssue & { project_id: number }>('/groups/gitlab-org/issues?confidential=true', admin);
      const hidden = all.find((issue) => issue.author.id !== USER_IDS.guest && !issue.assignees.some((user) => user.id === USER_IDS.guest))!;
      expect(hidden).toBeDefined();
      const project = await harness.oracle.get<RestProject>(`/projects/${hidden.project_id}`, admin);
      const text = `{ issues(first: 100, scope: ALL, confidential: true) { nodes { id } }
          group(fullPath: "gitlab-org") { issues(first: 100, confidential: true) { count nodes { id } } }
          project(fullPath: "${project.path_with_namespace}") { issues(first: 100, confidential: true) { nodes { id } } issue(iid: "${hidden.iid}") { id confidential } } }`;
      type Answer = { issues: Connection<{ id: string }>; group: { issues: Connection<{ id: string }> }; project: { issues: Connection<{ id: string }>; issue: { id: string; confidential: boolean } | null } };
      const forGuest = await query<Answer>(text, guest);
      const forDeveloper = await query<Answer>(text, developer);
      expect(forGuest.errors).toBeUndefined();
      expect(forDeveloper.errors).toBeUndefined();
      const ids = (answer: Answer) => [answer.issues, answer.group.issues, answer.project.issues].map((connection) => connection.nodes.map((node) => node.id));
      for (const list of ids(forGuest.data!)) expect(list).not.toContain(issueGid(hidden.id));
      for (const list of ids(forDeveloper.data!)) expect(list).toContain(issueGid(hidden.id));
      expect(forGuest.data!.project.issue).toBeNull();
      expect(forDeveloper.data!.project.issue).toEqual({ id: issueGid(hidden.id), confidential: true });
      expect(forGuest.data!.group.issues.count).toBeLessThan(forDeveloper.data!.group.issues.count!);
    });
  });

  describe('a user global ID', () => {
    it('filters by assignee, and another class of global ID is refused', async () => {
      const result = await query<{ project: { issues: Connection<{ assignees: { nodes: Array<{ id: string }> } }> } }>(
        `{ project(fullPath: "gitlab-org/gitaly") { issues(first: 100, assigneeId: "${userGid(USER_IDS.maintainer)}") { nodes { assignees { nodes { id } } } } } }`,
        developer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.issues.nodes.every((node) => node.assignees.nodes.some((user) => user.id === userGid(USER_IDS.maintainer)))).toBe(true);
    });
  });
});

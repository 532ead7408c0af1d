// Issues in GitLab's own dialect, read the way GitLab's web frontend reads them (named operations,
// fragments, variables typed with GitLab's scalars): the issue list with GitLab's filters, and the
// issue sidebar's reads (labels, milestone, assignees with their status, time tracking, to-dos,
// reference, webPath). Every document validates against the schema and runs over real HTTP against
// the gateway and the embedded v4 server; the answers are checked against REST, and the REST calls
// counted.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, developer, maintainer } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitaly';
const PROJECT_PATH = encodeURIComponent(PROJECT);

const ISSUE_FRAGMENT = `
fragment IssueFragment on Issue {
  id
  iid
  title
  state
  type
  confidential
  createdAt
  dueDate
  webUrl
  webPath
  reference(full: true)
  moved
  upvotes
  downvotes
  mergeRequestsCount
  timeEstimate
  totalTimeSpent
  humanTimeEstimate
  humanTotalTimeSpent
  author { id username name webUrl webPath }
  assignees { nodes { id username name avatarUrl webUrl } }
  labels { nodes { id title color description } }
  milestone { id title dueDate startDate webPath expired }
}`;

const PAGE_INFO_FRAGMENT = `
fragment PageInfo on PageInfo {
  hasNextPage
  hasPreviousPage
  startCursor
  endCursor
}`;

const GET_ISSUES = `${ISSUE_FRAGMENT}${PAGE_INFO_FRAGMENT}
query getIssues(
  $fullPath: ID!
  $state: IssuableState
  $search: String
  $sort: IssueSort
  $labelName: [String]
  $milestoneTitle: [String]
  $assigneeUsernames: [String!]
  $types: [IssueType!]
  $not: NegatedIssueFilterInput
  $firstPageSize: Int
  $afterCursor: String
) {
  project(fullPath: $fullPath) {
    id
    issues(
      state: $state
      search: $search
      sort: $sort
      labelName: $labelName
      milestoneTitle: $milestoneTitle
      assigneeUsernames: $assigneeUsernames
      types: $types
      not: $not
      first: $firstPageSize
      after: $afterCursor
    ) {
      count
      pageInfo { ...PageInfo }
      nodes { ...IssueFragment }
    }
  }
}`;

const GET_GROUP_ISSUES = `
query getGroupIssues($fullPath: ID!, $state: IssuableState, $milestoneWildcardId: MilestoneWildcardId, $assigneeWildcardId: AssigneeWildcardId, $includeSubgroups: Boolean, $iid: String) {
  group(fullPath: $fullPath) {
    id
    issues(state: $state, milestoneWildcardId: $milestoneWildcardId, assigneeWildcardId: $assigneeWildcardId, includeSubgroups: $includeSubgroups, iid: $iid, first: 20) {
      count
      nodes { id iid reference(full: true) assignees { nodes { id } } milestone { id } }
    }
  }
}`;

const SIDEBAR_LABEL_FRAGMENT = `
fragment Label on Label {
  id
  title
  description
  color
  textColor
}`;

const ISSUE_SIDEBAR = `${SIDEBAR_LABEL_FRAGMENT}
query issueSidebar($fullPath: ID!, $iid: String, $todoState: TodoStateEnum) {
  workspace: project(fullPath: $fullPath) {
    id
    issuable: issue(iid: $iid) {
      id
      iid
      title
      confidential
      discussionLocked
      dueDate
      subscribed
      webUrl
      webPath
      reference: reference(full: true)
      shortReference: reference
      timeEstimate
      totalTimeSpent
      humanTimeEstimate
      humanTotalTimeSpent
      labels { nodes { ...Label } }
      milestone { id title state dueDate expired webPath }
      assignees { nodes { id username name webPath status { availability emoji message messageHtml } } }
      currentUserTodos(state: $todoState) { nodes { id state } }
    }
  }
}`;

const PROJECT_LABELS_AND_MILESTONES = `${SIDEBAR_LABEL_FRAGMENT}
query projectLabelsAndMilestones($fullPath: ID!, $searchTerm: String, $state: MilestoneStateEnum) {
  workspace: project(fullPath: $fullPath) {
    id
    labels(searchTerm: $searchTerm, includeAncestorGroups: true) { nodes { ...Label } }
    attributes: milestones(state: $state, includeAncestors: true) { nodes { id title state expired webPath projectMilestone groupMilestone } }
  }
}`;

const GROUP_LABELS_AND_MILESTONES = `${SIDEBAR_LABEL_FRAGMENT}
query groupLabelsAndMilestones($fullPath: ID!) {
  workspace: group(fullPath: $fullPath) {
    id
    labels(onlyGroupLabels: true) { nodes { ...Label } }
    milestones { nodes { id title expired webPath groupMilestone } }
  }
}`;

const ISSUE_LABEL_IDS = `
query issueLabelIds($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) { issue(iid: $iid) { labels { nodes { id title } } } }
}`;

const ISSUE_LABEL_TITLES = `
query issueLabelTitles($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) { issue(iid: $iid) { labels { nodes { title } } } }
}`;

const DOCUMENTS = { GET_ISSUES, GET_GROUP_ISSUES, ISSUE_SIDEBAR, PROJECT_LABELS_AND_MILESTONES, GROUP_LABELS_AND_MILESTONES, ISSUE_LABEL_IDS, ISSUE_LABEL_TITLES };

interface RestUser {
  id: number;
  username: string;
  name: string;
}
interface RestLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
  text_color: string;
}
interface RestMilestone {
  id: number;
  title: string;
  state: string;
  due_date: string | null;
  start_date: string | null;
  expired: boolean;
  web_url: string;
  project_id?: number;
  group_id?: number;
}
interface RestIssue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  state: string;
  issue_type: string;
  confidential: boolean;
  discussion_locked: boolean;
  due_date: string | null;
  web_url: string;
  subscribed?: boolean;
  labels: string[];
  assignees: RestUser[];
  author: RestUser;
  milestone: RestMilestone | null;
  references: { short: string; full: string };
  time_stats: { time_estimate: number; total_time_spent: number };
  moved_to_id: number | null;
}
interface RestStatus {
  emoji: string | null;
  message: string | null;
  availability: string | null;
  message_html: string | null;
}
interface RestTodo {
  id: number;
  state: string;
  target: { iid: number };
}
interface GqlIssue {
  id: string;
  iid: string;
  title: string;
  state: string;
  type: string;
  webPath: string;
  reference: string;
  humanTimeEstimate: string | null;
  humanTotalTimeSpent: string | null;
  timeEstimate: number;
  totalTimeSpent: number;
  assignees: { nodes: Array<{ username: string }> };
  labels: { nodes: Array<{ id: string; title: string; color: string; description: string | null }> };
  milestone: { id: string; title: string; expired: boolean; webPath: string } | null;
}

type SidebarIssue = Omit<GqlIssue, 'assignees'> & {
  currentUserTodos: { nodes: Array<{ id: string; state: string }> };
  assignees: { nodes: Array<{ username: string; status: unknown }> };
};

const gid = (className: string, id: number) => `gid://gitlab/${className}/${id}`;
const pathOf = (url: string) => new URL(url).pathname;

/** GitLab's short human form of seconds, as its time tracking formatter writes it (8h days, 5d weeks). */
function human(seconds: number): string | null {
  if (seconds === 0) return null;
  const units: Array<[string, number]> = [['mo', 576000], ['w', 144000], ['d', 28800], ['h', 3600], ['m', 60], ['s', 1]];
  const parts: string[] = [];
  let rest = seconds;
  for (const [suffix, size] of units) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)}${suffix}`);
    rest %= size;
  }
  return parts.join(' ');
}

describe('issue documents in GitLab\'s style', () => {
  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });
});

describe('issues in GitLab\'s dialect over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const query = <T>(document: string, variables: Record<string, unknown>, token: string = developer) => harness.gateway.query<T>(document, variables, token);

  describe('the issue list with GitLab\'s filters', () => {
    it('lists open issues with a label, ordered as asked, each field as REST has it, in three REST calls', async () => {
      const variables = { fullPath: PROJECT, state: 'opened', labelName: ['bug'], sort: 'UPDATED_DESC', firstPageSize: 5 };
      const result = await query<{ project: { issues: { count: number; pageInfo: { hasNextPage: boolean }; nodes: GqlIssue[] } } }>(GET_ISSUES, variables);
      expect(result.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);
      const page = await harness.oracle.call<RestIssue[]>('GET', `/projects/${PROJECT_PATH}/issues?state=opened&labels=bug&order_by=updated_at&sort=desc&per_page=5&page=1`, developer);
      const labels = await harness.oracle.all<RestLabel>(`/projects/${PROJECT_PATH}/labels`, developer);
      const labelNamed = (name: string) => labels.find((label) => label.name === name)!;
      const { issues } = result.data!.project;
      expect(issues.count).toBe(Number(page.headers.get('x-total')));
      expect(issues.pageInfo.hasNextPage).toBe(page.headers.get('x-next-page') !== '');
      expect(issues.nodes.map((issue) => issue.id)).toEqual(page.body.map((issue) => gid('Issue', issue.id)));
      for (const [index, rest] of page.body.entries()) {
        const issue = issues.nodes[index]!;
        expect(issue).toMatchObject({
          iid: String(rest.iid),
          title: rest.title,
          state: 'opened',
          type: rest.issue_type.toUpperCase(),
          webPath: pathOf(rest.web_url),
          reference: rest.references.full,
          timeEstimate: rest.time_stats.time_estimate,
          totalTimeSpent: rest.time_stats.total_time_spent,
          humanTimeEstimate: human(rest.time_stats.time_estimate),
          humanTotalTimeSpent: human(rest.time_stats.total_time_spent),
        });
        expect(issue.assignees.nodes.map((user) => user.username)).toEqual(rest.assignees.map((user) => user.username));
        expect(issue.labels.nodes).toEqual(
          rest.labels.map((name) => ({ id: gid('Label', labelNamed(name).id), title: name, color: labelNamed(name).color, description: labelNamed(name).description })),
        );
        expect(issue.milestone).toEqual(
          rest.milestone ? { id: gid('Milestone', rest.milestone.id), title: rest.milestone.title, dueDate: rest.milestone.due_date, startDate: rest.milestone.start_date, webPath: pathOf(rest.milestone.web_url), expired: rest.milestone.expired } : null,
        );
      }
      // The project, its issue list (time stats, assignees and milestones are in the list records)
      // and the project's labels once for every label of the page.
      expect(calls.sort()).toEqual([`GET /projects/${PROJECT_PATH}`, `GET /projects/${PROJECT_PATH}/issues`, 'GET /projects/3/labels'].sort());
    });

    it('negates GitLab\'s way and filters by type, milestone title and assignee usernames', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ not: { labelName: ['bug'], milestoneTitle: ['v1.1'] } }, 'not[labels]=bug&not[milestone]=v1.1'],
        [{ types: ['INCIDENT'], state: 'all' }, 'issue_type=incident&state=all'],
        [{ milestoneTitle: ['v2.0'], sort: 'DUE_DATE_ASC' }, 'milestone=v2.0&order_by=due_date&sort=asc'],
        [{ assigneeUsernames: ['maintainer'], sort: 'TITLE_ASC' }, 'assignee_username[]=maintainer&order_by=title&sort=asc'],
      ];
      for (const [filters, rest] of cases) {
        const result = await query<{ project: { issues: { count: number; nodes: GqlIssue[] } } }>(GET_ISSUES, { fullPath: PROJECT, firstPageSize: 20, ...filters });
        expect(result.errors, rest).toBeUndefined();
        const page = await harness.oracle.call<RestIssue[]>('GET', `/projects/${PROJECT_PATH}/issues?${rest}&per_page=20&page=1`, developer);
        expect(result.data!.project.issues.nodes.map((issue) => issue.iid), rest).toEqual(page.body.map((issue) => String(issue.iid)));
        expect(result.data!.project.issues.count, rest).toBe(Number(page.headers.get('x-total')));
      }
    });

    it('lists a group\'s issues with GitLab\'s wildcards and includeSubgroups, references relative to nothing', async () => {
      const result = await query<{ group: { issues: { count: number; nodes: Array<{ id: string; reference: string; assignees: { nodes: unknown[] }; milestone: unknown }> } } }>(GET_GROUP_ISSUES, {
        fullPath: 'gitlab-org',
        state: 'opened',
        milestoneWildcardId: 'NONE',
        assigneeWildcardId: 'ANY',
        includeSubgroups: true,
      });
      expect(result.errors).toBeUndefined();
      const page = await harness.oracle.call<RestIssue[]>('GET', '/groups/gitlab-org/issues?state=opened&milestone=None&assignee_id=Any&per_page=20&page=1', developer);
      const { issues } = result.data!.group;
      expect(issues.count).toBe(Number(page.headers.get('x-total')));
      expect(issues.nodes.map((issue) => [issue.id, issue.reference])).toEqual(page.body.map((issue) => [gid('Issue', issue.id), issue.references.full]));
      expect(issues.nodes.every((issue) => issue.milestone === null && issue.assignees.nodes.length > 0)).toBe(true);
    });

    it('refuses what REST cannot filter by before any REST call, naming the argument', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ state: 'locked' }, 'state'],
        [{ sort: 'SEVERITY_DESC' }, 'sort'],
        [{ milestoneTitle: ['v1.0', 'v1.1'] }, 'milestoneTitle'],
        [{ types: ['TASK'] }, 'types'],
      ];
      for (const [filters, argumentName] of cases) {
        harness.simulator.resetRequests();
        const result = await query(GET_ISSUES, { fullPath: PROJECT, ...filters });
        expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
        expect(restCalls(harness.simulator).filter((call) => call.endsWith('/issues'))).toEqual([]);
      }
      const group = await query(GET_GROUP_ISSUES, { fullPath: 'gitlab-org', includeSubgroups: false });
      expect(group.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'includeSubgroups' });
    });
  });

  describe('the issue sidebar', () => {
    /** An open issue of the project with labels, a milestone, assignees and time tracked, found through REST. */
    async function sidebarIssue(): Promise<RestIssue> {
      const issues = await harness.oracle.all<RestIssue>(`/projects/${PROJECT_PATH}/issues?state=opened`, maintainer);
      const issue = issues.find((candidate) => candidate.labels.length > 0 && candidate.milestone && candidate.assignees.length > 0 && !candidate.confidential);
      if (!issue) throw new Error('no issue with labels, a milestone and assignees');
      return harness.oracle.get<RestIssue>(`/projects/${PROJECT_PATH}/issues/${issue.iid}`, maintainer);
    }

    it('reads labels, milestone, assignees with their status, time tracking, to-dos, reference and webPath as REST has them', async () => {
      const rest = await sidebarIssue();
      // Give the assignee a to-do and a status to show.
      const todo = await harness.oracle.call<RestTodo>('POST', `/projects/${PROJECT_PATH}/issues/${rest.iid}/todo`, maintainer);
      expect([201, 304]).toContain(todo.status);
      harness.simulator.resetRequests();

      const result = await query<{ workspace: { issuable: SidebarIssue } }>(
        ISSUE_SIDEBAR,
        { fullPath: PROJECT, iid: String(rest.iid), todoState: 'pending' },
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);
      const issue = result.data!.workspace.issuable;

      const labels = await harness.oracle.all<RestLabel>(`/projects/${PROJECT_PATH}/labels`, maintainer);
      const todos = await harness.oracle.all<RestTodo>('/todos?project_id=3&type=Issue&state=pending', maintainer);
      const statuses = await Promise.all(rest.assignees.map((user) => harness.oracle.get<RestStatus>(`/users/${user.id}/status`)));
      expect(issue).toMatchObject({
        id: gid('Issue', rest.id),
        title: rest.title,
        confidential: rest.confidential,
        discussionLocked: rest.discussion_locked,
        subscribed: rest.subscribed,
        webUrl: rest.web_url,
        webPath: `/${PROJECT}/-/issues/${rest.iid}`,
        reference: `${PROJECT}#${rest.iid}`,
        shortReference: `#${rest.iid}`,
        timeEstimate: rest.time_stats.time_estimate,
        totalTimeSpent: rest.time_stats.total_time_spent,
        humanTimeEstimate: human(rest.time_stats.time_estimate),
        humanTotalTimeSpent: human(rest.time_stats.total_time_spent),
        milestone: { id: gid('Milestone', rest.milestone!.id), title: rest.milestone!.title, state: rest.milestone!.state, expired: rest.milestone!.expired, webPath: pathOf(rest.milestone!.web_url) },
      });
      expect(issue.labels.nodes).toEqual(
        rest.labels.map((name) => {
          const label = labels.find((candidate) => candidate.name === name)!;
          return { id: gid('Label', label.id), title: name, description: label.description, color: label.color, textColor: label.text_color };
        }),
      );
      expect(issue.assignees.nodes.map((user) => [user.username, user.status])).toEqual(
        rest.assignees.map((user, index) => {
          const status = statuses[index]!;
          return [user.username, status.availability ? { availability: status.availability.toUpperCase(), emoji: status.emoji, message: status.message, messageHtml: status.message_html } : null];
        }),
      );
      const pendingOnIssue = todos.filter((candidate) => candidate.target.iid === rest.iid);
      expect(pendingOnIssue.length).toBeGreaterThan(0);
      expect(issue.currentUserTodos.nodes).toEqual(pendingOnIssue.map((candidate) => ({ id: gid('Todo', candidate.id), state: 'pending' })));

      // The project, the single issue (with `subscribed` and time stats), the project's labels, one
      // status per assignee and the caller's to-dos on the project's issues: nothing read twice.
      expect(calls.sort()).toEqual(
        [
          `GET /projects/${PROJECT_PATH}`,
          `GET /projects/3/issues/${rest.iid}`,
          'GET /projects/3/labels',
          'GET /todos',
          ...rest.assignees.map((user) => `GET /users/${user.id}/status`),
        ].sort(),
      );
    });

    it('shows a status set by a user, and none for one who never set any', async () => {
      const issues = await harness.oracle.all<RestIssue>(`/projects/${PROJECT_PATH}/issues?assignee_username[]=maintainer`, maintainer);
      const issue = issues[0]!;
      const result = await query<{ workspace: { issuable: { assignees: { nodes: Array<{ username: string; status: unknown }> } } } }>(ISSUE_SIDEBAR, { fullPath: PROJECT, iid: String(issue.iid) }, maintainer);
      expect(result.errors).toBeUndefined();
      const statusOf = (username: string) => result.data!.workspace.issuable.assignees.nodes.find((user) => user.username === username)?.status;
      expect(statusOf('maintainer')).toEqual({ availability: 'BUSY', emoji: 'palm_tree', message: 'On leave until Monday', messageHtml: '<p>On leave until Monday</p>' });
      for (const user of issue.assignees.filter((candidate) => !['maintainer', 'developer'].includes(candidate.username))) expect(statusOf(user.username)).toBeNull();
    });
  });

  describe('labels and milestones of projects and groups', () => {
    it('lists a project\'s labels with its groups\', and its milestones with its groups\', as REST does', async () => {
      const result = await query<{ workspace: { labels: { nodes: Array<{ id: string; title: string; color: string }> }; attributes: { nodes: Array<{ id: string; title: string; expired: boolean; webPath: string; projectMilestone: boolean; groupMilestone: boolean }> } } }>(
        PROJECT_LABELS_AND_MILESTONES,
        { fullPath: PROJECT, state: 'active' },
      );
      expect(result.errors).toBeUndefined();
      const labels = await harness.oracle.get<RestLabel[]>(`/projects/${PROJECT_PATH}/labels?include_ancestor_groups=true&per_page=20`, developer);
      const milestones = await harness.oracle.get<RestMilestone[]>(`/projects/${PROJECT_PATH}/milestones?state=active&include_ancestors=true&per_page=20`, developer);
      expect(result.data!.workspace.labels.nodes.map((label) => [label.id, label.title, label.color])).toEqual(labels.map((label) => [gid('Label', label.id), label.name, label.color]));
      expect(result.data!.workspace.labels.nodes.map((label) => label.title)).toContain('priority::high');
      expect(result.data!.workspace.attributes.nodes).toEqual(
        milestones.map((milestone) => ({
          id: gid('Milestone', milestone.id),
          title: milestone.title,
          state: 'active',
          expired: milestone.expired,
          webPath: pathOf(milestone.web_url),
          projectMilestone: milestone.project_id !== undefined,
          groupMilestone: milestone.group_id !== undefined,
        })),
      );
      expect(result.data!.workspace.attributes.nodes.some((milestone) => milestone.groupMilestone)).toBe(true);
    });

    it('lists a group\'s own labels and milestones', async () => {
      const result = await query<{ workspace: { labels: { nodes: Array<{ id: string; title: string }> }; milestones: { nodes: Array<{ id: string; title: string; webPath: string; groupMilestone: boolean }> } } }>(
        GROUP_LABELS_AND_MILESTONES,
        { fullPath: 'gitlab-org' },
      );
      expect(result.errors).toBeUndefined();
      const labels = await harness.oracle.get<RestLabel[]>('/groups/gitlab-org/labels', developer);
      const milestones = await harness.oracle.get<RestMilestone[]>('/groups/gitlab-org/milestones', developer);
      expect(result.data!.workspace.labels.nodes.map((label) => [label.id, label.title])).toEqual(labels.map((label) => [gid('Label', label.id), label.name]));
      expect(result.data!.workspace.milestones.nodes).toEqual(
        milestones.map((milestone) => ({ id: gid('Milestone', milestone.id), title: milestone.title, expired: milestone.expired, webPath: '/groups/gitlab-org/-/milestones/1', groupMilestone: true })),
      );
    });
  });

  it('says whether a milestone is a project\'s, a group\'s or a subgroup\'s, reading each group once', async () => {
    const { state } = harness.simulator;
    const subgroup = [...state.groups.values()].find((group) => group.parentId !== null && state.projects.size > 0 && [...state.projects.values()].some((project) => project.namespace.kind === 'group' && project.namespace.groupId === group.id))!;
    const project = [...state.projects.values()].find((candidate) => candidate.namespace.kind === 'group' && candidate.namespace.groupId === subgroup.id)!;
    const id = state.nextId('milestones');
    state.groupMilestones.set(id, { id, iid: 1, groupId: subgroup.id, title: 'Subgroup sprint', description: '', state: 'active', createdAt: '2025-05-01T00:00:00.000Z', updatedAt: '2025-05-01T00:00:00.000Z', dueDate: '2025-06-20', startDate: '2025-05-20', closedAt: null });
    const result = await query<{ project: { milestones: { nodes: Array<{ title: string; projectMilestone: boolean; groupMilestone: boolean; subgroupMilestone: boolean }> } } }>(
      `query milestoneKinds($fullPath: ID!) { project(fullPath: $fullPath) { milestones(includeAncestors: true, first: 50) { nodes { title projectMilestone groupMilestone subgroupMilestone } } } }`,
      { fullPath: state.projectFullPath(project) },
      admin,
    );
    expect(result.errors).toBeUndefined();
    const kinds = Object.fromEntries(result.data!.project.milestones.nodes.map((milestone) => [milestone.title, [milestone.projectMilestone, milestone.groupMilestone, milestone.subgroupMilestone]]));
    expect(kinds['Subgroup sprint']).toEqual([false, true, true]);
    expect(kinds['v1.1']).toEqual([true, false, false]);
    const topGroup = state.groupAncestors(subgroup).at(-1)!;
    expect(kinds[`${topGroup.name} Q3 release`]).toEqual([false, true, false]);
    expect(restCalls(harness.simulator).filter((call) => /^GET \/groups\/\d+$/.test(call)).sort()).toEqual([`GET /groups/${subgroup.id}`, `GET /groups/${topGroup.id}`].sort());
  });

  it('counts a milestone\'s issues, all and closed, as REST\'s filtered lists total them', async () => {
    const result = await query<{ project: { milestones: { nodes: Array<{ title: string; stats: { totalIssuesCount: number; closedIssuesCount: number } }> } } }>(
      `query milestoneStats($fullPath: ID!) { project(fullPath: $fullPath) { milestones(first: 10) { nodes { title stats { totalIssuesCount closedIssuesCount } } } } }`,
      { fullPath: PROJECT },
    );
    expect(result.errors).toBeUndefined();
    const totalOf = async (query: string) => Number((await harness.oracle.call('GET', `/projects/${PROJECT_PATH}/issues?${query}&per_page=1`, developer)).headers.get('x-total'));
    for (const milestone of result.data!.project.milestones.nodes) {
      const title = encodeURIComponent(milestone.title);
      expect(milestone.stats).toEqual({ totalIssuesCount: await totalOf(`milestone=${title}&state=all`), closedIssuesCount: await totalOf(`milestone=${title}&state=closed`) });
    }
    expect(result.data!.project.milestones.nodes.some((milestone) => milestone.stats.totalIssuesCount > 0)).toBe(true);
  });

  describe('a label an issue names', () => {
    it('finds its ID past the project\'s first 100 labels, reading the next page once', async () => {
      const { state } = harness.simulator;
      const project = state.projects.get(3)!;
      // 120 more labels; the issue's is the last by title, on REST's second page of 100.
      for (let n = 0; n < 120; n++) {
        const id = state.nextId('labels');
        state.labels.set(id, { id, projectId: project.id, name: `bulk-${String(n).padStart(3, '0')}`, color: '#123456', description: null, priority: null });
      }
      const lastId = state.nextId('labels');
      state.labels.set(lastId, { id: lastId, projectId: project.id, name: 'zz-last', color: '#654321', description: null, priority: null });
      const issue = [...state.issues.values()].find((candidate) => candidate.projectId === project.id && !candidate.confidential)!;
      issue.labels = ['zz-last'];
      harness.simulator.resetRequests();

      const result = await query<{ project: { issue: { labels: { nodes: Array<{ id: string; title: string }> } } } }>(ISSUE_LABEL_IDS, { fullPath: PROJECT, iid: String(issue.iid) });
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.issue.labels.nodes).toEqual([{ id: gid('Label', lastId), title: 'zz-last' }]);
      expect(restCalls(harness.simulator).filter((call) => call.endsWith('/labels'))).toEqual(['GET /projects/3/labels', 'GET /projects/3/labels']);
    });

    it('fails its ID with NOT_FOUND, never a made-up one, when no label has that name any more; its title stays readable', async () => {
      const { state } = harness.simulator;
      const issue = [...state.issues.values()].find((candidate) => candidate.projectId === 3 && !candidate.confidential && candidate.iid > 2)!;
      issue.labels = ['deleted-since'];
      const withIds = await query<{ project: { issue: { labels: unknown } } }>(ISSUE_LABEL_IDS, { fullPath: PROJECT, iid: String(issue.iid) });
      expect(withIds.errors?.[0]).toMatchObject({ path: ['project', 'issue', 'labels', 'nodes', 0, 'id'], extensions: { code: 'NOT_FOUND' } });
      expect(withIds.errors?.[0]?.message).toMatch(/"deleted-since" is not among the labels of project 3/);
      expect(JSON.stringify(withIds.data)).not.toContain('gid://gitlab/Label/0');
      const titles = await query<{ project: { issue: { labels: { nodes: Array<{ title: string }> } } } }>(ISSUE_LABEL_TITLES, { fullPath: PROJECT, iid: String(issue.iid) });
      expect(titles).toEqual({ data: { project: { issue: { labels: { nodes: [{ title: 'deleted-since' }] } } } } });
    });
  });

  it('renders the title on one line and the description through REST\'s Markdown, in the issue\'s project, once per text', async () => {
    const { state } = harness.simulator;
    const issue = [...state.issues.values()].find((candidate) => candidate.projectId === 3 && !candidate.confidential && candidate.iid > 3)!;
    issue.title = 'Fix **bold** crash, see #1';
    issue.description = 'Steps:\n\nOpen `the page` and see #2.';
    const render = async (text: string) => {
      const response = await fetch(`${harness.simulator.url}/markdown`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'private-token': developer },
        body: JSON.stringify({ text, gfm: true, project: PROJECT }),
      });
      harness.simulator.requests.pop();
      return ((await response.json()) as { html: string }).html;
    };
    harness.simulator.resetRequests();
    const result = await query<{ project: { first: { titleHtml: string; descriptionHtml: string }; again: { titleHtml: string } } }>(
      `query issueHtml($fullPath: ID!, $iid: String) { project(fullPath: $fullPath) { first: issue(iid: $iid) { titleHtml descriptionHtml } again: issue(iid: $iid) { titleHtml } } }`,
      { fullPath: PROJECT, iid: String(issue.iid) },
    );
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    const titleHtml = await render(issue.title);
    expect(titleHtml).toMatch(/^<p[^>]*>/);
    expect(result.data!.project.first.titleHtml).toBe(titleHtml.replace(/^<p[^>]*>/, '').replace(/<\/p>$/, ''));
    expect(result.data!.project.first.titleHtml).toContain('<strong>bold</strong>');
    expect(result.data!.project.first.descriptionHtml).toBe(await render(issue.description));
    expect(result.data!.project.again.titleHtml).toBe(result.data!.project.first.titleHtml);
    // One rendering per distinct text, the same title asked twice included.
    expect(calls.filter((call) => call === 'POST /markdown')).toHaveLength(2);
    const anonymous = await harness.gateway.query<{ project: { issue: { titleHtml: null } } }>(`{ project(fullPath: "${PROJECT}") { issue(iid: "${issue.iid}") { titleHtml } } }`, {});
    expect(anonymous.data?.project.issue.titleHtml).toBeNull();
  });

  it('finds one issue of a project with GitLab\'s filters on issue(...): REST\'s list of one item, the iid one filter among others', async () => {
    const document = `query projectIssue($fullPath: ID!, $iid: String, $types: [IssueType!], $state: IssuableState, $labelName: [String], $sort: IssueSort) {
      project(fullPath: $fullPath) { issue(iid: $iid, types: $types, state: $state, labelName: $labelName, sort: $sort) { iid type state labels { nodes { title } } } }
    }`;
    expect(validate(schema, parse(document))).toEqual([]);
    type Answer = { project: { issue: { iid: string; type: string; state: string } | null } };
    const incidents = await harness.oracle.get<RestIssue[]>(`/projects/${PROJECT_PATH}/issues?issue_type=incident&state=all&per_page=100`, developer);
    const incident = incidents[0]!;
    const issues = await harness.oracle.get<RestIssue[]>(`/projects/${PROJECT_PATH}/issues?issue_type=issue&state=all&per_page=1`, developer);

    const matching = await query<Answer>(document, { fullPath: PROJECT, iid: String(incident.iid), types: ['INCIDENT'], state: 'all' });
    expect(matching.data!.project.issue).toMatchObject({ iid: String(incident.iid), type: 'INCIDENT' });
    expect(restCalls(harness.simulator).filter((call) => call.includes('/issues'))).toEqual(['GET /projects/3/issues']);
    const notMatching = await query<Answer>(document, { fullPath: PROJECT, iid: String(incident.iid), types: ['ISSUE'], state: 'all' });
    expect(notMatching).toEqual({ data: { project: { issue: null } } });
    // Without an iid, the first issue of the filtered list, as GitLab's finder answers.
    const first = await query<Answer>(document, { fullPath: PROJECT, types: ['ISSUE'], state: 'all' });
    expect(first.data!.project.issue?.iid).toBe(String(issues[0]!.iid));
    const refused = await query(document, { fullPath: PROJECT, iid: '1', sort: 'SEVERITY_ASC' });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'sort' });
  });

  it('answers an administrator\'s issue by global ID in the same dialect', async () => {
    const rest = (await harness.oracle.get<RestIssue[]>(`/projects/${PROJECT_PATH}/issues?per_page=1`, admin))[0]!;
    const result = await query<{ issue: { iid: string; webPath: string; reference: string } }>(
      `query issueById($id: IssueID!) { issue(id: $id) { iid webPath reference(full: true) } }`,
      { id: gid('Issue', rest.id) },
      admin,
    );
    expect(result.data?.issue).toEqual({ iid: String(rest.iid), webPath: pathOf(rest.web_url), reference: rest.references.full });
  });
});

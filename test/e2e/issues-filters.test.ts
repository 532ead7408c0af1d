import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

/**
 * Every filter of rest-v4-api.md "Issues" at every level it exists, against the embedded server's
 * data: the gateway must answer what REST answers for the REST query the filter stands for, that
 * answer must differ from the unfiltered list (so the filter really filters), every issue in it
 * must have the property the filter names, and it costs one REST call for the list.
 */

interface RestIssue {
  id: number;
  iid: number;
  project_id: number;
  state: string;
  confidential: boolean;
  issue_type: string;
  labels: string[];
  author: { id: number; username: string };
  assignees: Array<{ id: number; username: string }>;
  milestone: { title: string } | null;
  due_date: string | null;
  weight: number | null;
  title: string;
  description: string;
  created_at: string;
  updated_at: string;
  iteration: { id: number; title: string | null } | null;
  references: { full: string };
}

type Level = 'instance' | 'group' | 'project';

/** Values the table needs from the demo data, read through REST, never hard-coded. */
interface Sample {
  iterationId: number;
  iterationTitle: string;
  createdAfter: string;
  updatedBefore: string;
  searchWord: string;
  weight: number;
}

interface FilterCase {
  /** GraphQL arguments, REST query, and what every matching issue has. */
  make: (sample: Sample) => { args: string; rest: string; holds?: (issue: RestIssue) => boolean };
  levels: Level[];
}

const { maintainer } = DEMO_TOKENS;
const ME = USER_IDS.maintainer;
const ALL: Level[] = ['instance', 'group', 'project'];
const SCOPED: Level[] = ['group', 'project'];
const labelsOf = (issue: RestIssue) => issue.labels;

const CASES: Record<string, FilterCase> = {
  'state opened': { levels: ALL, make: () => ({ args: 'state: opened', rest: 'state=opened', holds: (i) => i.state === 'opened' }) },
  'state closed': { levels: ALL, make: () => ({ args: 'state: closed', rest: 'state=closed', holds: (i) => i.state === 'closed' }) },
  'scope CREATED_BY_ME': { levels: ALL, make: () => ({ args: 'scope: CREATED_BY_ME', rest: 'scope=created_by_me', holds: (i) => i.author.id === ME }) },
  'scope ASSIGNED_TO_ME': { levels: ALL, make: () => ({ args: 'scope: ASSIGNED_TO_ME', rest: 'scope=assigned_to_me', holds: (i) => i.assignees.some((u) => u.id === ME) }) },
  assigneeId: { levels: ALL, make: () => ({ args: `assigneeId: "gid://gitlab/User/${ME}"`, rest: `assignee_id=${ME}`, holds: (i) => i.assignees.some((u) => u.id === ME) }) },
  assigneeUsernames: { levels: ALL, make: () => ({ args: 'assigneeUsernames: ["maintainer"]', rest: 'assignee_username[]=maintainer', holds: (i) => i.assignees.some((u) => u.username === 'maintainer') }) },
  'assigneeWildcardId NONE': { levels: ALL, make: () => ({ args: 'assigneeWildcardId: NONE', rest: 'assignee_id=None', holds: (i) => i.assignees.length === 0 }) },
  'assigneeWildcardId ANY': { levels: ALL, make: () => ({ args: 'assigneeWildcardId: ANY', rest: 'assignee_id=Any', holds: (i) => i.assignees.length > 0 }) },
  authorId: { levels: ALL, make: () => ({ args: `authorId: "gid://gitlab/User/${USER_IDS.developer}"`, rest: `author_id=${USER_IDS.developer}`, holds: (i) => i.author.id === USER_IDS.developer }) },
  authorUsername: { levels: ALL, make: () => ({ args: 'authorUsername: "developer"', rest: 'author_username=developer', holds: (i) => i.author.username === 'developer' }) },
  'confidential true': { levels: ALL, make: () => ({ args: 'confidential: true', rest: 'confidential=true', holds: (i) => i.confidential }) },
  'confidential false': { levels: ALL, make: () => ({ args: 'confidential: false', rest: 'confidential=false', holds: (i) => !i.confidential }) },
  createdAfter: { levels: ALL, make: (s) => ({ args: `createdAfter: "${s.createdAfter}"`, rest: `created_after=${encodeURIComponent(s.createdAfter)}`, holds: (i) => i.created_at >= s.createdAfter }) },
  createdBefore: { levels: ALL, make: (s) => ({ args: `createdBefore: "${s.createdAfter}"`, rest: `created_before=${encodeURIComponent(s.createdAfter)}`, holds: (i) => i.created_at <= s.createdAfter }) },
  updatedAfter: { levels: ALL, make: (s) => ({ args: `updatedAfter: "${s.updatedBefore}"`, rest: `updated_after=${encodeURIComponent(s.updatedBefore)}`, holds: (i) => i.updated_at >= s.updatedBefore }) },
  updatedBefore: { levels: ALL, make: (s) => ({ args: `updatedBefore: "${s.updatedBefore}"`, rest: `updated_before=${encodeURIComponent(s.updatedBefore)}`, holds: (i) => i.updated_at <= s.updatedBefore }) },
  'dueDate NO_DUE_DATE': { levels: ALL, make: () => ({ args: 'dueDate: NO_DUE_DATE', rest: 'due_date=0', holds: (i) => i.due_date === null }) },
  'dueDate OVERDUE': { levels: ALL, make: () => ({ args: 'dueDate: OVERDUE', rest: 'due_date=overdue', holds: (i) => i.due_date !== null && i.due_date < '2025-06-01' }) },
  'dueDate MONTH': { levels: ALL, make: () => ({ args: 'dueDate: MONTH', rest: 'due_date=month', holds: (i) => i.due_date?.startsWith('2025-06') === true }) },
  'dueDate WEEK': { levels: ['instance', 'group'], make: () => ({ args: 'dueDate: WEEK', rest: 'due_date=week', holds: (i) => i.due_date !== null && i.due_date >= '2025-05-26' && i.due_date <= '2025-06-01' }) },
  'dueDate NEXT_MONTH_AND_PREVIOUS_TWO_WEEKS': {
    levels: ALL,
    make: () => ({ args: 'dueDate: NEXT_MONTH_AND_PREVIOUS_TWO_WEEKS', rest: 'due_date=next_month_and_previous_two_weeks', holds: (i) => i.due_date !== null && i.due_date >= '2025-05-18' && i.due_date <= '2025-07-31' }),
  },
  iids: { levels: ALL, make: () => ({ args: 'iids: ["1", "3"]', rest: 'iids[]=1&iids[]=3', holds: (i) => i.iid === 1 || i.iid === 3 }) },
  iid: { levels: ALL, make: () => ({ args: 'iid: "3"', rest: 'iids[]=3', holds: (i) => i.iid === 3 }) },
  'types INCIDENT': { levels: ALL, make: () => ({ args: 'types: [INCIDENT]', rest: 'issue_type=incident', holds: (i) => i.issue_type === 'incident' }) },
  iterationId: { levels: ALL, make: (s) => ({ args: `iterationId: "gid://gitlab/Iteration/${s.iterationId}"`, rest: `iteration_id=${s.iterationId}`, holds: (i) => i.iteration?.id === s.iterationId }) },
  iterationTitle: { levels: ALL, make: (s) => ({ args: `iterationTitle: "${s.iterationTitle}"`, rest: `iteration_title=${encodeURIComponent(s.iterationTitle)}`, holds: (i) => i.iteration?.title === s.iterationTitle }) },
  'iterationWildcardId NONE': { levels: ALL, make: () => ({ args: 'iterationWildcardId: NONE', rest: 'iteration_id=None', holds: (i) => i.iteration === null }) },
  'iterationWildcardId ANY': { levels: ALL, make: () => ({ args: 'iterationWildcardId: ANY', rest: 'iteration_id=Any', holds: (i) => i.iteration !== null }) },
  labelName: { levels: ALL, make: () => ({ args: 'labelName: ["bug"]', rest: 'labels=bug', holds: (i) => labelsOf(i).includes('bug') }) },
  'labelName, all of them': { levels: ALL, make: () => ({ args: 'labelName: ["bug", "backend"]', rest: 'labels=bug,backend', holds: (i) => labelsOf(i).includes('bug') && labelsOf(i).includes('backend') }) },
  'labelWildcardId NONE': { levels: ALL, make: () => ({ args: 'labelWildcardId: NONE', rest: 'labels=None', holds: (i) => i.labels.length === 0 }) },
  'labelWildcardId ANY': { levels: ALL, make: () => ({ args: 'labelWildcardId: ANY', rest: 'labels=Any', holds: (i) => i.labels.length > 0 }) },
  milestoneTitle: { levels: ALL, make: () => ({ args: 'milestoneTitle: ["v1.1"]', rest: 'milestone=v1.1', holds: (i) => i.milestone?.title === 'v1.1' }) },
  'milestoneWildcardId NONE': { levels: ALL, make: () => ({ args: 'milestoneWildcardId: NONE', rest: 'milestone=None', holds: (i) => i.milestone === null }) },
  'milestoneWildcardId ANY': { levels: ALL, make: () => ({ args: 'milestoneWildcardId: ANY', rest: 'milestone=Any', holds: (i) => i.milestone !== null }) },
  // GitLab's finder reads a `None` title as the wildcard too.
  'labelName None': { levels: ALL, make: () => ({ args: 'labelName: ["None"]', rest: 'labels=None', holds: (i) => i.labels.length === 0 }) },
  myReactionEmoji: { levels: ALL, make: () => ({ args: 'myReactionEmoji: "thumbsup"', rest: 'my_reaction_emoji=thumbsup' }) },
  'myReactionEmojiWildcardId NONE': { levels: ALL, make: () => ({ args: 'myReactionEmojiWildcardId: NONE', rest: 'my_reaction_emoji=None' }) },
  'myReactionEmojiWildcardId ANY': { levels: ALL, make: () => ({ args: 'myReactionEmojiWildcardId: ANY', rest: 'my_reaction_emoji=Any' }) },
  search: { levels: ALL, make: (s) => ({ args: `search: "${s.searchWord}"`, rest: `search=${s.searchWord}`, holds: (i) => `${i.title} ${i.description}`.toLowerCase().includes(s.searchWord.toLowerCase()) }) },
  'search in TITLE': { levels: ['instance'], make: (s) => ({ args: `search: "${s.searchWord}", in: [TITLE]`, rest: `search=${s.searchWord}&in=title`, holds: (i) => i.title.toLowerCase().includes(s.searchWord.toLowerCase()) }) },
  weight: { levels: ALL, make: (s) => ({ args: `weight: "${s.weight}"`, rest: `weight=${s.weight}`, holds: (i) => i.weight === s.weight }) },
  'weightWildcardId NONE': { levels: ALL, make: () => ({ args: 'weightWildcardId: NONE', rest: 'weight=None', holds: (i) => i.weight === null }) },
  'weightWildcardId ANY': { levels: ALL, make: () => ({ args: 'weightWildcardId: ANY', rest: 'weight=Any', holds: (i) => i.weight !== null }) },
  'includeArchived true': { levels: ['instance', 'group'], make: () => ({ args: 'includeArchived: true', rest: 'non_archived=false' }) },
  // Orders are the same code at every level; one of them is checked at every level.
  'sort UPDATED_DESC': { levels: ['project'], make: () => ({ args: 'sort: UPDATED_DESC', rest: 'order_by=updated_at' }) },
  'sort DUE_DATE_ASC': { levels: ALL, make: () => ({ args: 'sort: DUE_DATE_ASC', rest: 'order_by=due_date&sort=asc' }) },
  'sort PRIORITY_DESC': { levels: ['project'], make: () => ({ args: 'sort: PRIORITY_DESC', rest: 'order_by=priority' }) },
  'sort RELATIVE_POSITION_ASC': { levels: ['project'], make: () => ({ args: 'sort: RELATIVE_POSITION_ASC', rest: 'order_by=relative_position&sort=asc' }) },
  'sort LABEL_PRIORITY_DESC': { levels: ['project'], make: () => ({ args: 'sort: LABEL_PRIORITY_DESC', rest: 'order_by=label_priority' }) },
  'sort MILESTONE_DUE_DESC': { levels: ['project'], make: () => ({ args: 'sort: MILESTONE_DUE_DESC', rest: 'order_by=milestone_due' }) },
  'sort POPULARITY_DESC': { levels: ['project'], make: () => ({ args: 'sort: POPULARITY_DESC', rest: 'order_by=popularity' }) },
  'sort WEIGHT_DESC': { levels: ['project'], make: () => ({ args: 'sort: WEIGHT_DESC', rest: 'order_by=weight' }) },
  'sort CREATED_ASC': { levels: ['project'], make: () => ({ args: 'sort: CREATED_ASC', rest: 'sort=asc' }) },
  'sort TITLE_ASC': { levels: ['project'], make: () => ({ args: 'sort: TITLE_ASC', rest: 'order_by=title&sort=asc' }) },
  // The negations each level accepts (rest-v4-api.md `not`).
  'not labelName': { levels: ALL, make: () => ({ args: 'not: { labelName: ["bug", "feature"] }', rest: 'not[labels]=bug,feature', holds: (i) => !labelsOf(i).includes('bug') && !labelsOf(i).includes('feature') }) },
  'not milestoneTitle': { levels: ALL, make: () => ({ args: 'not: { milestoneTitle: ["v1.1"] }', rest: 'not[milestone]=v1.1', holds: (i) => i.milestone?.title !== 'v1.1' }) },
  'not authorId': { levels: ALL, make: () => ({ args: `not: { authorId: "gid://gitlab/User/${USER_IDS.developer}" }`, rest: `not[author_id]=${USER_IDS.developer}`, holds: (i) => i.author.id !== USER_IDS.developer }) },
  'not authorUsername': { levels: ALL, make: () => ({ args: 'not: { authorUsername: "developer" }', rest: 'not[author_username]=developer', holds: (i) => i.author.username !== 'developer' }) },
  'not assigneeId': { levels: ALL, make: () => ({ args: `not: { assigneeId: "gid://gitlab/User/${ME}" }`, rest: `not[assignee_id]=${ME}`, holds: (i) => !i.assignees.some((u) => u.id === ME) }) },
  'not assigneeUsernames': { levels: ALL, make: () => ({ args: 'not: { assigneeUsernames: ["maintainer", "alice"] }', rest: 'not[assignee_username][]=maintainer&not[assignee_username][]=alice', holds: (i) => !i.assignees.some((u) => u.username === 'maintainer' || u.username === 'alice') }) },
  'not myReactionEmoji': { levels: SCOPED, make: () => ({ args: 'not: { myReactionEmoji: "thumbsup" }', rest: 'not[my_reaction_emoji]=thumbsup' }) },
  'not search': { levels: SCOPED, make: (s) => ({ args: `not: { search: "${s.searchWord}" }`, rest: `not[search]=${s.searchWord}`, holds: (i) => !`${i.title} ${i.description}`.toLowerCase().includes(s.searchWord.toLowerCase()) }) },
  'not search in TITLE': { levels: SCOPED, make: (s) => ({ args: `not: { search: "${s.searchWord}", in: [TITLE] }`, rest: `not[search]=${s.searchWord}&not[in]=title`, holds: (i) => !i.title.toLowerCase().includes(s.searchWord.toLowerCase()) }) },
  'not iids': { levels: ['instance'], make: () => ({ args: 'not: { iids: ["1", "2"] }', rest: 'not[iids][]=1&not[iids][]=2', holds: (i) => i.iid !== 1 && i.iid !== 2 }) },
  'not iterationId': { levels: ['instance'], make: (s) => ({ args: `not: { iterationId: "gid://gitlab/Iteration/${s.iterationId}" }`, rest: `not[iteration_id]=${s.iterationId}`, holds: (i) => i.iteration?.id !== s.iterationId }) },
  'not iterationTitle': { levels: ['instance'], make: (s) => ({ args: `not: { iterationTitle: "${s.iterationTitle}" }`, rest: `not[iteration_title]=${encodeURIComponent(s.iterationTitle)}`, holds: (i) => i.iteration?.title !== s.iterationTitle }) },
  'not weight': { levels: ['instance'], make: (s) => ({ args: `not: { weight: "${s.weight}" }`, rest: `not[weight]=${s.weight}`, holds: (i) => i.weight !== s.weight }) },
};

/**
 * One page is compared, with the list's total: enough to tell a filter from none, and a fraction of
 * the work of whole lists (the instance list holds hundreds of issues).
 */
const PAGE = 30;

/**
 * Each level's list: the GraphQL field around the arguments, its REST path, and the other calls of
 * the query. The group and the project are looked up by path, so their issue list is asked by the
 * same path, alongside their record (resolvers/lookahead.ts).
 */
const LEVELS: Record<Level, { wrap: (args: string) => string; read: (data: Record<string, unknown>) => { count: number; nodes: Array<{ id: string }> }; path: string; base: string; overhead: string[] }> = {
  instance: {
    // Without `scope`, REST lists the caller's own issues; the table asks for every issue.
    wrap: (args) => `{ list: issues(first: ${PAGE}, ${args.includes('scope:') ? '' : 'scope: ALL, '}${args}) { count nodes { id } } }`,
    read: (data) => data['list'] as { count: number; nodes: Array<{ id: string }> },
    path: '/issues',
    base: 'scope=all',
    overhead: [],
  },
  group: {
    wrap: (args) => `{ group(fullPath: "gitlab-org") { list: issues(first: ${PAGE}, ${args}) { count nodes { id } } } }`,
    read: (data) => (data['group'] as Record<string, unknown>)['list'] as { count: number; nodes: Array<{ id: string }> },
    path: '/groups/gitlab-org/issues',
    base: '',
    overhead: ['GET /groups/gitlab-org'],
  },
  project: {
    wrap: (args) => `{ project(fullPath: "gitlab-org/gitaly") { list: issues(first: ${PAGE}, ${args}) { count nodes { id } } } }`,
    read: (data) => (data['project'] as Record<string, unknown>)['list'] as { count: number; nodes: Array<{ id: string }> },
    path: '/projects/gitlab-org%2Fgitaly/issues',
    base: '',
    overhead: ['GET /projects/gitlab-org%2Fgitaly'],
  },
};

const TABLE = Object.entries(CASES).flatMap(([name, filter]) => filter.levels.map((level) => [level, name, filter] as const));

/** The first page of a REST list (what `first: PAGE` shows) and its total. */
interface RestPage {
  issues: RestIssue[];
  total: number;
}

describe('issue list filters against the embedded server', () => {
  const harness = gatewayOverSimulator();
  const sample = {} as Sample;
  const baselines = new Map<Level, RestPage>();

  async function firstPage(path: string, query: string): Promise<RestPage> {
    const separator = query ? `?${query}&` : '?';
    const page = await harness.oracle.call<RestIssue[]>('GET', `${path}${separator}per_page=${PAGE}&page=1`, maintainer);
    expect(page.status).toBe(200);
    return { issues: page.body, total: Number(page.headers.get('x-total')) };
  }

  beforeAll(async () => {
    const issues = await harness.oracle.all<RestIssue>('/groups/gitlab-org/issues', maintainer);
    const withIteration = issues.find((issue) => issue.iteration?.title)!;
    sample.iterationId = withIteration.iteration!.id;
    sample.iterationTitle = withIteration.iteration!.title!;
    const created = issues.map((issue) => issue.created_at).sort();
    sample.createdAfter = created[Math.floor(created.length / 2)]!;
    const updated = issues.map((issue) => issue.updated_at).sort();
    sample.updatedBefore = updated[Math.floor(updated.length / 2)]!;
    sample.searchWord = 'README';
    // A weight the project level (gitaly, a gitlab-org project) has too.
    sample.weight = issues.find((issue) => issue.weight !== null && issue.references.full.startsWith('gitlab-org/gitaly#'))!.weight!;
    for (const [level, { path, base }] of Object.entries(LEVELS)) baselines.set(level as Level, await firstPage(path, base));
  });

  it.each(TABLE)('%s level: %s', async (level, _name, filter) => {
    const { args, rest, holds } = filter.make(sample);
    const { wrap, read, path, base, overhead } = LEVELS[level];
    const expected = await firstPage(path, [base, rest].filter(Boolean).join('&'));
    const baseline = baselines.get(level)!;
    expect(expected.issues.length).toBeGreaterThan(0);
    expect([expected.total, ...expected.issues.map((issue) => issue.id)]).not.toEqual([baseline.total, ...baseline.issues.map((issue) => issue.id)]);
    if (holds) expect(expected.issues.filter((issue) => !holds(issue)).map((issue) => issue.id)).toEqual([]);

    const result = await harness.gateway.query<Record<string, unknown>>(wrap(args), {}, maintainer);
    expect(result.errors).toBeUndefined();
    const connection = read(result.data!);
    expect(connection.nodes.map((node) => node.id)).toEqual(expected.issues.map((issue) => `gid://gitlab/Issue/${issue.id}`));
    expect(connection.count).toBe(expected.total);
    expect(restCalls(harness.simulator).sort()).toEqual([...overhead, `GET ${path}`].sort());
  });

  it('covers every filter argument of the schema at every level it exists', async () => {
    const introspection = await harness.gateway.query<{ __type: { fields: Array<{ name: string; args: Array<{ name: string }> }> } }>(
      `{ __type(name: "Query") { fields { name args { name } } } }`,
    );
    const args = introspection.data!.__type.fields.find((field) => field.name === 'issues')!.args.map((arg) => arg.name);
    const covered = new Set(Object.values(CASES).flatMap((filter) => [...filter.make(sample).args.matchAll(/(\w+):/g)].map((match) => match[1])));
    for (const arg of args.filter((name) => !['first', 'after', 'last', 'before', 'withLabelsDetails'].includes(name))) expect(covered, arg).toContain(arg);
  });

  describe('refused before any REST call', () => {
    it.each([
      ['assigneeId: "gid://gitlab/User/2", assigneeUsernames: ["root"]', 'assigneeUsernames'],
      ['assigneeUsernames: ["root"], assigneeWildcardId: NONE', 'assigneeWildcardId'],
      ['authorId: "gid://gitlab/User/2", authorUsername: "root"', 'authorUsername'],
      ['iterationId: "gid://gitlab/Iteration/1", iterationTitle: "Sprint 1"', 'iterationTitle'],
      ['iterationTitle: "Sprint 1", iterationWildcardId: ANY', 'iterationWildcardId'],
      ['labelName: ["bug"], labelWildcardId: ANY', 'labelWildcardId'],
      ['milestoneTitle: ["v1.1"], milestoneWildcardId: NONE', 'milestoneWildcardId'],
      ['myReactionEmoji: "tada", myReactionEmojiWildcardId: ANY', 'myReactionEmojiWildcardId'],
      ['weight: "1", weightWildcardId: ANY', 'weightWildcardId'],
      ['iid: "1", iids: ["2"]', 'iids'],
      ['not: { authorId: "gid://gitlab/User/2", authorUsername: "root" }', 'authorUsername'],
      ['labelName: ["a,b"]', 'labelName'],
      ['labelName: []', 'labelName'],
      ['milestoneTitle: ["v1.0", "v1.1"]', 'milestoneTitle'],
      ['state: locked', 'state'],
      ['sort: SEVERITY_ASC', 'sort'],
      ['iterationWildcardId: CURRENT', 'iterationWildcardId'],
      ['milestoneWildcardId: UPCOMING', 'milestoneWildcardId'],
      ['milestoneWildcardId: STARTED', 'milestoneWildcardId'],
      ['authorUsername: "root"', 'scope'],
      ['authorId: "gid://gitlab/User/1", scope: CREATED_BY_ME', 'scope'],
      ['types: [TASK]', 'types'],
      ['types: [ISSUE, INCIDENT]', 'types'],
      ['iids: ["one"]', 'iids'],
      ['assigneeId: "gid://gitlab/Project/1"', 'assigneeId'],
      ['iterationId: "7"', 'iterationId'],
      ['search: " "', 'search'],
      ['weight: "-1"', 'weight'],
      ['in: []', 'in'],
      ['createdAfter: "yesterday"', undefined],
      ['first: 101', 'first'],
    ])('issues(%s)', async (args, argumentName) => {
      const result = await harness.gateway.query(`{ issues(${args}) { nodes { id } } }`, {}, maintainer);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: argumentName ? 'BAD_USER_INPUT' : 'GRAPHQL_VALIDATION_FAILED' });
      if (argumentName) expect(result.errors?.[0]?.extensions?.['argumentName']).toBe(argumentName);
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('refuses a negation a level does not accept, naming it, before the list\'s call', async () => {
      const group = await harness.gateway.query(`{ group(fullPath: "gitlab-org") { issues(not: { iids: ["1"] }) { count } } }`, {}, maintainer);
      expect(group.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'not.iids' });
      const instance = await harness.gateway.query(`{ issues(scope: ALL, not: { search: "x" }) { count } }`, {}, maintainer);
      expect(instance.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'not.search' });
      const projectIn = await harness.gateway.query(`{ project(fullPath: "gitlab-org/gitaly") { issues(in: [TITLE]) { count } } }`, {}, maintainer);
      expect(projectIn.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'in' });
      expect(restCalls(harness.simulator).filter((call) => call.includes('/issues'))).toEqual([]);
    });

    it('refuses a nested list\'s filters after its parent, before the list\'s call', async () => {
      const result = await harness.gateway.query(`{ project(fullPath: "gitlab-org/gitaly") { name issues(scope: CREATED_BY_ME, authorUsername: "root") { count } } }`, {}, maintainer);
      expect(result.errors?.[0]).toMatchObject({ path: ['project', 'issues'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'scope' } });
      expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitaly']);
    });
  });
});

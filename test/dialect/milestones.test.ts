// Milestone lists in GitLab's own dialect, read the way GitLab's web frontend reads them: the board's
// milestone pickers and the issue sidebar's milestone dropdown (named operations, fragments,
// variables typed with GitLab's scalars), each with `sort: MilestoneSort`. REST's milestone lists take
// no order argument, so the gateway reads the whole REST list and orders it as GitLab's
// MilestonesFinder does; every order is checked here against the REST records, with the REST calls
// counted, and the cost estimate is held to those calls.
import { parse, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type GroupMilestone, type Milestone, type SimulatorState } from '../../simulator/index.js';
import { estimateRestCalls } from '../../src/cost/estimate.js';
import { MAX_SORTED_MILESTONE_PAGES } from '../../src/resolvers/issues/milestone-whole-list.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { developer } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitaly';
const SUBGROUP = 'gitlab-org/frontend';
/** A project given 150 milestones: two REST pages to order. */
const LONG_PROJECT = 'gitlab-org/gitlab-runner';
/** A project given more milestones than the gateway orders. */
const ENDLESS_PROJECT = 'gitlab-org/omnibus-gitlab';
const path = (fullPath: string) => encodeURIComponent(fullPath);

const BOARD_MILESTONES_OF_GROUP = `
query boardMilestonesOfGroup($fullPath: ID!, $searchTerm: String, $state: MilestoneStateEnum) {
  workspace: group(fullPath: $fullPath) {
    id
    milestones(includeAncestors: true, searchTitle: $searchTerm, state: $state, sort: EXPIRED_LAST_DUE_DATE_ASC) {
      nodes { id title }
    }
  }
}`;

const BOARD_MILESTONES_OF_PROJECT = `
query boardMilestonesOfProject($fullPath: ID!, $searchTerm: String, $state: MilestoneStateEnum) {
  workspace: project(fullPath: $fullPath) {
    id
    milestones(includeAncestors: true, searchTitle: $searchTerm, state: $state, sort: EXPIRED_LAST_DUE_DATE_ASC) {
      nodes { id title }
    }
  }
}`;

const SIDEBAR_MILESTONE_FRAGMENT = `
fragment SidebarMilestone on Milestone {
  id
  title
  webUrl: webPath
  dueDate
  expired
}`;

const SIDEBAR_MILESTONES_OF_GROUP = `${SIDEBAR_MILESTONE_FRAGMENT}
query sidebarMilestonesOfGroup($fullPath: ID!, $title: String, $state: MilestoneStateEnum) {
  workspace: group(fullPath: $fullPath) {
    id
    attributes: milestones(searchTitle: $title, state: $state, sort: EXPIRED_LAST_DUE_DATE_ASC, first: 20, includeAncestors: true) {
      nodes { ...SidebarMilestone state }
    }
  }
}`;

const SIDEBAR_MILESTONES_OF_PROJECT = `${SIDEBAR_MILESTONE_FRAGMENT}
query sidebarMilestonesOfProject($fullPath: ID!, $title: String, $state: MilestoneStateEnum) {
  workspace: project(fullPath: $fullPath) {
    id
    attributes: milestones(searchTitle: $title, state: $state, sort: EXPIRED_LAST_DUE_DATE_ASC, first: 20, includeAncestors: true) {
      nodes { ...SidebarMilestone state }
    }
  }
}`;

const PAGE_INFO_FRAGMENT = `
fragment PageInfo on PageInfo {
  hasNextPage
  hasPreviousPage
  startCursor
  endCursor
}`;

const PROJECT_MILESTONES_PAGE = `${PAGE_INFO_FRAGMENT}
query projectMilestonesPage($fullPath: ID!, $sort: MilestoneSort, $state: MilestoneStateEnum, $first: Int, $after: String, $last: Int, $before: String) {
  project(fullPath: $fullPath) {
    id
    milestones(sort: $sort, state: $state, includeAncestors: true, first: $first, after: $after, last: $last, before: $before) {
      count
      pageInfo { ...PageInfo }
      nodes { id title }
    }
  }
}`;

const GROUP_MILESTONES_PAGE = `${PAGE_INFO_FRAGMENT}
query groupMilestonesPage($fullPath: ID!, $sort: MilestoneSort, $first: Int) {
  group(fullPath: $fullPath) {
    id
    milestones(sort: $sort, includeAncestors: true, first: $first) {
      count
      pageInfo { ...PageInfo }
      nodes { id title }
    }
  }
}`;

const DOCUMENTS = {
  BOARD_MILESTONES_OF_GROUP,
  BOARD_MILESTONES_OF_PROJECT,
  SIDEBAR_MILESTONES_OF_GROUP,
  SIDEBAR_MILESTONES_OF_PROJECT,
  PROJECT_MILESTONES_PAGE,
  GROUP_MILESTONES_PAGE,
};

interface RestMilestone {
  id: number;
  title: string;
  state: string;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  expired: boolean;
  web_url: string;
}

interface GqlMilestonePage {
  count: number | null;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  nodes: Array<{ id: string; title: string }>;
}

const gid = (id: number) => `gid://gitlab/Milestone/${id}`;

/**
 * GitLab's orders, written out from MilestonesFinder#order, Milestone.sort_by_attribute and
 * Milestone.sort_with_expired_last (app/models/milestone.rb) as sort keys, independently of the
 * gateway's comparators: every order ends with the id, highest first (`with_order_id_desc`).
 */
type Key = Array<number | string>;
const NO_DATE_LAST = '~';
const descending = (date: string) => [...date].map((character) => String.fromCharCode(0xffff - character.charCodeAt(0))).join('');
const instant = (time: string) => Date.parse(time);
const EXPECTED_KEYS: Record<string, (milestone: RestMilestone) => Key> = {
  DUE_DATE_ASC: (m) => [m.due_date ?? NO_DATE_LAST, -m.id],
  DUE_DATE_DESC: (m) => [m.due_date ? descending(m.due_date) : '\uffff\uffff', -m.id],
  EXPIRED_LAST_DUE_DATE_ASC: (m) => [m.due_date === null ? 1 : m.expired ? 2 : 0, m.due_date ?? '', -m.id],
  EXPIRED_LAST_DUE_DATE_DESC: (m) => [m.due_date === null ? 1 : m.expired ? 2 : 0, m.due_date ? descending(m.due_date) : '', -m.id],
  CREATED_ASC: (m) => [instant(m.created_at), -m.id],
  CREATED_DESC: (m) => [-instant(m.created_at), -m.id],
  UPDATED_ASC: (m) => [instant(m.updated_at), -m.id],
  UPDATED_DESC: (m) => [-instant(m.updated_at), -m.id],
};
EXPECTED_KEYS['created_asc'] = EXPECTED_KEYS['CREATED_ASC']!;
EXPECTED_KEYS['created_desc'] = EXPECTED_KEYS['CREATED_DESC']!;
EXPECTED_KEYS['updated_asc'] = EXPECTED_KEYS['UPDATED_ASC']!;
EXPECTED_KEYS['updated_desc'] = EXPECTED_KEYS['UPDATED_DESC']!;

function compareKeys(a: Key, b: Key): number {
  for (const [index, left] of a.entries()) {
    const right = b[index]!;
    if (left < right) return -1;
    if (left > right) return 1;
  }
  return 0;
}

function expectedOrder(milestones: readonly RestMilestone[], sort: string): RestMilestone[] {
  const key = EXPECTED_KEYS[sort]!;
  return [...milestones].sort((a, b) => compareKeys(key(a), key(b)));
}

/**
 * Milestones that make every order matter: ties on the due date, none, expired and not (the
 * simulator's today is 2025-06-01, due that day is not expired), creation and update times out of
 * id order, one of them written with an offset.
 */
function seedMilestones(state: SimulatorState): void {
  const project = state.findProject(PROJECT)!;
  const projectMilestones: Array<[title: string, state: 'active' | 'closed', due: string | null, created: string, updated: string]> = [
    ['hotfix', 'active', '2025-06-01', '2025-03-01T09:00:00.000Z', '2025-05-20T09:00:00.000Z'],
    ['backlog', 'active', null, '2025-01-15T09:00:00.000Z', '2025-05-01T09:00:00.000Z'],
    ['someday', 'active', null, '2025-01-15T09:00:00.000Z', '2025-01-15T09:00:00.000Z'],
    ['archive-2024', 'closed', '2024-12-31', '2024-06-01T09:00:00.000Z', '2025-01-02T09:00:00.000Z'],
    ['v1.2', 'active', '2025-06-30', '2025-02-01T10:00:00.000+02:00', '2025-02-01T09:00:00.000Z'],
    ['late-spring', 'active', '2025-05-15', '2025-02-01T09:00:00.000Z', '2025-06-01T09:00:00.000Z'],
  ];
  for (const [index, [title, milestoneState, dueDate, createdAt, updatedAt]] of projectMilestones.entries()) {
    const milestone: Milestone = {
      id: state.nextId('milestones'),
      iid: 10 + index,
      projectId: project.id,
      title,
      description: `${title} of the milestone ordering test`,
      state: milestoneState,
      createdAt,
      updatedAt,
      dueDate,
      startDate: null,
      closedAt: milestoneState === 'closed' ? '2025-01-02T09:00:00.000Z' : null,
    };
    state.milestones.set(milestone.id, milestone);
  }
  const subgroup = state.findGroup(SUBGROUP)!;
  for (const [index, [title, dueDate]] of ([['frontend sprint 1', '2025-05-01'], ['frontend sprint 2', '2025-06-15'], ['frontend ideas', null]] as const).entries()) {
    const milestone: GroupMilestone = {
      id: state.nextId('milestones'),
      iid: 10 + index,
      groupId: subgroup.id,
      title,
      description: '',
      state: 'active',
      createdAt: '2025-02-02T09:00:00.000Z',
      updatedAt: '2025-02-02T09:00:00.000Z',
      dueDate,
      startDate: null,
      closedAt: null,
    };
    state.groupMilestones.set(milestone.id, milestone);
  }
  const manyOf = (fullPath: string, count: number) => {
    const owner = state.findProject(fullPath)!;
    for (let index = 0; index < count; index++) {
      const createdAt = new Date(Date.UTC(2024, 0, 1 + (index % 50), 9)).toISOString();
      // Due dates repeat and some are missing, so the order is not the id order.
      const day = index % 7 === 0 ? null : `2025-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`;
      const milestone: Milestone = {
        id: state.nextId('milestones'),
        iid: 100 + index,
        projectId: owner.id,
        title: `m${index}`,
        description: '',
        state: 'active',
        createdAt,
        updatedAt: createdAt,
        dueDate: day,
        startDate: null,
        closedAt: null,
      };
      state.milestones.set(milestone.id, milestone);
    }
  };
  manyOf(LONG_PROJECT, 150);
  manyOf(ENDLESS_PROJECT, MAX_SORTED_MILESTONE_PAGES * 100 + 1);
}

describe('milestone documents in GitLab\'s style', () => {
  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });
});

describe('milestone lists ordered as GitLab orders them, over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const query = <T>(document: string, variables: Record<string, unknown>) => harness.gateway.query<T>(document, variables, developer);
  const estimate = (document: string, variables: Record<string, unknown>) => estimateRestCalls(schema, { document: parse(document), variables }, { batching: true });
  beforeAll(() => seedMilestones(harness.simulator.state));
  /** The queries of the REST milestone list calls the gateway made in this test. */
  const milestoneReads = () => harness.simulator.requests.filter((request) => request.path.endsWith('/milestones')).map((request) => request.query);
  const projectId = (fullPath: string) => harness.simulator.state.findProject(fullPath)!.id;
  const groupId = (fullPath: string) => harness.simulator.state.findGroup(fullPath)!.id;

  describe('the board\'s and the sidebar\'s milestone pickers', () => {
    it('lists a project\'s milestones and its groups\', expired last, as GitLab\'s board picker asks: one REST list call', async () => {
      const result = await query<{ workspace: { id: string; milestones: { nodes: Array<{ id: string; title: string }> } } }>(BOARD_MILESTONES_OF_PROJECT, { fullPath: PROJECT });
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual([`GET /projects/${path(PROJECT)}`, `GET /projects/${projectId(PROJECT)}/milestones`]);
      expect(milestoneReads()).toEqual([{ include_ancestors: 'true', per_page: '100', page: '1' }]);
      const rest = await harness.oracle.all<RestMilestone>(`/projects/${path(PROJECT)}/milestones?include_ancestors=true`, developer);
      const titles = result.data!.workspace.milestones.nodes.map((milestone) => milestone.title);
      expect(result.data!.workspace.milestones.nodes).toEqual(expectedOrder(rest, 'EXPIRED_LAST_DUE_DATE_ASC').map((milestone) => ({ id: gid(milestone.id), title: milestone.title })));
      // Written out: not expired by due date (today's first, ties newest first), then none, then expired.
      expect(titles).toEqual(['hotfix', 'v1.2', 'v1.1', 'GitLab.org Q3 release', 'v2.0', 'someday', 'backlog', 'archive-2024', 'v1.0', 'late-spring']);
    });

    it('narrows the board picker by title and state, then orders', async () => {
      const result = await query<{ workspace: { milestones: { nodes: Array<{ id: string; title: string }> } } }>(BOARD_MILESTONES_OF_PROJECT, { fullPath: PROJECT, searchTerm: 'v1', state: 'active' });
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestMilestone>(`/projects/${path(PROJECT)}/milestones?include_ancestors=true&search=v1&state=active`, developer);
      expect(rest.length).toBeGreaterThan(1);
      expect(result.data!.workspace.milestones.nodes.map((milestone) => milestone.title)).toEqual(expectedOrder(rest, 'EXPIRED_LAST_DUE_DATE_ASC').map((milestone) => milestone.title));
      expect(milestoneReads()).toEqual([{ state: 'active', search: 'v1', include_ancestors: 'true', per_page: '100', page: '1' }]);
    });

    it('lists a subgroup\'s milestones with its ancestors\', expired last, as GitLab\'s board picker asks', async () => {
      const result = await query<{ workspace: { milestones: { nodes: Array<{ id: string; title: string }> } } }>(BOARD_MILESTONES_OF_GROUP, { fullPath: SUBGROUP });
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestMilestone>(`/groups/${path(SUBGROUP)}/milestones?include_ancestors=true`, developer);
      expect(rest.some((milestone) => milestone.title.endsWith('Q3 release'))).toBe(true);
      expect(result.data!.workspace.milestones.nodes).toEqual(expectedOrder(rest, 'EXPIRED_LAST_DUE_DATE_ASC').map((milestone) => ({ id: gid(milestone.id), title: milestone.title })));
      expect(restCalls(harness.simulator)).toEqual([`GET /groups/${path(SUBGROUP)}`, `GET /groups/${groupId(SUBGROUP)}/milestones`]);
      expect(milestoneReads()).toEqual([{ include_ancestors: 'true', per_page: '100', page: '1' }]);
    });

    it.each([
      ['project', SIDEBAR_MILESTONES_OF_PROJECT, `/projects/${path(PROJECT)}`],
      ['group', SIDEBAR_MILESTONES_OF_GROUP, `/groups/${path(SUBGROUP)}`],
    ])('gives the %s sidebar\'s dropdown the first 20, with dates, expiry, state and webPath as REST has them', async (kind, document, restPath) => {
      const fullPath = kind === 'project' ? PROJECT : SUBGROUP;
      const result = await query<{ workspace: { attributes: { nodes: unknown[] } } }>(document, { fullPath, state: 'active' });
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestMilestone>(`${restPath}/milestones?include_ancestors=true&state=active`, developer);
      expect(result.data!.workspace.attributes.nodes).toEqual(
        expectedOrder(rest, 'EXPIRED_LAST_DUE_DATE_ASC')
          .slice(0, 20)
          .map((milestone) => ({ id: gid(milestone.id), title: milestone.title, webUrl: new URL(milestone.web_url).pathname, dueDate: milestone.due_date, expired: milestone.expired, state: 'active' })),
      );
      expect(restCalls(harness.simulator)).toHaveLength(2);
    });
  });

  describe('every MilestoneSort value', () => {
    const SORTS = Object.keys(EXPECTED_KEYS);

    it.each(SORTS)('%s orders a project\'s milestones as GitLab does, in one REST list call', async (sort) => {
      const result = await query<{ project: { milestones: GqlMilestonePage } }>(PROJECT_MILESTONES_PAGE, { fullPath: PROJECT, sort, first: 50 });
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestMilestone>(`/projects/${path(PROJECT)}/milestones?include_ancestors=true`, developer);
      const { milestones } = result.data!.project;
      expect(milestones.nodes.map((milestone) => milestone.id)).toEqual(expectedOrder(rest, sort).map((milestone) => gid(milestone.id)));
      expect(milestones.count).toBe(rest.length);
      expect(milestones.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
      expect(restCalls(harness.simulator)).toEqual([`GET /projects/${path(PROJECT)}`, `GET /projects/${projectId(PROJECT)}/milestones`]);
      expect(milestoneReads()).toEqual([{ include_ancestors: 'true', per_page: '100', page: '1' }]);
    });

    it.each(SORTS)('%s orders a group\'s milestones with its ancestors\' as GitLab does', async (sort) => {
      const result = await query<{ group: { milestones: GqlMilestonePage } }>(GROUP_MILESTONES_PAGE, { fullPath: SUBGROUP, sort, first: 50 });
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestMilestone>(`/groups/${path(SUBGROUP)}/milestones?include_ancestors=true`, developer);
      expect(result.data!.group.milestones.nodes.map((milestone) => milestone.id)).toEqual(expectedOrder(rest, sort).map((milestone) => gid(milestone.id)));
      expect(restCalls(harness.simulator)).toHaveLength(2);
    });

    it('gives each order its own sequence on these milestones (none is REST\'s order by accident)', async () => {
      const rest = await harness.oracle.all<RestMilestone>(`/projects/${path(PROJECT)}/milestones?include_ancestors=true`, developer);
      const orders = ['DUE_DATE_ASC', 'DUE_DATE_DESC', 'EXPIRED_LAST_DUE_DATE_ASC', 'EXPIRED_LAST_DUE_DATE_DESC', 'CREATED_ASC', 'CREATED_DESC', 'UPDATED_ASC', 'UPDATED_DESC'].map((sort) =>
        expectedOrder(rest, sort)
          .map((milestone) => milestone.id)
          .join(),
      );
      expect(new Set(orders).size).toBe(orders.length);
    });

    it('without `sort` keeps REST\'s order and reads only the window\'s page', async () => {
      const result = await query<{ project: { milestones: GqlMilestonePage } }>(PROJECT_MILESTONES_PAGE, { fullPath: PROJECT, first: 5 });
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<RestMilestone[]>(`/projects/${path(PROJECT)}/milestones?include_ancestors=true&per_page=5&page=1`, developer);
      expect(result.data!.project.milestones.nodes.map((milestone) => milestone.id)).toEqual(rest.map((milestone) => gid(milestone.id)));
      expect(restCalls(harness.simulator)).toEqual([`GET /projects/${path(PROJECT)}`, `GET /projects/${projectId(PROJECT)}/milestones`]);
      expect(milestoneReads()).toEqual([{ include_ancestors: 'true', per_page: '5', page: '1' }]);
    });
  });

  describe('ordering a list REST pages', () => {
    it('reads every page of 100, orders them, and pages forward and back through the ordered list with cursors', async () => {
      const variables = { fullPath: LONG_PROJECT, sort: 'DUE_DATE_DESC', first: 60 };
      const first = await query<{ project: { milestones: GqlMilestonePage } }>(PROJECT_MILESTONES_PAGE, variables);
      expect(first.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);
      expect(milestoneReads()).toEqual(['1', '2'].map((page) => ({ include_ancestors: 'true', per_page: '100', page })));
      expect(calls.length).toBeLessThanOrEqual(estimate(PROJECT_MILESTONES_PAGE, variables));

      const rest = expectedOrder(await harness.oracle.all<RestMilestone>(`/projects/${path(LONG_PROJECT)}/milestones?include_ancestors=true`, developer), 'DUE_DATE_DESC');
      expect(rest.length).toBeGreaterThan(150);
      const page1 = first.data!.project.milestones;
      expect(page1.count).toBe(rest.length);
      expect(page1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      expect(page1.nodes.map((milestone) => milestone.id)).toEqual(rest.slice(0, 60).map((milestone) => gid(milestone.id)));

      const second = await query<{ project: { milestones: GqlMilestonePage } }>(PROJECT_MILESTONES_PAGE, { ...variables, after: page1.pageInfo.endCursor });
      const page2 = second.data!.project.milestones;
      expect(page2.nodes.map((milestone) => milestone.id)).toEqual(rest.slice(60, 120).map((milestone) => gid(milestone.id)));
      expect(page2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

      const tail = await query<{ project: { milestones: GqlMilestonePage } }>(PROJECT_MILESTONES_PAGE, { fullPath: LONG_PROJECT, sort: 'DUE_DATE_DESC', last: 10 });
      expect(tail.data!.project.milestones.nodes.map((milestone) => milestone.id)).toEqual(rest.slice(-10).map((milestone) => gid(milestone.id)));
      const back = await query<{ project: { milestones: GqlMilestonePage } }>(PROJECT_MILESTONES_PAGE, { fullPath: LONG_PROJECT, sort: 'DUE_DATE_DESC', last: 5, before: page2.pageInfo.startCursor });
      expect(back.data!.project.milestones.nodes.map((milestone) => milestone.id)).toEqual(rest.slice(55, 60).map((milestone) => gid(milestone.id)));
    });

    it('counts the ceiling\'s pages in the cost estimate of a sorted list, and the window\'s alone without `sort`', () => {
      const sorted = estimate(PROJECT_MILESTONES_PAGE, { fullPath: PROJECT, sort: 'DUE_DATE_ASC', first: 20 });
      const unsorted = estimate(PROJECT_MILESTONES_PAGE, { fullPath: PROJECT, first: 20 });
      expect(sorted - unsorted).toBe(MAX_SORTED_MILESTONE_PAGES - 1);
    });

    it('refuses a list longer than the ceiling with LIMIT_EXCEEDED after one REST call, and the rest of the answer stands', async () => {
      const result = await query<{ project: { id: string; milestones: GqlMilestonePage | null } }>(PROJECT_MILESTONES_PAGE, { fullPath: ENDLESS_PROJECT, sort: 'CREATED_ASC', first: 5 });
      expect(result.data!.project.id).toMatch(/^gid:\/\/gitlab\/Project\/\d+$/);
      expect(result.data!.project.milestones).toBeNull();
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0]!.message).toContain(`more than ${MAX_SORTED_MILESTONE_PAGES * 100} milestones`);
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'sortedMilestones', maxItems: MAX_SORTED_MILESTONE_PAGES * 100 });
      expect(milestoneReads()).toEqual([{ include_ancestors: 'true', per_page: '100', page: '1' }]);
    });

    it('refuses bad paging arguments before any REST call', async () => {
      const result = await query<{ project: { milestones: GqlMilestonePage | null } }>(PROJECT_MILESTONES_PAGE, { fullPath: PROJECT, sort: 'DUE_DATE_ASC', first: 101 });
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(milestoneReads()).toEqual([]);
    });
  });
});

const TIMEBOXED_MILESTONES = `
query timeboxedMilestones($fullPath: ID!, $ids: [ID!], $containingDate: Time, $timeframe: Timeframe, $sort: MilestoneSort) {
  project(fullPath: $fullPath) {
    id
    milestones(ids: $ids, containingDate: $containingDate, timeframe: $timeframe, sort: $sort, includeAncestors: true) {
      nodes { id title startDate dueDate }
    }
  }
}`;

/** Timebox.within_timeframe, written out from GitLab's model independently of the gateway's filter. */
function underWay(milestone: { start_date: string | null; due_date: string | null }, start: string, end: string): boolean {
  if (milestone.start_date === null && milestone.due_date === null) return false;
  return (milestone.start_date === null || milestone.start_date <= end) && (milestone.due_date === null || milestone.due_date >= start);
}

describe('milestone lists filtered by id and by date, as GitLab filters them', () => {
  const harness = gatewayOverSimulator();
  const query = <T>(variables: Record<string, unknown>) => harness.gateway.query<T>(TIMEBOXED_MILESTONES, variables, developer);
  const milestoneReads = () => harness.simulator.requests.filter((request) => request.path.endsWith('/milestones')).length;
  type Answer = { project: { milestones: { nodes: Array<{ id: string; title: string }> } | null } };
  let rest: Array<RestMilestone & { start_date: string | null }> = [];

  beforeAll(async () => {
    const state = harness.simulator.state;
    const project = state.findProject(PROJECT)!;
    const spans: Array<[title: string, start: string | null, due: string | null]> = [
      ['q1', '2025-01-01', '2025-03-31'],
      ['q2', '2025-04-01', '2025-06-30'],
      ['open-ended', '2025-05-01', null],
      ['until-june', null, '2025-06-15'],
      ['undated', null, null],
    ];
    for (const [index, [title, startDate, dueDate]] of spans.entries()) {
      const milestone: Milestone = { id: state.nextId('milestones'), iid: 50 + index, projectId: project.id, title, description: '', state: 'active', createdAt: '2025-01-01T09:00:00.000Z', updatedAt: '2025-01-01T09:00:00.000Z', dueDate, startDate, closedAt: null };
      state.milestones.set(milestone.id, milestone);
    }
    rest = await harness.oracle.all(`/projects/${path(PROJECT)}/milestones?include_ancestors=true`, developer);
  });

  it('validates against the schema', () => {
    expect(validate(schema, parse(TIMEBOXED_MILESTONES))).toEqual([]);
  });

  it('keeps the milestones named by `ids`, in REST\'s order, from one read of the list', async () => {
    const chosen = [rest[3]!, rest[0]!];
    harness.simulator.resetRequests();
    const result = await query<Answer>({ fullPath: PROJECT, ids: chosen.map((milestone) => gid(milestone.id)) });
    expect(result.errors).toBeUndefined();
    const inRestOrder = rest.filter((milestone) => chosen.includes(milestone));
    expect(result.data!.project.milestones!.nodes.map((node) => node.id)).toEqual(inRestOrder.map((milestone) => gid(milestone.id)));
    expect(milestoneReads()).toBe(1);
  });

  it.each([['2025-02-14T12:00:00Z'], ['2025-05-10T00:00:00Z'], ['2025-06-20T23:59:59Z'], ['2026-01-01T00:00:00Z']])('keeps the milestones under way on the day of %s', async (containingDate) => {
    const day = containingDate.slice(0, 10);
    const result = await query<Answer>({ fullPath: PROJECT, containingDate });
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.milestones!.nodes.map((node) => node.title)).toEqual(rest.filter((milestone) => underWay(milestone, day, day)).map((milestone) => milestone.title));
  });

  it('keeps the milestones under way within a timeframe, and orders them when asked', async () => {
    const timeframe = { start: '2025-03-15', end: '2025-04-15' };
    const result = await query<Answer>({ fullPath: PROJECT, timeframe, sort: 'DUE_DATE_ASC' });
    expect(result.errors).toBeUndefined();
    const kept = rest.filter((milestone) => underWay(milestone, timeframe.start, timeframe.end));
    expect(kept.map((milestone) => milestone.title)).toEqual(expect.arrayContaining(['q1', 'q2', 'until-june']));
    expect(result.data!.project.milestones!.nodes.map((node) => node.id)).toEqual(expectedOrder(kept, 'DUE_DATE_ASC').map((milestone) => gid(milestone.id)));
  });

  it.each([
    ['both date filters', { containingDate: '2025-05-01T00:00:00Z', timeframe: { start: '2025-01-01', end: '2025-02-01' } }],
    ['a timeframe that ends before it starts', { timeframe: { start: '2025-03-01', end: '2025-02-01' } }],
    ['an id of another class', { ids: ['gid://gitlab/Issue/1'] }],
  ])('refuses %s with BAD_USER_INPUT before any REST call', async (_name, variables) => {
    harness.simulator.resetRequests();
    const result = await query<Answer>({ fullPath: PROJECT, ...variables });
    expect(result.data!.project.milestones).toBeNull();
    expect(result.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(milestoneReads()).toBe(0);
  });
});

// Scenario "dashboard" (issue scenario 1): a group's home page. The group, its subgroups, their
// projects (first 20), and for each project its runners and its first five open issues with
// assignees and milestone. Assignees and milestones are embedded in REST's issue records, so the
// minimum is one call per list.
import { DEMO_TOKENS } from '../../simulator/index.js';
import { firstDifference, runNestedQuery } from '../lib/nested-query.js';
import type { DriverTools } from '../lib/rest-baseline.js';
import type { Scenario } from '../lib/scenario.js';

const TOKEN = DEMO_TOKENS.admin;
const GROUP = 'gitlab-org';
const PROJECTS = 20;
const ISSUES = 5;

export const DASHBOARD_QUERY = `query Dashboard($group: ID!, $projects: Int!, $issues: Int!) {
  group(fullPath: $group) {
    id
    name
    subgroups(first: 20) {
      nodes {
        fullPath
        name
        projects(first: $projects) {
          count
          nodes {
            fullPath
            name
            runners(first: 20) { nodes { id status description } }
            issues(first: $issues, state: opened) {
              count
              nodes { iid title assignees { nodes { username name } } milestone { title dueDate } }
            }
          }
        }
      }
    }
  }
}`;

export const DASHBOARD_VARIABLES = { group: GROUP, projects: PROJECTS, issues: ISSUES };

export interface DashboardData {
  group: {
    id: string;
    name: string;
    subgroups: {
      nodes: Array<{
        fullPath: string;
        name: string;
        projects: {
          nodes: Array<{
            fullPath: string;
            runners: { nodes: Array<{ id: string; status: string }> };
            issues: { nodes: Array<{ iid: string; title: string; assignees: { nodes: Array<{ username: string }> }; milestone: { title: string } | null }> };
          }>;
        };
      }>;
    };
  };
}

/** The page as both sides see it: per project, its runners and open issues, in order. */
interface DashboardProject {
  fullPath: string;
  runners: number[];
  issues: Array<{ iid: number; title: string; assignees: string[]; milestone: string | null }>;
}

interface RestGroup {
  id: number;
  name: string;
  full_path: string;
}
interface RestProject {
  id: number;
  path_with_namespace: string;
}
interface RestIssue {
  iid: number;
  title: string;
  assignees: Array<{ username: string }>;
  milestone: { title: string } | null;
}

const numericId = (gid: string) => Number(gid.slice(gid.lastIndexOf('/') + 1));

/** What a frontend does today: the group and its subgroups, then their projects, then per project its two lists. */
export async function dashboardOverRest(tools: DriverTools): Promise<DashboardProject[]> {
  const rest = tools.rest(TOKEN);
  const group = encodeURIComponent(GROUP);
  const [, subgroups] = await Promise.all([
    rest.get<RestGroup>(`/groups/${group}`),
    rest.get<RestGroup[]>(`/groups/${group}/subgroups?all_available=true&per_page=20&page=1`),
  ]);
  const projectLists = await Promise.all(subgroups.map((subgroup) => rest.get<RestProject[]>(`/groups/${subgroup.id}/projects?per_page=${PROJECTS}&page=1`)));
  return Promise.all(
    projectLists.flat().map(async (project) => {
      const [runners, issues] = await Promise.all([
        rest.get<Array<{ id: number }>>(`/projects/${project.id}/runners?per_page=20&page=1`),
        rest.get<RestIssue[]>(`/projects/${project.id}/issues?state=opened&per_page=${ISSUES}&page=1`),
      ]);
      return {
        fullPath: project.path_with_namespace,
        runners: runners.map((runner) => runner.id),
        issues: issues.map((issue) => ({
          iid: issue.iid,
          title: issue.title,
          assignees: issue.assignees.map((user) => user.username),
          milestone: issue.milestone?.title ?? null,
        })),
      };
    }),
  );
}

/** The gateway's answer as the REST client's rows, to hold one against the other. */
export function fromGateway(data: DashboardData): DashboardProject[] {
  return data.group.subgroups.nodes.flatMap((subgroup) =>
    subgroup.projects.nodes.map((project) => ({
      fullPath: project.fullPath,
      runners: project.runners.nodes.map((runner) => numericId(runner.id)),
      issues: project.issues.nodes.map((issue) => ({
        iid: Number(issue.iid),
        title: issue.title,
        assignees: issue.assignees.nodes.map((user) => user.username),
        milestone: issue.milestone?.title ?? null,
      })),
    })),
  );
}

/** The distinct REST resources the dashboard needs, from the data it shows. */
export function dashboardMinimum(data: DashboardData): Set<string> {
  const resources = new Set([`GET /groups/${GROUP}`, `GET /groups/${GROUP}/subgroups`]);
  for (const subgroup of data.group.subgroups.nodes) {
    resources.add(`GET /groups/${subgroup.fullPath}/projects`);
    for (const project of subgroup.projects.nodes) {
      resources.add(`GET /projects/${project.fullPath}/runners`);
      resources.add(`GET /projects/${project.fullPath}/issues`);
    }
  }
  return resources;
}

export const dashboard: Scenario = {
  name: 'dashboard',
  title: `Dashboard: group ${GROUP}, its subgroups, their projects (first ${PROJECTS}), each project's runners and first ${ISSUES} open issues`,
  baseline: "a plain REST client (undici, level by level, each level in parallel, same pool size as the gateway): the frontend's REST waterfall",
  run: (context) =>
    runNestedQuery<DashboardData>(context, {
      name: 'dashboard',
      token: TOKEN,
      query: DASHBOARD_QUERY,
      variables: DASHBOARD_VARIABLES,
      restBaseline: { module: import.meta.url, name: 'dashboardOverRest', args: null },
      // The group and its subgroup list are both addressed by path, so they can be asked at once;
      // then each subgroup's projects; then each project's runners and issues.
      waves: 3,
      minimumRule:
        'GET the group + its subgroup list (one page) + per subgroup one page of projects + per project one page of runners and one of open issues; assignees and milestones are embedded in issue records.',
      minimumResources: dashboardMinimum,
      // Issue 29's restatement of issue 16's budgets, which were out of reach as written (a 3-level
      // page cannot be 3 x faster for a far client; 1.1 x the floor left about 1 ms for all of
      // GraphQL): p50 within 5% of the REST waterfall server's, a plain node:http server doing the
      // page's REST calls in the same rounds; and for a far client (--client-rtt 50 --latency 5),
      // the REST client's p50 over the gateway's at least 0.95 x its p50 over the waterfall server's.
      p50Budget: { withinWaterfall: 0.05 },
      fasterThanRest: { ofWaterfall: 0.95, clientRttMs: 50, latencyMs: 5 },
      difference(data, rest) {
        const mine = fromGateway(data);
        return firstDifference(mine, rest, 'projects');
      },
    }),
};

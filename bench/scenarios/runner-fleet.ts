// Scenario "fleet" (issue scenario 2): an administrator's runner fleet page. 100 runners with
// detail fields (version, tags, last contact and projects: GET /runners/:id each) and each
// runner's last job with its commit (GET /runners/:id/jobs?per_page=1).
import { DEMO_TOKENS } from '../../simulator/index.js';
import { firstDifference, runNestedQuery } from '../lib/nested-query.js';
import type { DriverTools } from '../lib/rest-baseline.js';
import type { Scenario } from '../lib/scenario.js';

const TOKEN = DEMO_TOKENS.admin;
const FIRST = 100;

// version, tagList and contactedAt are detail fields like projects: with batching on they share one
// GET /runners/:id per runner; with batching off each asks for it again, which is what the
// "Batching off" column shows.
export const FLEET_QUERY = `query RunnerFleet($first: Int!) {
  runners(first: $first) {
    count
    nodes {
      id
      status
      version
      tagList
      contactedAt
      projects { nodes { fullPath } }
      jobs(first: 1) { nodes { id status commit { sha title } } }
    }
  }
}`;

export interface FleetData {
  runners: {
    nodes: Array<{
      id: string;
      status: string;
      version: string | null;
      tagList: string[] | null;
      /** Null for instance and group runners, as in GitLab. */
      projects: { nodes: Array<{ fullPath: string }> } | null;
      jobs: { nodes: Array<{ id: string; status: string; commit: { sha: string } | null }> };
    }>;
  };
}

/** The same page in the Tailcall peer's schema (bench/peers/tailcall/gitlab.graphql): REST's fields. */
export const TAILCALL_FLEET_QUERY = `query RunnerFleet($perPage: Int!) {
  runners(perPage: $perPage) {
    id
    status
    online
    detail { version tag_list projects { id path_with_namespace } }
    lastJobs { id status commit { id } }
  }
}`;

interface TailcallFleetData {
  runners: Array<
    Pick<RestRunner, 'id' | 'status' | 'online'> & {
      detail: Omit<RestRunner, 'id' | 'status' | 'online'> | null;
      lastJobs: RestJob[] | null;
    }
  >;
}

/** The page as both the gateway and the REST client see it, to check that they agree. */
interface FleetRow {
  runnerId: number;
  status: string;
  version: string | null;
  tags: string[];
  projects: string[];
  lastJob: { id: number; status: string; sha: string | null } | null;
}

interface RestRunner {
  id: number;
  status: string;
  online?: boolean | null;
  version?: string | null;
  tag_list?: string[];
  projects?: Array<{ id: number; path_with_namespace: string }>;
}

interface RestJob {
  id: number;
  status: string;
  commit?: { id: string } | null;
}

const numericId = (gid: string) => Number(gid.slice(gid.lastIndexOf('/') + 1));

/**
 * The REST client baseline, run in the driver process: what a frontend does today to draw the
 * same page, level by level, each level in parallel.
 */
export async function fleetOverRest(tools: DriverTools): Promise<FleetRow[]> {
  const rest = tools.rest(TOKEN);
  // Level 1: the list.
  const runners = await rest.get<RestRunner[]>(`/runners/all?per_page=${FIRST}&page=1`);
  // Level 2: per runner, the detail record and the last job, all at once.
  return Promise.all(
    runners.map(async (runner) => {
      const [detail, jobs] = await Promise.all([
        rest.get<RestRunner>(`/runners/${runner.id}`),
        rest.get<RestJob[]>(`/runners/${runner.id}/jobs?per_page=1&page=1`),
      ]);
      return fromRest(runner, detail, jobs[0]);
    }),
  );
}

/** One row from REST's records: the list's runner, its detail record and its last job. */
function fromRest(runner: RestRunner, detail: Omit<RestRunner, 'id' | 'status'> | null, job: RestJob | undefined): FleetRow {
  return {
    runnerId: runner.id,
    status: gitlabStatus(runner),
    version: detail?.version ?? null,
    tags: detail?.tag_list ?? [],
    // GitLab lists a runner's projects by id (CiRunner.projects' default order).
    projects: [...(detail?.projects ?? [])].sort((a, b) => a.id - b.id).map((project) => project.path_with_namespace),
    lastJob: job ? { id: job.id, status: job.status, sha: job.commit?.id ?? null } : null,
  };
}

/**
 * GitLab's CiRunner.status from REST's record: REST says `paused` for a paused runner that is
 * neither stale nor new, where GitLab's GraphQL tells online from offline (pausing shows in
 * `paused`); REST's `not_connected` is GitLab's never_contacted.
 */
function gitlabStatus(runner: RestRunner): string {
  if (runner.status === 'paused') return runner.online === true ? 'online' : 'offline';
  return runner.status === 'not_connected' ? 'never_contacted' : runner.status;
}

function fromGateway(data: FleetData): FleetRow[] {
  return data.runners.nodes.map((node) => {
    const job = node.jobs.nodes[0];
    return {
      runnerId: numericId(node.id),
      status: node.status.toLowerCase(),
      version: node.version,
      tags: node.tagList ?? [],
      projects: node.projects?.nodes.map((project) => project.fullPath) ?? [],
      lastJob: job ? { id: numericId(job.id), status: job.status.toLowerCase(), sha: job.commit?.sha ?? null } : null,
    };
  });
}

/** The distinct REST resources the fleet page needs, from the runners it shows. */
export function fleetMinimum(data: FleetData): Set<string> {
  const resources = new Set(['GET /runners/all']);
  for (const node of data.runners.nodes) {
    resources.add(`GET /runners/${numericId(node.id)}`);
    resources.add(`GET /runners/${numericId(node.id)}/jobs`);
  }
  return resources;
}

export const runnerFleet: Scenario = {
  name: 'fleet',
  title: `Runner fleet: runners(first: ${FIRST}) with detail fields, projects and last job with commit`,
  baseline: 'a plain REST client (undici, level by level, each level in parallel, same pool size as the gateway)',
  run: (context) =>
    runNestedQuery<FleetData>(context, {
      name: 'fleet',
      token: TOKEN,
      query: FLEET_QUERY,
      variables: { first: FIRST },
      restBaseline: { module: import.meta.url, name: 'fleetOverRest', args: null },
      // The list must answer before anything per runner can be asked; the per-runner calls are
      // independent of each other.
      waves: 2,
      minimumRule: `1 list page (first: ${FIRST} fits one) + per runner returned, GET /runners/:id (every detail field) + 1 page of GET /runners/:id/jobs; commits are embedded in jobs.`,
      minimumResources: fleetMinimum,
      // The promise against what a team writes by hand: at most 0.8 x its p50.
      naiveBffRatio: 0.8,
      difference(data, rest) {
        const mine = fromGateway(data);
        return firstDifference(mine, rest, 'runners');
      },
      // Tailcall's schema is REST's records as they are: mapped as the REST client maps them.
      tailcall: {
        query: TAILCALL_FLEET_QUERY,
        variables: { perPage: FIRST },
        difference: (data, rest) =>
          firstDifference(
            (data as TailcallFleetData).runners.map((runner) => fromRest(runner, runner.detail, runner.lastJobs?.[0])),
            rest,
            'runners',
          ),
      },
    }),
};

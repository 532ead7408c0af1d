import type { CiRunnerResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection, restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { ID_ONLY, PROJECT_REFERENCE, RUNNER_JOB } from '../../cost/shapes.js';
import type { RunnerSchema } from '../../datasources/runners.js';
import { declared } from '../../fields/declaration.js';
import { restListField } from '../../fields/patterns.js';
import type { GatewayContext } from '../../server/context.js';
import { toGlobalId } from '../global-id.js';
import { runnerDetail } from './detail.js';
import { runnerJobStatusFilter } from './filters.js';
import { adminRunnerUrl } from './page-urls.js';
import { checkProjectSort, searchAndSortProjects } from './runner-projects.js';
import { runnerPermissions } from './permissions.js';
import { graphqlRunnerStatus } from './runner-status.js';

/** Whether a runner is paused; older records and the update response only carry `active`. */
export function runnerIsPaused(runner: RunnerSchema): boolean {
  return runner.paused ?? runner.active === false;
}

/** The runner's type; list records of older servers only say `is_shared`, which the detail completes. */
async function runnerType(runner: RunnerSchema, context: GatewayContext) {
  return runner.runner_type ?? (await runnerDetail(runner, context)).runner_type;
}

/** A runner that `runnerCreate` answers, with the authentication token REST returned once. */
export type CreatedRunner = RunnerSchema & { ephemeralAuthenticationToken?: string | null };

export const CiRunner: CiRunnerResolvers = {
  id: (runner) => toGlobalId('Ci::Runner', runner.id),
  paused: (runner) => runnerIsPaused(runner),
  // Codegen types enum results as REST's strings the schema maps (enum-values.ts).
  status: (runner, { legacyMode }) => graphqlRunnerStatus(runner, legacyMode) as never,
  active: (runner) => runner.active ?? !runnerIsPaused(runner),
  // GitLab answers the projects of project runners only; REST lists none for the others anyway.
  // The detail record's `projects`, windowed in the gateway.
  projects: declared(
    { reads: ['projects'], items: 'window', returns: PROJECT_REFERENCE, rest: ['GET /runners/:id'] },
    async (runner, args, context) => {
      checkProjectSort(args.sort);
      if ((await runnerType(runner, context)) !== 'project_type') return null;
      return arrayConnection(args, searchAndSortProjects((await runnerDetail(runner, context)).projects ?? [], args.search, args.sort));
    },
  ),
  // Read from the detail record (its `runner_type` and `projects`, or `groups`).
  projectCount: declared({ reads: ['runner_type', 'projects'], rest: ['GET /runners/:id'] }, async (runner, _args, context) => {
    if ((await runnerType(runner, context)) !== 'project_type') return null;
    return (await runnerDetail(runner, context)).projects?.length ?? 0;
  }),
  // Ci::Runner#owner_project: the first project the runner was enabled in, which REST lists first.
  ownerProject: declared(
    { reads: ['runner_type', 'projects'], returns: PROJECT_REFERENCE, rest: ['GET /runners/:id'] },
    async (runner, _args, context) => {
      if ((await runnerType(runner, context)) !== 'project_type') return null;
      return (await runnerDetail(runner, context)).projects?.[0] ?? null;
    },
  ),
  // Embedded groups carry `id`, `name` and `web_url`; any other field reads the group.
  groups: declared({ reads: ['groups'], items: 'window', returns: ID_ONLY, rest: ['GET /runners/:id'] }, async (runner, args, context) => {
    // The embedded groups are partial records: Group's fields they lack come from the group loader.
    return arrayConnection(args, (await runnerDetail(runner, context)).groups ?? []);
  }),
  jobs: declared({ ...restList(RUNNER_JOB), rest: ['GET /runners/:id/jobs'] }, (runner, args, { api }) => {
    const filters = { status: runnerJobStatusFilter(args.statuses), sort: args.sort ?? undefined };
    return restConnection(args, (page) => api.runners.jobs(runner.id, filters, page));
  }),
  // The X-Total of a one-job page of GET /runners/:id/jobs.
  jobCount: declared({ ...oneCall(), rest: ['GET /runners/:id/jobs'] }, (runner, args, { api }) => {
    return api.runners.jobCount(runner.id, runnerJobStatusFilter(args.statuses));
  }),
  managers: restListField('GET /runners/:id/managers'),
  // GET /user (once per request) and the detail record: reading it is what owning the runner is.
  userPermissions: declared(
    { calls: 1, reads: ['projects', 'locked'], rest: ['GET /user', 'GET /runners/:id'] },
    (runner, _args, context) => runnerPermissions(runner, context),
  ),
  // GET /user (once per request, shared with userPermissions): the caller's flag and web address.
  adminUrl: declared({ ...oneCall(), rest: ['GET /user'] }, (runner, _args, context) => adminRunnerUrl(runner, context, '')),
  editAdminUrl: declared({ ...oneCall(), rest: ['GET /user'] }, (runner, _args, context) => adminRunnerUrl(runner, context, '/edit')),
  ephemeralAuthenticationToken: (runner: CreatedRunner) => runner.ephemeralAuthenticationToken ?? null,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { CiRunner };

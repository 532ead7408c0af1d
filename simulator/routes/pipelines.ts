// A project's pipelines (lib/api/ci/pipelines.rb): the list with its filters, and one pipeline.
// Reading them is `read_pipeline`: public pipelines of a public or internal project, or Reporter
// and above.
import type { Project } from '../data/model.js';
import { COMPLETED_STATUSES, mayReadPipelines, pipelineDetailEntity, pipelineEntity, pipelinesOfProject, type PipelineRow } from '../entities/pipelines.js';
import { forbidden, grapeError, messageError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleProject } from './lookup.js';

/** The latest pipeline of each branch (or tag) for `scope=branches` (`tags`), as Ci::PipelinesFinder. */
function latestPerRef(rows: PipelineRow[], tags: boolean): PipelineRow[] {
  const latest = new Map<string, PipelineRow>();
  for (const row of rows) {
    if (row.tag !== tags) continue;
    const known = latest.get(row.ref);
    if (!known || row.id > known.id) latest.set(row.ref, row);
  }
  return [...latest.values()];
}

function inScope(rows: PipelineRow[], scope: string | undefined): PipelineRow[] {
  switch (scope) {
    case 'running':
    case 'pending':
      return rows.filter((row) => row.status === scope);
    case 'finished':
      return rows.filter((row) => COMPLETED_STATUSES.has(row.status));
    case 'branches':
      return latestPerRef(rows, false);
    case 'tags':
      return latestPerRef(rows, true);
    default:
      return rows;
  }
}

/** Ci::Pipeline.sources: what `source` may name. */
const SOURCES = [
  'unknown',
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
  'security_orchestration_policy',
] as const;

/** Grape's DateTime parameters: an unparsable time is a 400 naming the parameter. */
function timeParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw grapeError(400, `${name} is invalid`);
  return at;
}

/**
 * Ci::PipelinesFinder's other filters: `username` (the user who ran it; an unknown name finds
 * nothing) and `updated_after`/`updated_before` (strictly after or before, as Ci::Pipeline's scopes
 * compare), `source`.
 */
function matchesFinder(ctx: RequestContext<unknown>, row: PipelineRow, params: { source?: string | undefined; username?: string | undefined; updatedAfter?: number | undefined; updatedBefore?: number | undefined }): boolean {
  const updated = Date.parse(row.updatedAt);
  const username = row.userId === null ? undefined : ctx.state.users.get(row.userId)?.username;
  return (
    (params.source === undefined || row.source === params.source) &&
    (params.username === undefined || (username !== undefined && username.toLowerCase() === params.username.toLowerCase())) &&
    (params.updatedAfter === undefined || updated > params.updatedAfter) &&
    (params.updatedBefore === undefined || updated < params.updatedBefore)
  );
}

const STATUSES = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled'] as const;

function pipelinesProject(ctx: RequestContext<unknown>, id: string): Project {
  const project = visibleProject(ctx, id);
  if (!mayReadPipelines(ctx.state, ctx.user, project)) throw forbidden();
  return project;
}

export function registerPipelineRoutes(router: Router): void {
  router.get(
    '/projects/:id/pipelines',
    {
      auth: 'optional',
      paginated: true,
      params: {
        id: p.string().required(),
        scope: p.string().values(['running', 'pending', 'finished', 'branches', 'tags']),
        sha: p.string(),
        ref: p.string(),
        status: p.string().values(STATUSES),
        source: p.string().values(SOURCES),
        username: p.string(),
        updated_after: p.string(),
        updated_before: p.string(),
        order_by: p.string().values(['id', 'status', 'ref', 'updated_at', 'user_id']).default('id'),
        sort: p.string().values(['asc', 'desc']).default('desc'),
      },
    },
    (ctx) => {
      const { scope, sha, ref, status, source, username, order_by: orderBy, sort } = ctx.params;
      // Grape refuses a malformed time before the endpoint looks at the project.
      const finder = { source, username, updatedAfter: timeParam('updated_after', ctx.params.updated_after), updatedBefore: timeParam('updated_before', ctx.params.updated_before) };
      const project = pipelinesProject(ctx, ctx.params.id);
      const rows = inScope(pipelinesOfProject(ctx.state, project), scope).filter(
        (row) => (sha === undefined || row.sha === sha) && (ref === undefined || row.ref === ref) && (status === undefined || row.status === status) && matchesFinder(ctx, row, finder),
      );
      const key = (row: (typeof rows)[number]): string | number => (orderBy === 'status' ? row.status : orderBy === 'ref' ? row.ref : orderBy === 'updated_at' ? row.updatedAt : row.id);
      rows.sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        const order = x < y ? -1 : x > y ? 1 : a.id - b.id;
        return sort === 'asc' ? order : -order;
      });
      return paginate(ctx, rows, (row) => pipelineEntity(ctx, row));
    },
  );

  router.get('/projects/:id/pipelines/:pipeline_id', { auth: 'optional', params: { id: p.string().required(), pipeline_id: p.integer().required() } }, (ctx) => {
    const project = pipelinesProject(ctx, ctx.params.id);
    const row = pipelinesOfProject(ctx.state, project).find((candidate) => candidate.id === ctx.params.pipeline_id);
    if (!row) throw messageError(404, '404 Not found');
    return ok(pipelineDetailEntity(ctx, row));
  });
}

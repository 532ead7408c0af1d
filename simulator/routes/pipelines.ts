// A project's pipelines (lib/api/ci/pipelines.rb): the list with its filters, and one pipeline.
// Reading them is `read_pipeline`: public pipelines of a public or internal project, or Reporter
// and above.
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type Project } from '../data/model.js';
import { pipelineEntity, pipelinesOfProject, type PipelineRow } from '../entities/pipelines.js';
import { forbidden, messageError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleProject } from './lookup.js';

/** Ci::HasStatus::COMPLETED_STATUSES: what `scope=finished` keeps. */
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);

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
      return rows.filter((row) => FINISHED.has(row.status));
    case 'branches':
      return latestPerRef(rows, false);
    case 'tags':
      return latestPerRef(rows, true);
    default:
      return rows;
  }
}

const STATUSES = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled'] as const;

function pipelinesProject(ctx: RequestContext<unknown>, id: string): Project {
  const project = visibleProject(ctx, id);
  const publicPipelines = project.publicJobs && project.visibility !== 'private';
  if (!ctx.user?.isAdmin && !publicPipelines && projectAccessLevel(ctx.state, ctx.user, project) < AccessLevel.REPORTER) throw forbidden();
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
        order_by: p.string().values(['id', 'status', 'ref', 'updated_at', 'user_id']).default('id'),
        sort: p.string().values(['asc', 'desc']).default('desc'),
      },
    },
    (ctx) => {
      const project = pipelinesProject(ctx, ctx.params.id);
      const { scope, sha, ref, status, order_by: orderBy, sort } = ctx.params;
      const rows = inScope(pipelinesOfProject(ctx.state, project), scope).filter(
        (row) => (sha === undefined || row.sha === sha) && (ref === undefined || row.ref === ref) && (status === undefined || row.status === status),
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
    return ok(pipelineEntity(ctx, row));
  });
}

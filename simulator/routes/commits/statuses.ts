// Commit statuses (rest-v4-api.md "Commits"; GitLab's lib/api/commit_statuses.rb and
// Ci::CreateCommitStatusService). A POST finds the commit's newest pipeline for the ref (or makes
// an `external` one) and adds a status there, or updates the caller's own running or pending status
// of that name and ref; a status of that name that finished is kept as `retried` beside the new
// one. States move as GitLab's state machine allows; any other move is refused with its message.
import type { CommitPipeline, CommitStatus, CommitStatusState } from '../../data/commits.js';
import { FIRST_COMMIT_PIPELINE_ID, FIRST_COMMIT_STATUS_ID } from '../../data/seed/commits.js';
import { commitStatusEntity } from '../../entities/commits.js';
import { grapeError, messageError, notFound } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { existingCommit, nextIdIn, readableRepository, requireDeveloper, requireStatusReader } from './access.js';

type Event = 'enqueue' | 'run' | 'success' | 'drop' | 'cancel' | 'skip';

/** The events of CommitStatus's state machine a POST fires, and the states each may leave. */
const TRANSITIONS: Record<Event, { from: readonly CommitStatusState[]; to: CommitStatusState }> = {
  enqueue: { from: ['created', 'skipped'], to: 'pending' },
  run: { from: ['pending'], to: 'running' },
  success: { from: ['created', 'pending', 'running'], to: 'success' },
  drop: { from: ['created', 'pending', 'running'], to: 'failed' },
  cancel: { from: ['created', 'pending', 'running'], to: 'canceled' },
  skip: { from: ['created', 'pending'], to: 'skipped' },
};

/** `apply_job_state!`: which events each requested state fires (`running` first enqueues, quietly). */
const EVENTS: Record<string, Array<{ event: Event; strict: boolean }>> = {
  pending: [{ event: 'enqueue', strict: true }],
  running: [
    { event: 'enqueue', strict: false },
    { event: 'run', strict: true },
  ],
  success: [{ event: 'success', strict: true }],
  failed: [{ event: 'drop', strict: true }],
  canceled: [{ event: 'cancel', strict: true }],
  skipped: [{ event: 'skip', strict: true }],
};

function applyState(status: CommitStatus, state: string, now: string): void {
  for (const { event, strict } of EVENTS[state] ?? []) {
    const transition = TRANSITIONS[event];
    if (!transition.from.includes(status.status)) {
      if (!strict) continue;
      throw messageError(400, `Cannot transition status via :${event} from :${status.status} (Reason(s): Status cannot transition via "${event}")`);
    }
    status.status = transition.to;
    if (transition.to === 'running') status.startedAt ??= now;
    if (['success', 'failed', 'canceled', 'skipped'].includes(transition.to)) status.finishedAt = now;
  }
}

function pipelinesOf(ctx: RequestContext<unknown>, projectId: number, sha: string): CommitPipeline[] {
  return [...ctx.state.commitPipelines.values()].filter((pipeline) => pipeline.projectId === projectId && pipeline.sha === sha).sort((a, b) => b.id - a.id);
}

function coverageOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const coverage = Number(value);
  if (value.trim() === '' || !Number.isFinite(coverage)) throw grapeError(400, 'coverage is invalid');
  return coverage;
}

export function registerCommitStatusRoutes(router: Router): void {
  router.get(
    '/projects/:id/repository/commits/:sha/statuses',
    {
      auth: 'required',
      paginated: true,
      params: {
        id: p.string().required(),
        sha: p.string().required(),
        ref: p.string(),
        stage: p.string(),
        name: p.string(),
        pipeline_id: p.integer(),
        all: p.boolean().default(false),
        order_by: p.string().values(['id', 'pipeline_id']).default('id'),
        sort: p.string().values(['asc', 'desc']).default('asc'),
      },
    },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      requireStatusReader(ctx, project);
      existingCommit(repository, ctx.params.sha);
      // As GitLab does, pipelines are matched on the `sha` parameter itself: give a full SHA.
      const pipelines = new Set(pipelinesOf(ctx, project.id, ctx.params.sha).filter((pipeline) => ctx.params.pipeline_id === undefined || pipeline.id === ctx.params.pipeline_id).map((pipeline) => pipeline.id));
      const key = ctx.params.order_by === 'pipeline_id' ? (status: CommitStatus) => status.pipelineId : (status: CommitStatus) => status.id;
      const direction = ctx.params.sort === 'desc' ? -1 : 1;
      const statuses = [...ctx.state.commitStatuses.values()]
        .filter((status) => pipelines.has(status.pipelineId))
        .filter((status) => ctx.params.all || !status.retried)
        .filter((status) => !ctx.params.ref || status.ref === ctx.params.ref)
        .filter((status) => !ctx.params.stage || status.stage === ctx.params.stage)
        .filter((status) => !ctx.params.name || status.name === ctx.params.name)
        .sort((a, b) => direction * (key(a) - key(b) || a.id - b.id));
      return paginate(ctx, statuses, (status) => commitStatusEntity(ctx, status));
    },
  );

  router.post(
    '/projects/:id/statuses/:sha',
    {
      auth: 'required',
      params: {
        id: p.string().required(),
        sha: p.string().required(),
        state: p.string().values(['pending', 'running', 'success', 'failed', 'canceled', 'skipped']).required(),
        ref: p.string(),
        target_url: p.string(),
        description: p.string(),
        name: p.string(),
        context: p.string(),
        coverage: p.string(),
        pipeline_id: p.integer(),
      },
    },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      requireDeveloper(ctx, project);
      const commit = repository.resolve(ctx.params.sha);
      if (!commit) throw notFound('Commit');
      const coverage = coverageOf(ctx.params.coverage);
      const candidates = pipelinesOf(ctx, project.id, commit.sha)
        .filter((pipeline) => !ctx.params.ref || pipeline.ref === ctx.params.ref)
        .filter((pipeline) => ctx.params.pipeline_id === undefined || pipeline.id === ctx.params.pipeline_id);
      const matching = candidates[0];
      const ref = ctx.params.ref ?? matching?.ref ?? repository.branchesContaining(commit.sha)[0];
      if (!ref) throw notFound('References for commit');
      if (ctx.params.pipeline_id !== undefined && !matching) throw notFound('Pipeline for pipeline_id, sha and ref');
      const now = ctx.state.now.toISOString();
      const user = ctx.user!;
      let pipeline = matching;
      if (!pipeline) {
        const iid = Math.max(0, ...[...ctx.state.commitPipelines.values()].filter((other) => other.projectId === project.id).map((other) => other.iid)) + 1;
        pipeline = { id: nextIdIn(ctx.state.commitPipelines, FIRST_COMMIT_PIPELINE_ID), iid, projectId: project.id, sha: commit.sha, ref, tag: repository.tags.has(ref), source: 'external', userId: user.id, createdAt: now, updatedAt: now };
        ctx.state.commitPipelines.set(pipeline.id, pipeline);
      }
      const name = ctx.params.name ?? ctx.params.context ?? 'default';
      const inPipeline = [...ctx.state.commitStatuses.values()].filter((status) => status.pipelineId === pipeline.id && status.name === name);
      const existing = inPipeline.find(
        (status) => status.external && (status.status === 'running' || status.status === 'pending') && status.ref === ref && status.authorId === user.id,
      );
      const status: CommitStatus = existing
        ? { ...existing }
        : {
            id: nextIdIn(ctx.state.commitStatuses, FIRST_COMMIT_STATUS_ID),
            projectId: project.id,
            pipelineId: pipeline.id,
            sha: commit.sha,
            ref,
            name,
            stage: 'external',
            status: 'created',
            targetUrl: null,
            description: null,
            coverage: null,
            allowFailure: false,
            createdAt: now,
            startedAt: null,
            finishedAt: null,
            authorId: user.id,
            retried: false,
            external: true,
          };
      if (ctx.params.target_url !== undefined) status.targetUrl = ctx.params.target_url;
      if (ctx.params.description !== undefined) status.description = ctx.params.description;
      if (coverage !== undefined) status.coverage = coverage;
      // A refused move changes nothing: the copy is only stored once the state applied.
      applyState(status, ctx.params.state, now);
      if (!existing) for (const older of inPipeline) older.retried = true;
      ctx.state.commitStatuses.set(status.id, status);
      pipeline.updatedAt = now;
      return created(commitStatusEntity(ctx, status));
    },
  );
}

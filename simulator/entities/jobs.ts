// Jobs as lib/api/ci presents them: Entities::Ci::JobBasic (its user, the whole Entities::Commit,
// the pipeline as Entities::Ci::PipelineBasic, and `project` with only its job token setting),
// which GET /runners/:id/jobs extends with the project's identity (JobBasicWithProject) and the
// project job reads with artifacts and runner (Entities::Ci::Job, entities/artifacts.ts).
import type { Job, Project } from '../data/model.js';
import { commitRecordEntity } from './commits.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';
import { pipelineEntity, pipelineOfJob } from './pipelines.js';
import { projectIdentity } from './projects.js';
import { userPublic } from './users.js';

/** The project a job ran in; every job belongs to one, and projects are never deleted. */
function projectOf(ctx: PresentContext, job: Job): Project {
  const project = ctx.state.projects.get(job.projectId);
  if (!project) throw new Error(`job ${job.id} has no project`);
  return project;
}

/** Entities::Ci::JobBasic. */
export function jobBasic(ctx: PresentContext, job: Job) {
  const user = ctx.state.users.get(job.userId);
  const project = projectOf(ctx, job);
  const pipeline = pipelineOfJob(ctx.state, job);
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: job.tag,
    coverage: job.coverage,
    allow_failure: false,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    erased_at: null,
    duration: job.duration,
    queued_duration: job.queuedDuration,
    user: user ? userPublic(ctx, user) : null,
    commit: commitRecordEntity(ctx, project, job.commit),
    pipeline: pipeline ? pipelineEntity(ctx, pipeline) : null,
    ...(job.status === 'failed' ? { failure_reason: job.failureReason ?? 'script_failure' } : {}),
    web_url: `${ctx.origin}/${ctx.state.projectFullPath(project)}/-/jobs/${job.id}`,
    // Project#ci_outbound_job_token_scope_enabled?: off unless the project turned it on.
    project: { ci_job_token_scope_enabled: project.ciJobTokenScopeEnabled ?? false },
  };
}

/** A job as listed by GET /runners/:id/jobs (Entities::Ci::JobBasicWithProject). */
export function runnerJob(ctx: PresentContext, job: Job) {
  return extend(jobBasic(ctx, job), { project: projectIdentity(ctx, projectOf(ctx, job)) });
}

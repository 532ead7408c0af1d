// A job as listed by GET /runners/:id/jobs (fixtures/runners/list-runner-jobs.json).
import type { Job } from '../data/model.js';
import type { PresentContext } from './context.js';
import { projectOfJob } from './projects.js';
import { userPublic } from './users.js';

export function runnerJob(ctx: PresentContext, job: Job) {
  const user = ctx.state.users.get(job.userId);
  const project = ctx.state.projects.get(job.projectId);
  const c = job.commit;
  return {
    id: job.id,
    ip_address: '',
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: job.tag,
    coverage: job.coverage,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    duration: job.duration,
    queued_duration: job.queuedDuration,
    user: user ? userPublic(ctx, user) : null,
    commit: {
      id: c.id,
      short_id: c.shortId,
      title: c.title,
      created_at: c.createdAt,
      parent_ids: c.parentIds,
      message: c.message,
      author_name: c.authorName,
      author_email: c.authorEmail,
      authored_date: c.authoredDate,
      committer_name: c.committerName,
      committer_email: c.committerEmail,
      committed_date: c.committedDate,
    },
    pipeline: { ...job.pipeline },
    project: project ? projectOfJob(ctx, project) : null,
  };
}

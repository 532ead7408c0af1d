// Pipelines as GET /projects/:id/pipelines lists them (Entities::Ci::PipelineBasic). The demo data
// keeps a pipeline only inside its jobs (`id`, `sha`, `ref`, `status`), so a project's pipelines are
// gathered from its jobs: created with its first job, updated with its last, and numbered within
// the project (`iid`) in the order they were created.
import type { Job, Project } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import type { PresentContext } from './context.js';

export interface PipelineRow {
  id: number;
  iid: number;
  projectId: number;
  sha: string;
  ref: string;
  status: string;
  /** Whether the pipeline ran for a tag (its jobs' `tag`). */
  tag: boolean;
  createdAt: string;
  updatedAt: string;
}

function latest(job: Job): string {
  return job.finishedAt ?? job.startedAt ?? job.createdAt;
}

/** The project's pipelines, by ascending id. */
export function pipelinesOfProject(state: SimulatorState, project: Project): PipelineRow[] {
  const byId = new Map<number, PipelineRow>();
  for (const job of state.jobs.values()) {
    if (job.projectId !== project.id) continue;
    const known = byId.get(job.pipeline.id);
    if (!known) {
      const { id, sha, ref, status } = job.pipeline;
      byId.set(id, { id, iid: 0, projectId: project.id, sha, ref, status, tag: job.tag, createdAt: job.createdAt, updatedAt: latest(job) });
      continue;
    }
    if (job.createdAt < known.createdAt) known.createdAt = job.createdAt;
    if (latest(job) > known.updatedAt) known.updatedAt = latest(job);
  }
  const rows = [...byId.values()].sort((a, b) => a.id - b.id);
  rows.forEach((row, index) => (row.iid = index + 1));
  return rows;
}

export function pipelineEntity(ctx: PresentContext, row: PipelineRow) {
  const project = ctx.state.projects.get(row.projectId);
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.projectId,
    sha: row.sha,
    ref: row.ref,
    status: row.status,
    source: 'push',
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    web_url: project ? `${ctx.origin}/${ctx.state.projectFullPath(project)}/-/pipelines/${row.id}` : null,
  };
}

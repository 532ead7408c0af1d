// Job artifacts (rest-v4-api.md "Job artifacts"; GitLab's lib/api/job_artifacts.rb). Downloads
// answer the archive or one file of it as bytes; they also take a CI job token (`JOB-TOKEN` header
// or `job_token` query), which acts as the job's user within the job's own project (the default
// job token scope). Keeping needs Developer or higher (`update_build`), deleting Maintainer or
// higher (rest-v4-api.md "Roles").
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type Job, type JobArtifacts, type Project } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { artifactsArchive, jobEntity } from '../entities/artifacts.js';
import { authenticate, sudoFromRequest, tokenFromRequest } from '../http/auth.js';
import { badRequest, forbidden, messageError, notFound, unauthorized } from '../http/errors.js';
import { p } from '../http/params.js';
import { noContent, ok, type ApiResponse } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleProject } from './lookup.js';

type Caller = RequestContext<unknown> & {
  /** Set for a job token: the only project the token may reach. */
  jobTokenProjectId?: number;
};

function header(ctx: RequestContext<unknown>, name: string): string | undefined {
  const value = ctx.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * `route_setting :authentication, job_token_allowed: true`: a job token of a running job, or the
 * usual user credentials. An unknown or finished job's token is a 401, like any bad token.
 */
export function downloadCaller(ctx: RequestContext<unknown>): Caller {
  const jobToken = header(ctx, 'job-token') || new URLSearchParams(ctx.rawQuery).get('job_token');
  if (jobToken) {
    const job = ctx.state.jobs.get(ctx.state.jobTokens.get(jobToken) ?? -1);
    if (!job || job.status !== 'running') throw unauthorized();
    return { ...ctx, user: ctx.state.users.get(job.userId) ?? null, token: null, jobTokenProjectId: job.projectId };
  }
  const credentials = authenticate(
    ctx.state,
    tokenFromRequest(ctx.headers, ctx.rawQuery),
    ctx.method,
    sudoFromRequest(ctx.headers, ctx.rawQuery),
  );
  return { ...ctx, user: credentials.user, token: credentials.token };
}

/** `authorize_read_builds!`: public jobs of a public or internal project, or Reporter and above. */
export function buildsProject(caller: Caller, id: string): Project {
  const project = visibleProject(caller, id);
  if (caller.jobTokenProjectId !== undefined && caller.jobTokenProjectId !== project.id) throw notFound('Project');
  const { state, user } = caller;
  const publicJobs = project.publicJobs && project.visibility !== 'private';
  if (!user?.isAdmin && !publicJobs && projectAccessLevel(state, user, project) < AccessLevel.REPORTER) throw forbidden();
  return project;
}

/** A project the caller may change jobs of: `update_build` (Developer) or `destroy_artifacts` (Maintainer). */
function managedProject(ctx: RequestContext<unknown>, id: string, level: number): Project {
  const project = visibleProject(ctx, id);
  if (!ctx.user?.isAdmin && projectAccessLevel(ctx.state, ctx.user, project) < level) throw forbidden();
  return project;
}

/** `user_project.builds.find(id)`: ActiveRecord's 404 body. */
function projectJob(state: SimulatorState, project: Project, jobId: number): Job {
  const job = state.jobs.get(jobId);
  if (!job || job.projectId !== project.id) throw messageError(404, '404 Not found');
  return job;
}

/** Artifacts that can still be downloaded: present, and not expired unless kept. */
function availableArtifacts(state: SimulatorState, job: Job): JobArtifacts | undefined {
  const artifacts = state.jobArtifacts.get(job.id);
  if (!artifacts) return undefined;
  const expired = !artifacts.locked && artifacts.expireAt !== null && artifacts.expireAt <= state.now.toISOString();
  return expired ? undefined : artifacts;
}

/** The pipeline and its child pipelines, parents first (`self_and_project_descendants`). */
function selfAndDescendants(state: SimulatorState, pipelineId: number): number[] {
  const ids = [pipelineId];
  for (let i = 0; i < ids.length; i++) {
    for (const [child, parent] of state.pipelineParents) if (parent === ids[i]) ids.push(child);
  }
  return ids;
}

/**
 * `latest_successful_build_for_ref!`: in the newest successful pipeline of the ref, the job of
 * that name with downloadable artifacts, searched from the parent pipeline to its children so that
 * a parent's job wins over a child's of the same name.
 */
function latestSuccessfulJobForRef(
  state: SimulatorState,
  project: Project,
  ref: string,
  name: string,
): { job: Job; artifacts: JobArtifacts } {
  const jobs = [...state.jobs.values()].filter((job) => job.projectId === project.id);
  const latest = Math.max(
    -1,
    ...jobs
      .filter((job) => job.pipeline.ref === ref && job.pipeline.status === 'success' && !state.pipelineParents.has(job.pipeline.id))
      .map((job) => job.pipeline.id),
  );
  for (const pipelineId of selfAndDescendants(state, latest)) {
    const candidates = jobs
      .filter((job) => job.pipeline.id === pipelineId && job.name === name && job.status === 'success')
      .sort((a, b) => b.id - a.id);
    for (const job of candidates) {
      const artifacts = availableArtifacts(state, job);
      if (artifacts) return { job, artifacts };
    }
  }
  throw messageError(404, '404 Not found');
}

/** `attachment; filename="..."` with an RFC 6266 `filename*` for names that are not plain ASCII. */
function attachment(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const CONTENT_TYPES: ReadonlyArray<[RegExp, string]> = [
  [/\.(txt|log|md)$/i, 'text/plain; charset=utf-8'],
  [/\.html?$/i, 'text/html; charset=utf-8'],
  [/\.json$/i, 'application/json'],
  [/\.xml$/i, 'application/xml'],
  [/\.zip$/i, 'application/zip'],
];

function archiveResponse(job: Job, artifacts: JobArtifacts): ApiResponse {
  return {
    status: 200,
    bytes: artifactsArchive(job, artifacts),
    headers: { 'Content-Type': 'application/zip', 'Content-Disposition': attachment('artifacts.zip') },
  };
}

/**
 * Gitlab::Ci::Build::Artifacts::Path#valid? (no NUL byte, valid UTF-8) answers 400 otherwise; so do
 * `..` segments, which GitLab's path traversal check refuses. A path that is not in the archive
 * is a 404, as Workhorse answers.
 */
function entryResponse(artifacts: JobArtifacts, path: string): ApiResponse {
  if (path.includes('\0') || path.split('/').includes('..')) throw badRequest();
  const file = artifacts.files.find((candidate) => candidate.path === path);
  if (!file) throw notFound();
  const name = path.split('/').pop() ?? path;
  const type = CONTENT_TYPES.find(([pattern]) => pattern.test(name))?.[1] ?? 'application/octet-stream';
  return { status: 200, bytes: file.bytes, headers: { 'Content-Type': type, 'Content-Disposition': attachment(name) } };
}

export function registerArtifactRoutes(router: Router): void {
  // Registered before the `:job_id` routes only for readability: the router prefers literal segments.
  router.get(
    '/projects/:id/jobs/artifacts/:ref_name/download',
    { auth: 'none', params: { id: p.string().required(), ref_name: p.string().required(), job: p.string().required() } },
    (ctx) => {
      const project = buildsProject(downloadCaller(ctx), ctx.params.id);
      const { job, artifacts } = latestSuccessfulJobForRef(ctx.state, project, ctx.params.ref_name, ctx.params.job);
      return archiveResponse(job, artifacts);
    },
  );

  router.get(
    '/projects/:id/jobs/artifacts/:ref_name/raw/*artifact_path',
    {
      auth: 'none',
      params: {
        id: p.string().required(),
        ref_name: p.string().required(),
        job: p.string().required(),
        artifact_path: p.string().required(),
      },
    },
    (ctx) => {
      const project = buildsProject(downloadCaller(ctx), ctx.params.id);
      const { artifacts } = latestSuccessfulJobForRef(ctx.state, project, ctx.params.ref_name, ctx.params.job);
      return entryResponse(artifacts, ctx.params.artifact_path);
    },
  );

  router.get(
    '/projects/:id/jobs/:job_id/artifacts',
    { auth: 'none', params: { id: p.string().required(), job_id: p.integer().required() } },
    (ctx) => {
      const project = buildsProject(downloadCaller(ctx), ctx.params.id);
      const job = projectJob(ctx.state, project, ctx.params.job_id);
      const artifacts = availableArtifacts(ctx.state, job);
      if (!artifacts) throw notFound();
      return archiveResponse(job, artifacts);
    },
  );

  router.get(
    '/projects/:id/jobs/:job_id/artifacts/*artifact_path',
    { auth: 'none', params: { id: p.string().required(), job_id: p.integer().required(), artifact_path: p.string().required() } },
    (ctx) => {
      const project = buildsProject(downloadCaller(ctx), ctx.params.id);
      const job = projectJob(ctx.state, project, ctx.params.job_id);
      const artifacts = availableArtifacts(ctx.state, job);
      if (!artifacts) throw notFound();
      return entryResponse(artifacts, ctx.params.artifact_path);
    },
  );

  // A job's record (lib/api/ci/jobs.rb `GET :id/jobs/:job_id`): the same reading rights as its artifacts.
  router.get('/projects/:id/jobs/:job_id', { auth: 'none', params: { id: p.string().required(), job_id: p.integer().required() } }, (ctx) => {
    const caller = downloadCaller(ctx);
    const project = buildsProject(caller, ctx.params.id);
    return ok(jobEntity(caller, projectJob(ctx.state, project, ctx.params.job_id)));
  });

  router.post(
    '/projects/:id/jobs/:job_id/artifacts/keep',
    { auth: 'required', params: { id: p.string().required(), job_id: p.integer().required() } },
    (ctx) => {
      const project = managedProject(ctx, ctx.params.id, AccessLevel.DEVELOPER);
      const job = projectJob(ctx.state, project, ctx.params.job_id);
      const artifacts = availableArtifacts(ctx.state, job);
      if (!artifacts) throw notFound();
      // Ci::Build#keep_artifacts!: no expiry any more.
      artifacts.locked = true;
      artifacts.expireAt = null;
      return ok(jobEntity(ctx, job));
    },
  );

  router.delete(
    '/projects/:id/jobs/:job_id/artifacts',
    { auth: 'required', params: { id: p.string().required(), job_id: p.integer().required() } },
    (ctx) => {
      const project = managedProject(ctx, ctx.params.id, AccessLevel.MAINTAINER);
      const job = projectJob(ctx.state, project, ctx.params.job_id);
      ctx.state.jobArtifacts.delete(job.id);
      return noContent();
    },
  );
}

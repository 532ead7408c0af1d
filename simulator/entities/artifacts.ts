// Job artifacts: the job record `POST .../artifacts/keep` answers (fixtures/job_artifacts/
// keep-job-artifacts.json, plus the fields GitLab's Entities::Ci::Job adds), and the archive as
// the real ZIP file GitLab Runner would have uploaded.
import type { Job, JobArtifacts, Runner } from '../data/model.js';
import { zipArchive } from '../data/zip.js';
import type { PresentContext } from './context.js';
import { runnerSummary } from './runners.js';
import { userPublic } from './users.js';

/** Archives are built once per set of files; tests that replace `files` get a new archive. */
const archives = new WeakMap<JobArtifacts['files'], Buffer>();

export function artifactsArchive(job: Job, artifacts: JobArtifacts): Buffer {
  let archive = archives.get(artifacts.files);
  if (!archive) {
    archive = zipArchive(artifacts.files, new Date(job.finishedAt ?? job.createdAt));
    archives.set(artifacts.files, archive);
  }
  return archive;
}

/** `artifacts` of a job: the archive and its metadata file, as GitLab lists them. */
function artifactFiles(job: Job, artifacts: JobArtifacts | undefined) {
  if (!artifacts) return [];
  const archive = artifactsArchive(job, artifacts);
  // The metadata (a gzipped index of the archive) is about 1/8 of the archive's size for small ones.
  const metadataSize = 64 + Math.ceil(artifacts.files.reduce((sum, file) => sum + file.path.length + 32, 0) / 2);
  return [
    { file_type: 'archive', size: archive.length, filename: 'artifacts.zip', file_format: 'zip' },
    { file_type: 'metadata', size: metadataSize, filename: 'metadata.gz', file_format: 'gzip' },
  ];
}

/**
 * The tags a job asked for. The seed gives jobs none of their own, so a job carries the first tag of
 * the runner that ran it when that runner takes only tagged jobs (it could not have taken the job
 * otherwise), and none when the runner also runs untagged jobs.
 */
function jobTags(runner: Runner | undefined): string[] {
  if (!runner || runner.runUntagged) return [];
  return runner.tagList.slice(0, 1);
}

export function jobEntity(ctx: PresentContext, job: Job) {
  const { state, origin } = ctx;
  const project = state.projects.get(job.projectId);
  const runner = state.runners.get(job.runnerId);
  const user = state.users.get(job.userId);
  const artifacts = state.jobArtifacts.get(job.id);
  const c = job.commit;
  return {
    commit: {
      author_email: c.authorEmail,
      author_name: c.authorName,
      created_at: c.createdAt,
      id: c.id,
      message: c.message,
      short_id: c.shortId,
      title: c.title,
    },
    coverage: job.coverage,
    allow_failure: false,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    erased_at: null,
    duration: job.duration,
    queued_duration: job.queuedDuration,
    artifacts_file: artifacts ? { filename: 'artifacts.zip', size: artifactsArchive(job, artifacts).length } : null,
    artifacts: artifactFiles(job, artifacts),
    artifacts_expire_at: artifacts?.expireAt ?? null,
    id: job.id,
    name: job.name,
    pipeline: { id: job.pipeline.id, project_id: job.projectId, ref: job.pipeline.ref, sha: job.pipeline.sha, status: job.pipeline.status },
    ref: job.ref,
    runner: runner ? runnerSummary(ctx, runner) : null,
    stage: job.stage,
    status: job.status,
    ...(job.status === 'failed' ? { failure_reason: job.failureReason ?? 'script_failure' } : {}),
    tag: job.tag,
    web_url: project ? `${origin}/${state.projectFullPath(project)}/-/jobs/${job.id}` : null,
    user: user ? userPublic(ctx, user) : null,
    archived: false,
    tag_list: jobTags(runner),
  };
}

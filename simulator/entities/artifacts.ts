// Job artifacts: the job record `POST .../artifacts/keep` answers (GitLab's Entities::Ci::Job,
// of which fixtures/job_artifacts/keep-job-artifacts.json shows a part), and the archive as the
// real ZIP file GitLab Runner would have uploaded.
import type { Job, JobArtifacts, Runner } from '../data/model.js';
import { zipArchive } from '../data/zip.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';
import { jobBasic } from './jobs.js';
import { runnerSummary } from './runners.js';

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

/** Entities::Ci::Job: a project's job (`GET /projects/:id/jobs/:job_id`, the lists, the keep answer). */
export function jobEntity(ctx: PresentContext, job: Job) {
  const runner = ctx.state.runners.get(job.runnerId);
  const artifacts = ctx.state.jobArtifacts.get(job.id);
  return extend(jobBasic(ctx, job), {
    artifacts_file: artifacts ? { filename: 'artifacts.zip', size: artifactsArchive(job, artifacts).length } : null,
    artifacts: artifactFiles(job, artifacts),
    runner: runner ? runnerSummary(ctx, runner) : null,
    artifacts_expire_at: artifacts?.expireAt ?? null,
    archived: false,
    tag_list: jobTags(runner),
  });
}

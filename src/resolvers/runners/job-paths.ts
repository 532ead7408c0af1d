// The paths of a job's pages, as GitLab's routes build them under the project's path
// (`/<namespace>/<project>/-/jobs/<id>`). REST gives the project's path in the runner job list's
// embedded `project`, or the job's whole page URL in `web_url` (the job record of
// `GET /projects/:id/jobs/:job_id` and the keep answer), which also keeps a relative URL root.
import type { RunnerJobSchema } from '../../datasources/runners.js';
import { pathOfWebUrl } from '../web-path.js';

/** A job record with the page URL the full job record carries. */
export type JobRecord = RunnerJobSchema & { web_url?: string | null };

/** `/<namespace>/<project>` of the job's project, or null when the record names none. */
export function projectPathOfJob(job: JobRecord): string | null {
  const jobPage = pathOfWebUrl(job.web_url);
  const suffix = `/-/jobs/${job.id}`;
  if (jobPage?.endsWith(suffix)) return jobPage.slice(0, -suffix.length);
  const fullPath = job.project?.path_with_namespace;
  return fullPath ? `/${fullPath}` : null;
}

/** A path under the job's project, or null when the project is unknown. */
function underProject(job: JobRecord, rest: string): string | null {
  const project = projectPathOfJob(job);
  return project === null ? null : `${project}/-/${rest}`;
}

export const jobPath = (job: JobRecord) => underProject(job, `jobs/${job.id}`);
export const browseArtifactsPath = (job: JobRecord) => underProject(job, `jobs/${job.id}/artifacts/browse`);
export const pipelinePath = (job: JobRecord, pipelineId: number) => underProject(job, `pipelines/${pipelineId}`);

/** The SHA the job ran on: its pipeline's, or its commit's (the keep answer has no pipeline SHA). */
export function shaOfJob(job: JobRecord): string | null {
  return job.pipeline?.sha ?? job.commit?.id ?? null;
}

export function commitPath(job: JobRecord): string | null {
  const sha = shaOfJob(job);
  return sha === null ? null : underProject(job, `commit/${sha}`);
}

/** GitLab's `project_commits_path(project, ref)`: the ref's slashes stay, other characters are escaped. */
export function refPath(job: JobRecord): string | null {
  if (!job.ref) return null;
  return underProject(job, `commits/${job.ref.split('/').map(encodeURIComponent).join('/')}`);
}

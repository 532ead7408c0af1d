import { encodePathSegment, restPath } from './path.js';
import type { RestSession, RestStream } from './rest-client.js';
import type { RunnerJobSchema, RunnerSchema } from './runners.js';

/** Which job's artifacts: a job by id, or the latest successful job of a name on a branch or tag. */
export type ArtifactsJob = { kind: 'id'; jobId: number } | { kind: 'ref'; refName: string; jobName: string };

/** A project (id or full path) and one of its jobs: where an artifacts archive is. */
export interface ArtifactsLocation {
  project: number | string;
  job: ArtifactsJob;
}

/** One entry of a job's `artifacts` list (the archive, its metadata, reports). */
export interface JobArtifactFileSchema {
  file_type?: string;
  size?: number;
  filename?: string;
  file_format?: string | null;
}

/** The job record `POST .../artifacts/keep` answers (rest-v4-api.md "Job (artifacts keep response)"). */
export interface JobSchema extends RunnerJobSchema {
  allow_failure?: boolean;
  failure_reason?: string;
  web_url?: string;
  artifacts_expire_at?: string | null;
  /** When the job's log and artifacts were erased (Entities::Ci::JobBasic), null when they were not. */
  erased_at?: string | null;
  /** Ci::Build#archived? (Entities::Ci::Job): too old to run again, by the instance's archive setting. */
  archived?: boolean;
  artifacts?: JobArtifactFileSchema[];
  runner?: RunnerSchema | null;
  tag_list?: string[];
}

/** A job of a project: the key of `GET /projects/:id/jobs/:job_id`. */
export interface JobKey {
  project: number | string;
  jobId: number;
}

/** An artifact path that cannot name a file inside an archive, refused before any REST call. */
export class InvalidArtifactPath extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArtifactPath';
  }
}

/**
 * The segments of a path inside an archive (`docs/guide/index.html`). Empty, `.` and `..`
 * segments and NUL bytes are refused: no archive entry is named so, and they are how a path
 * would try to climb out of `.../artifacts/` into another REST route.
 */
export function artifactPathSegments(path: string): string[] {
  if (path.includes('\0')) throw new InvalidArtifactPath('An artifact path cannot contain a NUL byte.');
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '')
      throw new InvalidArtifactPath(
        `"${path}" has an empty segment: give a file's path inside the archive, such as \`docs/index.html\`, without a leading, trailing or double \`/\`.`,
      );
    if (segment === '.' || segment === '..')
      throw new InvalidArtifactPath(`"${path}" has a \`${segment}\` segment; artifact paths cannot climb out of the archive.`);
  }
  return segments;
}

/**
 * A path inside an archive as URL path segments, each encoded on its own (restPath would make the
 * whole path one segment, `/` included, and REST's `*artifact_path` wants the slashes).
 */
export function encodeArtifactPath(path: string): string {
  return artifactPathSegments(path).map(encodePathSegment).join('/');
}

/** The REST path and query of an archive, or of one file in it when `artifactPath` is given. */
export function artifactsRestTarget(location: ArtifactsLocation, artifactPath?: string): { path: string; query?: { job: string } } {
  const { project, job } = location;
  if (job.kind === 'id') {
    const base = restPath`/projects/${project}/jobs/${job.jobId}/artifacts`;
    return { path: artifactPath === undefined ? base : `${base}/${encodeArtifactPath(artifactPath)}` };
  }
  const query = { job: job.jobName };
  return artifactPath === undefined
    ? { path: restPath`/projects/${project}/jobs/artifacts/${job.refName}/download`, query }
    : { path: `${restPath`/projects/${project}/jobs/artifacts/${job.refName}/raw`}/${encodeArtifactPath(artifactPath)}`, query };
}

/** REST job artifacts (rest-v4-api.md "Job artifacts"). Downloads are streams, never JSON. */
export class ArtifactsApi {
  constructor(private readonly rest: RestSession) {}

  /** The archive (or one file of it) as REST sends it; the caller reads or destroys the body. */
  download(location: ArtifactsLocation, artifactPath?: string, method: 'GET' | 'HEAD' = 'GET'): Promise<RestStream> {
    const target = artifactsRestTarget(location, artifactPath);
    return this.rest.stream(target.path, target.query, method);
  }

  /** A job's record, with its tags and artifact files (`GET /projects/:id/jobs/:job_id`). */
  job(project: number | string, jobId: number): Promise<JobSchema> {
    return this.rest.get<JobSchema>(restPath`/projects/${project}/jobs/${jobId}`);
  }

  /** Keeps the artifacts past their expiry; REST answers the job. */
  async keep(project: number | string, jobId: number): Promise<JobSchema> {
    return (await this.rest.post<JobSchema>(restPath`/projects/${project}/jobs/${jobId}/artifacts/keep`)).body;
  }

  /** Deletes a job's artifacts (Maintainer or higher). */
  remove(project: number | string, jobId: number): Promise<void> {
    return this.rest.delete(restPath`/projects/${project}/jobs/${jobId}/artifacts`);
  }
}

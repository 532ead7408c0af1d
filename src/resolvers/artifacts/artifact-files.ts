// A job's artifact files as GitLab's `CiJobArtifact`. REST lists them with the job (`artifacts`)
// without any id, so the gateway names each by what REST's deletion needs: the project, the job
// and the file type (`gid://gitlab/Ci::JobArtifact/<project>p<job>j<type>`, the type as its place
// in JOB_ARTIFACT_FILE_TYPES). The ID scalar admits letters and digits only, hence the letters.
import type { JobArtifactFileSchema, JobSchema } from '../../datasources/artifacts.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { JOB_ARTIFACT_FILE_TYPES, type ArtifactRecord, type JobArtifactFileType } from '../../records/artifacts.js';
import { parseGlobalId } from '../global-id.js';
import { projectPathOfJob } from '../runners/job-paths.js';

/** Where an artifact file is: what its ID holds. */
export interface ArtifactKey {
  projectId: number;
  jobId: number;
  fileType: JobArtifactFileType;
}

const ARTIFACT_ID = /^(\d{1,15})p(\d{1,15})j(\d{1,2})$/;

export function artifactGlobalId(key: ArtifactKey): string {
  return `gid://gitlab/Ci::JobArtifact/${key.projectId}p${key.jobId}j${JOB_ARTIFACT_FILE_TYPES.indexOf(key.fileType)}`;
}

/** The project, job and file type an artifact ID names; anything else is refused before any REST call. */
export function parseArtifactId(value: string, argumentName: string): ArtifactKey {
  const { className } = parseGlobalIdLoosely(value, argumentName);
  const match = ARTIFACT_ID.exec(value.slice(value.lastIndexOf('/') + 1));
  const fileType = match ? JOB_ARTIFACT_FILE_TYPES[Number(match[3])] : undefined;
  if (className !== 'Ci::JobArtifact' || !match || !fileType) {
    throw badUserInput(`\`${argumentName}\` must be a CiJobArtifact ID as CiJobArtifact.id gives it; got "${value.slice(0, 100)}".`, argumentName);
  }
  return { projectId: Number(match[1]), jobId: Number(match[2]), fileType };
}

/** The class of a global ID whose id part is not a number (parseGlobalId wants one). */
function parseGlobalIdLoosely(value: string, argumentName: string): { className: string } {
  const numeric = value.replace(/\/[0-9A-Za-z]+$/, '/0');
  return parseGlobalId(numeric, argumentName);
}

function knownFileType(fileType: string | undefined): JobArtifactFileType | null {
  return (JOB_ARTIFACT_FILE_TYPES as readonly string[]).includes(fileType ?? '') ? (fileType as JobArtifactFileType) : null;
}

/** The project a job record belongs to: its embedded project, or its pipeline's `project_id`. */
export function projectIdOfJob(job: JobSchema): number | null {
  return job.project?.id ?? job.pipeline?.project_id ?? null;
}

/** The job's files as GitLab's records; a file is only named when its project and type are known. */
export function artifactRecords(job: JobSchema): ArtifactRecord[] {
  const projectId = projectIdOfJob(job);
  const projectPath = projectPathOfJob(job);
  return (job.artifacts ?? []).map((file: JobArtifactFileSchema) => {
    const fileType = knownFileType(file.file_type);
    return {
      id: projectId !== null && fileType !== null ? artifactGlobalId({ projectId, jobId: job.id, fileType }) : null,
      name: file.filename ?? null,
      file_type: fileType,
      size: file.size ?? 0,
      expire_at: job.artifacts_expire_at ?? null,
      // GitLab's download_project_job_artifacts_path(project, job, file_type:).
      download_path: projectPath === null || !file.file_type ? null : `${projectPath}/-/jobs/${job.id}/artifacts/download?file_type=${encodeURIComponent(file.file_type)}`,
      file_format: file.file_format ?? null,
    };
  });
}

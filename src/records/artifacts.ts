// The record GraphQL's CiJobArtifact resolves from (codegen.ts maps the type to it) and the file
// types it names. The generated resolver types import this module, so it imports nothing that
// imports them.

/** GitLab's JobArtifactFileType values as REST's `file_type` spells them; their order makes the IDs. */
export const JOB_ARTIFACT_FILE_TYPES = [
  'accessibility', 'api_fuzzing', 'archive', 'browser_performance', 'cluster_applications', 'cluster_image_scanning',
  'cobertura', 'codequality', 'container_scanning', 'coverage_fuzzing', 'cyclonedx', 'dast', 'dependency_scanning',
  'dotenv', 'junit', 'license_scanning', 'load_performance', 'lsif', 'metadata', 'metrics', 'metrics_referee',
  'network_referee', 'performance', 'requirements', 'requirements_v2', 'sast', 'secret_detection', 'terraform', 'trace',
] as const;

export type JobArtifactFileType = (typeof JOB_ARTIFACT_FILE_TYPES)[number];

/** A file of a job's artifacts with what GitLab's fields need of its job. */
export interface ArtifactRecord {
  /** Null when the job names no project or the file's kind is unknown: the ID cannot be made. */
  id: string | null;
  name: string | null;
  /** Null for a kind REST reports that the enum does not know yet. */
  file_type: JobArtifactFileType | null;
  size: number;
  expire_at: string | null;
  download_path: string | null;
  file_format: string | null;
}

// Records of the commits domain that live beside the git repositories (simulator/repository/):
// pipelines of repository commits, the statuses in them, and comments on commits.

/** rest-v4-api.md "States and transitions" (commit status), plus what CI jobs also report. */
export type CommitStatusState = 'created' | 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'manual';

/** A pipeline of a repository commit: run by CI (`push`) or made for external statuses (`external`). */
export interface CommitPipeline {
  id: number;
  /** Project-internal number. */
  iid: number;
  projectId: number;
  sha: string;
  ref: string;
  tag: boolean;
  source: 'push' | 'external';
  userId: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * A status of a commit: a CI job, or a generic (external) status posted through
 * `POST /projects/:id/statuses/:sha`. A status superseded by a newer one of the same name in its
 * pipeline is `retried`, and only `all=true` lists it.
 */
export interface CommitStatus {
  id: number;
  projectId: number;
  pipelineId: number;
  sha: string;
  ref: string;
  name: string;
  stage: string;
  status: CommitStatusState;
  targetUrl: string | null;
  description: string | null;
  coverage: number | null;
  allowFailure: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  authorId: number;
  retried: boolean;
  /** Posted through the API (GenericCommitStatus), not run by CI. */
  external: boolean;
}

/**
 * A comment on a commit. When it was placed on a diff line (the placement rule of
 * `POST .../comments`) it has a path, a line, a line type and GitLab's line code; otherwise those are
 * null and it belongs to the commit as a whole.
 */
export interface CommitNote {
  id: number;
  projectId: number;
  sha: string;
  authorId: number;
  note: string;
  createdAt: string;
  path: string | null;
  line: number | null;
  lineType: 'new' | 'old' | null;
  /** `<sha1 of path>_<old line>_<new line>`: the notes of one line form one discussion. */
  lineCode: string | null;
}

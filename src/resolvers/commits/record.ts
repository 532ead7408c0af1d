import type { CommitSchema, ProjectKey } from '../../datasources/commits.js';

/**
 * A commit with the project it belongs to, which REST leaves out of most commit records but every
 * sub-resource path needs (`/projects/:id/repository/commits/:sha/...`). Null only for a commit
 * whose project is unknown (a runner job that came without its project).
 */
export type CommitRecord = CommitSchema & { project_ref: ProjectKey | null };

export function commitRecord(commit: CommitSchema, project: ProjectKey | null): CommitRecord {
  return { ...commit, project_ref: commit.project_id ?? project };
}

/** `Project.repository`: the project's key, for the commit look-ups under it. */
export interface RepositoryRecord {
  project: ProjectKey;
}

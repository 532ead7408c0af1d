// The record GraphQL's ProjectPermissions resolves from (codegen.ts maps the type to it). The
// generated resolver types import this module, so it imports only data sources.
import type { ProjectSchema } from '../datasources/projects.js';

/**
 * What GitLab's project policy decides from: the caller's effective access level (the higher of
 * REST's `project_access` and `group_access`; an administrator counts as Owner, as GitLab's
 * `owner_access` rule has it), whether they are signed in, and the full project record.
 */
export interface ProjectAbilities {
  level: number;
  signedIn: boolean;
  /** An external user (GitLab's `internal_access` leaves them out of internal projects they are not in). */
  external: boolean;
  project: ProjectSchema;
}

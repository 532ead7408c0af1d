import { badUserInput } from '../errors.js';

/** The classes whose global IDs the gateway issues, as GitLab spells them. */
export type GlobalIdClass = 'Ci::Runner' | 'Ci::RunnerManager' | 'Ci::Build' | 'Ci::Pipeline' | 'Commit' | 'Project' | 'Group' | 'User' | 'Namespace' | 'GroupMember' | 'ProjectMember'
  // Issues and boards.
  | 'Issue' | 'Board' | 'List' | 'Label' | 'Milestone' | 'MergeRequest' | 'Todo' | 'Note' | 'Epic' | 'Iteration' | 'IssuableMetricImage'
  // Snippet storage moves and SSH keys.
  | 'PersonalSnippet' | 'ProjectSnippet' | 'Snippets::RepositoryStorageMove' | 'Key' | 'DeployKeysProject'
  // Commits.
  | 'CommitStatus' | 'Discussion'
  // Credentials inventory: personal, group and project access tokens are all PersonalAccessToken records.
  | 'PersonalAccessToken';

/** `gid://gitlab/<Class>/<id>`, GitLab's own global ID format. */
export function toGlobalId(className: GlobalIdClass, id: number | string): string {
  return `gid://gitlab/${className}/${id}`;
}

const GLOBAL_ID = /^gid:\/\/gitlab\/([A-Za-z:]+)\/(\d{1,15})$/;

/** Splits a global ID with a numeric id; refuses anything else before any REST call. */
export function parseGlobalId(value: string, argumentName: string): { className: string; id: number } {
  const match = GLOBAL_ID.exec(value);
  if (!match) {
    throw badUserInput(`\`${argumentName}\` must be a global ID such as gid://gitlab/Project/1; got "${value.slice(0, 100)}".`, argumentName);
  }
  return { className: match[1]!, id: Number(match[2]) };
}

/** The numeric id inside a global ID of the expected class. */
export function idFromGlobalId(value: string, expected: GlobalIdClass, argumentName: string): number {
  const { className, id } = parseGlobalId(value, argumentName);
  if (className !== expected) {
    throw badUserInput(`\`${argumentName}\` must be a ${expected} global ID (gid://gitlab/${expected}/<id>); got a ${className} ID.`, argumentName);
  }
  return id;
}

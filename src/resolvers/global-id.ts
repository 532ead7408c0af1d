import { badUserInput, UpstreamShapeError } from '../errors/graphql-errors.js';

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

/** The classes whose REST id is text (a commit's SHA, a discussion's hex id); every other one is an integer. */
const TEXT_ID_CLASSES: ReadonlySet<GlobalIdClass> = new Set(['Commit', 'Discussion']);

/**
 * `gid://gitlab/<Class>/<id>`, GitLab's own global ID format, from the id REST sent. REST's record
 * is taken as it came, so its id is checked here: an id that is missing, or not the integer REST
 * documents (`"one"`, `1.5`, an object), would make an ID no query can use
 * (`gid://gitlab/Ci::Runner/undefined`), which parseGlobalId then refuses as the caller's fault. It
 * is the upstream's: the field fails with UPSTREAM_ERROR.
 */
export function toGlobalId(className: GlobalIdClass, id: unknown): string {
  const usable = TEXT_ID_CLASSES.has(className)
    ? typeof id === 'string' && /^[0-9A-Za-z]{1,64}$/.test(id)
    : typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
  if (!usable) throw new UpstreamShapeError(`a ${className} whose id is ${describeId(id)}, not ${TEXT_ID_CLASSES.has(className) ? 'a hex string' : 'an integer'}`);
  return `gid://gitlab/${className}/${id as number | string}`;
}

function describeId(id: unknown): string {
  // JSON.stringify says undefined for a function or a symbol, which JSON bodies cannot hold.
  const text = id === undefined ? undefined : JSON.stringify(id);
  if (text === undefined) return 'missing';
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
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

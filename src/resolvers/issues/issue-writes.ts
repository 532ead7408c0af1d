// What the issue sidebar's writes need before their REST call: label titles for label IDs (REST
// takes titles), user IDs for usernames (REST takes IDs), and an issue's project and iid for its
// global ID (REST finds an issue by global ID for administrators only); shared by merge request writes.
import type { MutationOperationMode } from '../../__generated__/resolvers-types.js';
import { GraphQLError } from 'graphql';
import type { IssueKey } from '../../datasources/issues.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { RestError } from '../../datasources/rest-error.js';
import type { GatewayContext } from '../../server/context.js';
import { parseGlobalId } from '../global-id.js';
import { issueKeyOf } from './key.js';

/** GitLab types label IDs by their owner (`ProjectLabel`, `GroupLabel`); all are labels here. */
const LABEL_CLASSES: ReadonlySet<string> = new Set(['Label', 'ProjectLabel', 'GroupLabel']);

/** The numeric IDs of label global IDs, checked before any REST call. */
export function labelIdsOf(ids: ReadonlyArray<string>, argumentName: string): number[] {
  return ids.map((value) => {
    const { className, id } = parseGlobalId(value, argumentName);
    if (!LABEL_CLASSES.has(className)) throw badUserInput(`\`${argumentName}\` holds label global IDs (gid://gitlab/Label/<id>); got a ${className} ID.`, argumentName);
    return id;
  });
}

/**
 * The titles of labels by ID, among the project's labels and its ancestor groups' (the project
 * label loader: one REST call per project and request). An ID that is not among them is refused.
 */
export async function labelTitles(project: number | string, ids: readonly number[], argumentName: string, { loaders }: GatewayContext): Promise<string[]> {
  if (ids.length === 0) return [];
  const labels = await loaders.projectLabels.load({ project });
  return ids.map((id) => {
    const label = labels.find((candidate) => candidate.id === id);
    if (!label) throw badUserInput(`\`${argumentName}\`: no label gid://gitlab/Label/${id} in the project or its groups.`, argumentName);
    return label.name;
  });
}

/**
 * The project's labels, read by its path for a write's label IDs, also answer its numeric ID, by
 * which the written issue's labels are read: one labels call per write, not two.
 */
export async function shareProjectLabels(projectPath: number | string, projectId: number, { loaders }: GatewayContext): Promise<void> {
  if (projectPath === projectId) return;
  loaders.projectLabels.prime({ project: projectId }, await loaders.projectLabels.load({ project: projectPath }));
}

/** User IDs by username (`GET /users?username=`, one call each, concurrently); an unknown name is refused. */
export async function userIdsOf(usernames: ReadonlyArray<string>, { api }: GatewayContext): Promise<number[]> {
  const found = await Promise.all(usernames.map(async (username) => ({ username, users: await api.users.byUsername(username) })));
  return found.map(({ username, users }) => {
    const user = users[0];
    if (!user) throw badUserInput(`\`assigneeUsernames\`: no user "${username.slice(0, 100)}".`, 'assigneeUsernames');
    return user.id;
  });
}

/**
 * The assignee IDs REST's `assignee_ids` takes for GitLab's `operationMode` (replace by default):
 * REST takes the whole list, so APPEND and REMOVE read the current assignees (`current`, only then);
 * and REST unassigns everyone with `[0]`, not with an empty list. Shared by issues and merge requests.
 */
export async function assigneeIdsFor(
  usernames: ReadonlyArray<string>,
  mode: MutationOperationMode | null | undefined,
  current: () => Promise<ReadonlyArray<{ id: number }> | null | undefined>,
  context: GatewayContext,
): Promise<number[]> {
  const operation = mode ?? 'replace';
  const [ids, assigned] = await Promise.all([userIdsOf(usernames, context), operation === 'replace' ? [] : current().then((users) => (users ?? []).map((user) => user.id))]);
  const assignees = operation === 'replace' ? ids : operation === 'append' ? [...new Set([...assigned, ...ids])] : assigned.filter((id) => !ids.includes(id));
  return assignees.length > 0 ? assignees : [0];
}

/**
 * An issue by its global ID: where the gateway served this issue's `id` to this credential, it
 * remembers the issue's project and iid (resolvers/subscriptions/served-issues.ts), as a sidebar
 * reads its issue before it writes; otherwise REST's `GET /issues/:id`, which is for
 * administrators only, and anyone else is told to read the issue first.
 */
export async function issueKeyOfGlobalId(globalId: string, argumentName: string, context: GatewayContext): Promise<IssueKey> {
  const { className, id } = parseGlobalId(globalId, argumentName);
  if (className !== 'Issue') throw badUserInput(`\`${argumentName}\` must be an Issue global ID here; ${className} has no such REST endpoint.`, argumentName);
  const remembered = context.credential ? await context.issueReferences.find(context.credential, id) : undefined;
  if (remembered) return remembered;
  try {
    return issueKeyOf(await context.loaders.issueById.load(id));
  } catch (error) {
    if (!(error instanceof RestError) || error.status !== 403) throw error;
    throw new GraphQLError(
      `Not allowed: REST finds an issue by its global ID for administrators only (GET /issues/:id). Read the issue through this gateway with the same credential first (a query that selects its \`id\`, such as project(fullPath:) { issue(iid:) { id } }), then write.`,
      { extensions: { code: 'FORBIDDEN', restStatus: 403 } },
    );
  }
}

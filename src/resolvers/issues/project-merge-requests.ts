import type { MergeRequestSort, ProjectMergeRequestsArgs, ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { MERGE_REQUEST_LISTED, MERGE_REQUEST_RECORD } from '../../cost/shapes.js';
import type { MergeRequestListFilters } from '../../datasources/merge-requests.js';
import { declared } from '../../fields/declaration.js';
import { nullWhenNotFound } from '../lookups.js';
import { checkIid } from './key.js';
import { MERGE_REQUEST_READ } from './merge-request-record.js';

/** GitLab's MergeRequestSort as REST's `order_by` and `sort` (`created_desc` -> `created_at`, `desc`). */
function restOrderOf(sort: MergeRequestSort): { orderBy: string; sort: string } {
  const [field, direction] = sort.split('_') as [string, string];
  return { orderBy: field === 'title' ? 'title' : `${field}_at`, sort: direction };
}

/** REST filters on one branch; GitLab's list arguments take several, so more than one is refused. */
function oneBranch(branches: readonly string[] | null | undefined, argumentName: string): string | undefined {
  if (!branches || branches.length === 0) return undefined;
  if (branches.length > 1) throw badUserInput(`\`${argumentName}\` takes one branch here: REST filters merge requests on a single branch.`, argumentName);
  return branches[0];
}

/** The list arguments as REST's filters, checked before any call. */
export function mergeRequestListFilters(args: ProjectMergeRequestsArgs): MergeRequestListFilters {
  const optional = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
  return {
    state: optional(args.state),
    iids: args.iids?.map((iid) => checkIid(iid, 'iids')),
    labels: optional(args.labels),
    milestone: optional(args.milestoneTitle),
    authorUsername: optional(args.authorUsername),
    assigneeUsername: optional(args.assigneeUsername),
    reviewerUsername: optional(args.reviewerUsername),
    sourceBranch: oneBranch(args.sourceBranches, 'sourceBranches'),
    targetBranch: oneBranch(args.targetBranches, 'targetBranches'),
    wip: args.draft === null || args.draft === undefined ? undefined : args.draft ? 'yes' : 'no',
    createdAfter: optional(args.createdAfter),
    createdBefore: optional(args.createdBefore),
    updatedAfter: optional(args.updatedAfter),
    updatedBefore: optional(args.updatedBefore),
    mergedAfter: optional(args.mergedAfter),
    mergedBefore: optional(args.mergedBefore),
    not: args.not ? { labels: optional(args.not.labels), milestone: optional(args.not.milestoneTitle) } : undefined,
    ...restOrderOf(args.sort ?? 'created_desc'),
  };
}

const projectMergeRequestFields: Pick<ProjectResolvers, 'mergeRequests' | 'mergeRequest'> = {
  // List records are MergeRequestBasic: no pipeline.
  mergeRequests: declared({ ...restList(MERGE_REQUEST_LISTED), rest: ['GET /projects/:id/merge_requests'] }, (project, args, { api }) => {
    const filters = mergeRequestListFilters(args);
    return restConnection(args, (page) => api.mergeRequests.forProject(project.id, filters, page));
  }),
  // REST's single read (GET /projects/:id/merge_requests/:merge_request_iid), through the loader that
  // fields needing the whole record share: the whole record.
  mergeRequest: declared({ ...oneCall(MERGE_REQUEST_RECORD), rest: [MERGE_REQUEST_READ] }, (project, { iid }, { loaders }) =>
    nullWhenNotFound(loaders.mergeRequest.load({ project: project.id, iid: checkIid(iid) })),
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Project: projectMergeRequestFields };

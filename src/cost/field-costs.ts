import {
  BOARD,
  COMMIT_CHANGED,
  COMMIT_LISTED,
  COMMIT_LISTED_WITH_STATS,
  COMMIT_LOADED,
  COMMIT_OF_JOB,
  COMMIT_OF_SUBMODULE,
  GROUP_LOADED,
  GROUP_OF_NAMESPACE,
  GROUP_OF_SHARE,
  GROUP_RECORD,
  ID_ONLY,
  ISSUE_AS_TO_DO_TARGET,
  ISSUE_RECORD,
  LABEL_LISTED,
  LABEL_OF_BOARD,
  PROJECT_IN_GROUP_DETAIL,
  PROJECT_LOADED,
  PROJECT_OF_BOARD,
  PROJECT_REFERENCE,
  RUNNER_DETAIL,
  RUNNER_LOADED,
  RUNNER_SUMMARY,
  RUNNER_JOB,
  JOB_KEPT,
  PROJECT_JOB,
  PIPELINE_OF_JOB,
  PIPELINE_OF_MERGE_REQUEST,
  MERGE_REQUEST_LISTED,
  MERGE_REQUEST_RECORD,
  PIPELINE_LISTED,
  USER_AUTHOR,
  USER_FULL,
  USER_LOADED,
  USER_SUMMARY,
  WIKI_PAGE,
  WIKI_PAGE_LISTED,
  type RecordShape,
} from './shapes.js';
import { TIP_PAGES } from '../resolvers/commits/references.js';
import { FLAT_PATH_PROBES, TREE_LISTING_PAGES } from '../resolvers/commits/tree-entries.js';
import { MAX_BLOB_PATHS } from '../resolvers/commits/repository-blobs.js';
import { FLAT_PATH_LISTING_PAGES, OWNED_FORK_PAGES } from '../datasources/loaders.js';
import { MOST_PENDING_TO_DO_PAGES } from '../datasources/todos.js';
import { MAX_PROJECT_IDS } from '../resolvers/projects/project-list.js';
import { MAX_NAMED_USERS } from '../resolvers/users/user-list.js';
import { MAX_WINDOW_CALLS, windowCost } from './window-cost.js';
import { embedded, oneCall, restList, UNBOUNDED_ARRAY_ITEMS, type FieldArgs, type FieldCost } from './field-cost.js';
import { BULK_DELETE_LIMIT } from '../resolvers/runners/management.js';
import { BULK_DESTROY_LIMIT } from '../resolvers/artifacts/destroy.js';
import { MAX_SORTED_MILESTONE_PAGES, needsWholeMilestoneList } from '../resolvers/issues/milestone-whole-list.js';

/** GitLab's limit on the assignees of an issue (Issuable::MAX_NUMBER_OF_ASSIGNEES_OR_REVIEWERS). */
const MAX_ASSIGNEES = 200;
/** rest-v4-api.md "Limits": projects embedded in a group's detail. */
const MAX_EMBEDDED_PROJECTS = 100;
/** `nodes(ids:)` takes at most 100 IDs (resolvers/node.ts). */
const MAX_NODE_IDS = 100;

/** The paths `Repository.blobs` reads, one REST call each. */
const blobPathCount = (args: FieldArgs): number => Math.min(Array.isArray(args['paths']) ? args['paths'].length : 1, MAX_BLOB_PATHS);

/**
 * A runner list: the window's pages, or newest first (`sort: CREATED_DESC`, read from the list's end)
 * the head page that gives the total and up to two pages of the mirrored range.
 */
const runnerList: FieldCost = {
  calls: (args) => (String(args['sort']).toLowerCase() === 'created_desc' ? MAX_WINDOW_CALLS : windowCost(args).calls),
  items: 'window',
  returns: RUNNER_SUMMARY,
};

/**
 * A milestone list: the window's pages in REST's order, or with `sort`, `ids` or a date filter every
 * page of the list up to the ceiling past which it is refused (resolvers/issues/milestone-whole-list.ts).
 */
const milestoneList: FieldCost = {
  calls: (args) => (needsWholeMilestoneList(args) ? MAX_SORTED_MILESTONE_PAGES : windowCost(args).calls),
  items: 'window',
};

/** How many projects `runnerUpdate`'s `associatedProjects` lists; null when it sets none. */
const associatedProjectsOf = (args: FieldArgs): number | null => {
  const ids = (args['input'] as { associatedProjects?: unknown } | undefined)?.associatedProjects;
  return Array.isArray(ids) ? ids.length : null;
};

/** How many `ids` a mutation's `input` lists. */
const inputIdsOf = (args: FieldArgs) => {
  const ids = (args['input'] as { ids?: unknown } | undefined)?.ids;
  return Array.isArray(ids) ? ids.length : 0;
};

const idsOf = (args: FieldArgs) => Math.min(Array.isArray(args['ids']) ? args['ids'].length : 0, MAX_NODE_IDS);

/**
 * A project list that `ids` may name instead: then one GET /projects/:id per id (REST's lists have
 * no id filter), otherwise the REST list's window.
 */
const projectListOrIds = (returns: RecordShape): FieldCost => ({
  calls: (args) => (Array.isArray(args['ids']) ? Math.min(args['ids'].length, MAX_PROJECT_IDS) : windowCost(args).calls),
  items: (args) => (Array.isArray(args['ids']) ? Math.min(args['ids'].length, MAX_PROJECT_IDS) : windowCost(args).items),
  returns,
});

/** How many users `Query.users` names by `usernames` or `ids`; null when it lists instead. */
const namedUsersOf = (args: FieldArgs): number | null => {
  const named = Array.isArray(args['usernames']) ? args['usernames'] : Array.isArray(args['ids']) ? args['ids'] : null;
  return named === null ? null : Math.min(named.length, MAX_NAMED_USERS);
};

/**
 * `Query.users`: GET /users?username= per username, GET /users/:id per id (the user loader), or the
 * REST list's window of summaries.
 */
const userListOrNamed: FieldCost = {
  calls: (args) => namedUsersOf(args) ?? windowCost(args).calls,
  items: (args) => namedUsersOf(args) ?? windowCost(args).items,
  returns: (args) => (Array.isArray(args['ids']) ? USER_LOADED : USER_SUMMARY),
};

const queries: Record<string, FieldCost> = {
};

/** Every mutation is one REST write unless its entry says otherwise. */
const mutations: Record<string, FieldCost> = {
  // What the payloads hold.
  'RunnerUpdatePayload.runner': embedded(RUNNER_LOADED),
  'RunnerCreatePayload.runner': embedded(RUNNER_LOADED),
  // The PUT answers, primed into the runner loader.
  'RunnerBulkPausePayload.updatedRunners': { items: BULK_DELETE_LIMIT, returns: RUNNER_LOADED },
  'JobArtifactsKeepPayload.job': embedded(JOB_KEPT),
  'RunnerAssignToProjectPayload.runner': embedded(RUNNER_SUMMARY),
  'GroupCreatePayload.group': embedded(GROUP_LOADED),
  'GroupUpdatePayload.group': embedded(GROUP_LOADED),
  'ProjectTransferPayload.project': embedded(PROJECT_LOADED),
  'ProjectTransferPayload.group': embedded(GROUP_OF_NAMESPACE),
  'CommitCreatePayload.commit': embedded(COMMIT_LOADED),
  'CommitCherryPickPayload.commit': embedded(COMMIT_CHANGED),
  'CommitRevertPayload.commit': embedded(COMMIT_CHANGED),
  'SubmoduleUpdatePayload.commit': embedded(COMMIT_OF_SUBMODULE),
  'CreateBoardPayload.board': embedded(BOARD),
  'UpdateBoardPayload.board': embedded(BOARD),
  'DestroyBoardPayload.board': embedded(BOARD),
  'IssueMoveListPayload.issue': embedded(ISSUE_RECORD),
  'MergeRequestSetMilestonePayload.mergeRequest': embedded(MERGE_REQUEST_RECORD),
  'MergeRequestSetSubscriptionPayload.mergeRequest': embedded(MERGE_REQUEST_RECORD),
  'MergeRequestSetLabelsPayload.mergeRequest': embedded(MERGE_REQUEST_RECORD),
  'MergeRequestSetLockedPayload.mergeRequest': embedded(MERGE_REQUEST_RECORD),
  'MergeRequestSetAssigneesPayload.mergeRequest': embedded(MERGE_REQUEST_RECORD),
  'MergeRequestUpdatePayload.mergeRequest': embedded(MERGE_REQUEST_RECORD),
  // The to-dos read before marking them: at most the pages read.
  'TodosMarkAllDonePayload.todos': { items: MOST_PENDING_TO_DO_PAGES * 100 },
  // The issue sidebar's writes answer REST's single-issue record.
  ...Object.fromEntries(
    ['CreateIssue', 'UpdateIssue', 'IssueMove', 'IssueSetAssignees', 'IssueSetConfidential', 'IssueSetLocked', 'IssueSetDueDate', 'IssueSetSubscription'].map((payload) => [
      `${payload}Payload.issue`,
      embedded(ISSUE_RECORD),
    ]),
  ),
  'WikiPageCreatePayload.wikiPage': embedded(WIKI_PAGE),
  'WikiPageUpdatePayload.wikiPage': embedded(WIKI_PAGE),
};

const runners: Record<string, FieldCost> = {
  // A job's pipeline and listed pipelines lack `user`: GET /projects/:id/pipelines/:pipeline_id through the pipeline loader.
  'Pipeline.user': { reads: ['user'], returns: USER_SUMMARY },
  'CiJob.runner': embedded(RUNNER_SUMMARY),
  'CiJob.user': embedded(USER_SUMMARY),
};

const projects: Record<string, FieldCost> = {
  'Project.owner': embedded(USER_SUMMARY),
  'SshKey.user': embedded(USER_FULL),
};

const groups: Record<string, FieldCost> = {
};

const issues: Record<string, FieldCost> = {
  'Issue.author': embedded(USER_SUMMARY),
  'Issue.assignee': embedded(USER_SUMMARY),
  'Issue.closedBy': embedded(USER_SUMMARY),
  'Note.author': embedded(USER_AUTHOR),
  'AwardEmoji.user': embedded(USER_AUTHOR),
  'Todo.author': embedded(USER_SUMMARY),
  'Todo.project': embedded(PROJECT_REFERENCE),
  'MergeRequest.author': embedded(USER_SUMMARY),
  'MergeRequest.assignee': embedded(USER_SUMMARY),
  'MergeRequest.closedBy': embedded(USER_SUMMARY),
  'Board.project': embedded(PROJECT_OF_BOARD),
  'Board.assignee': embedded(USER_SUMMARY),
};

const commits: Record<string, FieldCost> = {
  'CommitComment.author': embedded(USER_AUTHOR),
  'CommitStatus.author': embedded(USER_AUTHOR),
};

/** The reviewed costs, by `Type.field`. */
export const FIELD_COSTS: Readonly<Record<string, FieldCost>> = { ...queries, ...mutations, ...runners, ...projects, ...groups, ...issues, ...commits };

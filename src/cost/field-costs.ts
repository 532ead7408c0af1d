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
  'Query.project': oneCall(PROJECT_LOADED),
  // With `personal`, the caller's GET /user names the namespace whose list is read.
  'Query.projects': {
    ...projectListOrIds(PROJECT_LOADED),
    calls: (args) => (Array.isArray(args['ids']) ? Math.min(args['ids'].length, MAX_PROJECT_IDS) : windowCost(args).calls + (args['personal'] === true ? 1 : 0)),
  },
  'Query.group': oneCall(GROUP_LOADED),
  'Query.groups': restList(GROUP_RECORD),
};

/** Every mutation is one REST write unless its entry says otherwise. */
const mutations: Record<string, FieldCost> = {
  'Mutation.groupCreate': oneCall(),
  // By full path it looks the group up first (PUT takes the numeric id only).
  'Mutation.groupUpdate': { calls: (args) => ((args['input'] as { fullPath?: unknown } | undefined)?.fullPath ? 2 : 1) },
  // When REST answers with the group instead of the project, the project is looked up at its new path.
  'Mutation.projectTransfer': { calls: 2 },
  'Mutation.managedPersonalAccessTokenRotate': oneCall(),
  'Mutation.managedResourceAccessTokenRotate': oneCall(),
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
  'Project.fullPath': { reads: ['path_with_namespace'] },
  'Project.group': { reads: ['namespace'], returns: GROUP_OF_NAMESPACE },
  'Project.runners': runnerList,
  // The project's `creator_id`, then the user loader.
  'Project.creator': { reads: ['creator_id'], calls: 1, returns: USER_LOADED },
  'Project.owner': embedded(USER_SUMMARY),
  'Project.links': { reads: ['_links'] },
  'Project.invitations': restList(),
  // POST /markdown of the description (in the project's context), once per distinct text.
  'Project.descriptionHtml': { reads: ['description', 'path_with_namespace'], calls: 1 },
  // GET /user once per request, and GET /projects/:id for the caller's `permissions` (list records lack them).
  'Project.userPermissions': { calls: 2 },
  // The settings page's path, from `web_url` (list-row.ts).
  'Project.editPath': { reads: ['web_url'] },
  // GET /projects/:id with the caller's `permissions`, unless the record at hand has them.
  'Project.maxAccessLevel': { calls: 1, unlessParentHas: 'permissions' },
  // A one-item page of GET /projects/:id/merge_requests?state=opened, once per project and request.
  'Project.openMergeRequestsCount': { calls: 1 },
  // GET /projects/:id?statistics=true.
  'Project.statistics': { calls: 1, unlessParentHas: 'statistics' },
  'Project.projectMembers': restList(USER_SUMMARY),
  'Namespace.fullName': { calls: 1 },
  'ProjectMember.user': embedded(USER_SUMMARY),
  'ProjectMember.createdBy': embedded(USER_SUMMARY),
  'ProjectMember.project': embedded(ID_ONLY),
  'GroupMember.user': embedded(USER_SUMMARY),
  'GroupMember.createdBy': embedded(USER_SUMMARY),
  'GroupMember.group': embedded(ID_ONLY),
  'SshKey.user': embedded(USER_FULL),
};

const groups: Record<string, FieldCost> = {
  'Group.fullPath': { reads: ['full_path'] },
  'Group.shareWithGroupLock': { reads: ['share_with_group_lock'] },
  'Group.requireTwoFactorAuthentication': { reads: ['require_two_factor_authentication'] },
  'Group.autoDevopsEnabled': { reads: ['auto_devops_enabled'] },
  'Group.emailsDisabled': { reads: ['emails_disabled'] },
  'Group.mentionsDisabled': { reads: ['mentions_disabled'] },
  'Group.lfsEnabled': { reads: ['lfs_enabled'] },
  'Group.requestAccessEnabled': { reads: ['request_access_enabled'] },
  'Group.membershipLock': { reads: ['membership_lock'] },
  'Group.preventForkingOutsideGroup': { reads: ['prevent_forking_outside_group'] },
  // `parent_id`, then the group loader.
  'Group.parent': { reads: ['parent_id'], calls: 1, returns: GROUP_LOADED },
  // Built from `file_template_project_id` alone.
  'Group.fileTemplateProject': { reads: ['file_template_project_id'], returns: ID_ONLY },
  // The group detail `?with_custom_attributes=true`, unless a list record carries them.
  'Group.customAttributes': { calls: 1, unlessParentHas: 'custom_attributes' },
  // Both read the group detail `?with_projects=true`, one loader for the two.
  'Group.embeddedProjects': { reads: ['projects'], loader: 'groupWithProjects', items: MAX_EMBEDDED_PROJECTS, returns: PROJECT_IN_GROUP_DETAIL },
  'Group.embeddedSharedProjects': { reads: ['shared_projects'], loader: 'groupWithProjects', items: MAX_EMBEDDED_PROJECTS, returns: PROJECT_IN_GROUP_DETAIL },
  'Group.subgroups': restList(GROUP_RECORD),
  'Group.descendantGroups': restList(GROUP_RECORD),
  'Group.projects': projectListOrIds(PROJECT_LOADED),
  'Group.sharedProjects': restList(PROJECT_LOADED),
  'Group.runners': runnerList,
  'Group.invitations': restList(),
  // POST /markdown of the description.
  'Group.descriptionHtml': { reads: ['description'], calls: 1 },
  // GET /user once per request, and the caller's membership (GET /groups/:id/members/all/:user_id).
  'Group.userPermissions': { reads: ['project_creation_level'], calls: 2 },
  'Group.groupMembers': restList(USER_SUMMARY),
  'SharedWithGroup.group': embedded(GROUP_OF_SHARE),
  // The owner of a token or key: the user loader.
  'PersonalAccessToken.user': oneCall(USER_LOADED),
  'ResourceAccessToken.user': oneCall(USER_LOADED),
  'EnterpriseUserSshKey.user': oneCall(USER_LOADED),
  'ResourceAccessToken.group': embedded(ID_ONLY),
  'ResourceAccessToken.project': embedded(ID_ONLY),
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

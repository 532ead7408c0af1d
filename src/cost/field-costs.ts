import {
  BOARD,
  COMMIT_CHANGED,
  COMMIT_LOADED,
  COMMIT_OF_SUBMODULE,
  GROUP_LOADED,
  GROUP_OF_NAMESPACE,
  ISSUE_RECORD,
  JOB_KEPT,
  MERGE_REQUEST_RECORD,
  PROJECT_LOADED,
  PROJECT_OF_BOARD,
  PROJECT_REFERENCE,
  RUNNER_LOADED,
  RUNNER_SUMMARY,
  USER_AUTHOR,
  USER_FULL,
  USER_SUMMARY,
  WIKI_PAGE,
} from './shapes.js';
import { MOST_PENDING_TO_DO_PAGES } from '../datasources/todos.js';
import { embedded, type FieldCost } from './field-cost.js';
import { BULK_DELETE_LIMIT } from '../resolvers/runners/management.js';

// What is left of the central list while it moves beside the fields (issue 28): fields without a
// resolver of their own, whose entry says the form of the REST record they point at. Each moves to
// the module resolving its type as `recordField(...)` (src/fields/patterns.ts), as Issue.author has;
// a field declared there must not also be here (test/cost/field-costs.test.ts).

/** What mutation payloads hold. */
const payloads: Record<string, FieldCost> = {
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

const issues: Record<string, FieldCost> = {
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

/** The forms of the records these fields point at, by `Type.field`. */
export const FIELD_COSTS: Readonly<Record<string, FieldCost>> = { ...payloads, ...runners, ...projects, ...issues, ...commits };

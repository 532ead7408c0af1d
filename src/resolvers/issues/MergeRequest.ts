import type { MergeRequestAssigneeResolvers, MergeRequestParticipantResolvers, MergeRequestResolvers, MergeRequestReviewerResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import { embedded, UNBOUNDED_ARRAY_ITEMS } from '../../cost/field-cost.js';
import { ID_ONLY, LABEL_LISTED, PIPELINE_OF_JOB, PIPELINE_OF_MERGE_REQUEST, USER_SUMMARY } from '../../cost/shapes.js';
import type { MergeRequestSchema } from '../../datasources/merge-requests.js';
import type { PipelineSchema } from '../../datasources/pipelines.js';
import type { UserSchema } from '../../datasources/users.js';
import { declared } from '../../fields/declaration.js';
import { toGlobalId } from '../global-id.js';
import { pathOfWebUrl } from '../web-path.js';
import { UserCore } from '../users/User.js';
import { formatHumanDuration } from './human-duration.js';
import { asksForLabelDetails, labelsOfIssue, withLabelDetails } from './labels.js';
import { MAX_ASSIGNEES, projectIdOf, readsWholeRecord, wholeRecordField, wholeRecordWith } from './merge-request-record.js';
import { mergeRequestSidebarFields } from './merge-request-sidebar.js';
import { recordField } from '../../fields/patterns.js';

/** The assignees REST embeds; a record that names only its first (`assignee`) gives that one. */
function assigneesOf(mergeRequest: MergeRequestSchema): UserSchema[] {
  if (mergeRequest.assignees) return mergeRequest.assignees;
  return mergeRequest.assignee ? [mergeRequest.assignee] : [];
}

/**
 * The head pipeline is in the merge request's target project; the fields it lacks come from the
 * pipeline's own record, which needs the project (older servers' embedded pipelines omit it).
 */
const inTargetProject = (mergeRequest: MergeRequestSchema, pipeline: PipelineSchema | null | undefined) => (pipeline ? { project_id: projectIdOf(mergeRequest), ...pipeline } : null);

export const MergeRequest: MergeRequestResolvers = {
  closedBy: recordField(embedded(USER_SUMMARY)),
  assignee: recordField(embedded(USER_SUMMARY)),
  author: recordField(embedded(USER_SUMMARY)),
  id: (mergeRequest) => toGlobalId('MergeRequest', mergeRequest.id),
  iid: (mergeRequest) => String(mergeRequest.iid),
  // Only the ids are known; any other project field is fetched (or found primed) through the project loader.
  project: declared(embedded(ID_ONLY), (mergeRequest) => ({ id: projectIdOf(mergeRequest) })),
  sourceProject: declared(embedded(ID_ONLY), (mergeRequest) => ({ id: mergeRequest.source_project_id ?? mergeRequest.project_id })),
  targetProject: declared(embedded(ID_ONLY), (mergeRequest) => ({ id: projectIdOf(mergeRequest) })),
  // The array the record embeds: no call of its own.
  assignees: declared({ items: MAX_ASSIGNEES, returns: USER_SUMMARY }, (mergeRequest, args) => arrayConnection(args, assigneesOf(mergeRequest))),
  // Names are all a merge request record has, as for an issue: the project's labels are read once
  // per project and request, only when the query asks for more than the title (one read of the
  // project's labels at most).
  labels: declared(
    { calls: 1, items: UNBOUNDED_ARRAY_ITEMS, returns: LABEL_LISTED, rest: ['GET /projects/:id/labels'] },
    async (mergeRequest, args, context, info) => {
      const named = labelsOfIssue(mergeRequest.labels, projectIdOf(mergeRequest));
      return arrayConnection(args, asksForLabelDetails(info) ? await withLabelDetails(named, context) : named);
    },
  ),
  // GitLab's `to_reference(full:)`: `!1`, or `group/project!1`.
  reference: (mergeRequest, { full }) =>
    full ? (mergeRequest.references?.full ?? `!${mergeRequest.iid}`) : (mergeRequest.references?.short ?? mergeRequest.reference ?? `!${mergeRequest.iid}`),
  webPath: (mergeRequest) => pathOfWebUrl(mergeRequest.web_url) ?? '',
  // REST answers null for a merge request whose discussion was never locked.
  discussionLocked: (mergeRequest) => mergeRequest.discussion_locked === true,
  timeEstimate: (mergeRequest) => mergeRequest.time_stats?.time_estimate ?? 0,
  totalTimeSpent: (mergeRequest) => mergeRequest.time_stats?.total_time_spent ?? 0,
  // Computed from the seconds by GitLab's rules, as for issues.
  humanTimeEstimate: (mergeRequest) => formatHumanDuration(mergeRequest.time_stats?.time_estimate ?? 0),
  humanTotalTimeSpent: (mergeRequest) => formatHumanDuration(mergeRequest.time_stats?.total_time_spent ?? 0),
  workInProgress: (mergeRequest) => mergeRequest.work_in_progress ?? mergeRequest.draft ?? null,
  // The fields only the whole record has: read from it when the record at hand is a list's summary,
  // as the head pipeline is.
  squash: declared(readsWholeRecord('squash'), async (mergeRequest, _args, context) => (await wholeRecordField(mergeRequest, 'squash', context)) ?? false),
  taskCompletionStatus: declared(readsWholeRecord('task_completion_status'), (mergeRequest, _args, context) => wholeRecordField(mergeRequest, 'task_completion_status', context)),
  // REST sends a string (it caps the count as "1000+"); older answers sent a number.
  changesCount: declared(readsWholeRecord('changes_count'), async (mergeRequest, _args, context) => {
    const count = await wholeRecordField(mergeRequest, 'changes_count', context);
    return count === null ? null : String(count);
  }),
  latestBuildStartedAt: declared(readsWholeRecord('latest_build_started_at'), (mergeRequest, _args, context) => wholeRecordField(mergeRequest, 'latest_build_started_at', context)),
  latestBuildFinishedAt: declared(readsWholeRecord('latest_build_finished_at'), (mergeRequest, _args, context) => wholeRecordField(mergeRequest, 'latest_build_finished_at', context)),
  firstDeployedToProductionAt: declared(readsWholeRecord('first_deployed_to_production_at'), (mergeRequest, _args, context) =>
    wholeRecordField(mergeRequest, 'first_deployed_to_production_at', context),
  ),
  diffRefs: declared(readsWholeRecord('diff_refs'), (mergeRequest, _args, context) => wholeRecordField(mergeRequest, 'diff_refs', context)),
  mergeError: declared(readsWholeRecord('merge_error'), (mergeRequest, _args, context) => wholeRecordField(mergeRequest, 'merge_error', context)),
  userPermissions: declared(readsWholeRecord('user'), (mergeRequest, _args, context) => wholeRecordField(mergeRequest, 'user', context)),
  ...mergeRequestSidebarFields,
  // The head pipeline the record embeds (Entities::Ci::Pipeline and, deprecated, its PipelineBasic);
  // list records lack it: GET /projects/:id/merge_requests/:merge_request_iid through its loader.
  headPipeline: declared(readsWholeRecord('head_pipeline', { returns: PIPELINE_OF_MERGE_REQUEST }), async (mergeRequest, _args, context) =>
    inTargetProject(mergeRequest, (await wholeRecordWith(mergeRequest, 'head_pipeline', context)).head_pipeline),
  ),
  pipeline: declared(readsWholeRecord('pipeline', { returns: PIPELINE_OF_JOB }), async (mergeRequest, _args, context) =>
    inTargetProject(mergeRequest, (await wholeRecordWith(mergeRequest, 'pipeline', context)).pipeline),
  ),
};

/**
 * An assignee, a reviewer or a participant is a user like any other: the same fields, from the same
 * records, and the same declared costs (UserCore's `status` is its own GET /users/:user_id/status).
 */
const userOfMergeRequest = {
  id: UserCore.id,
  webPath: UserCore.webPath,
  status: UserCore.status,
};

export const MergeRequestAssignee: MergeRequestAssigneeResolvers = userOfMergeRequest;
export const MergeRequestReviewer: MergeRequestReviewerResolvers = userOfMergeRequest;
export const MergeRequestParticipant: MergeRequestParticipantResolvers = userOfMergeRequest;

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { MergeRequest, MergeRequestAssignee, MergeRequestParticipant, MergeRequestReviewer };

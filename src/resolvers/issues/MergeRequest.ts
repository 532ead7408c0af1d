import type { MergeRequestAssigneeResolvers, MergeRequestResolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import type { MergeRequestSchema } from '../../datasources/merge-requests.js';
import type { PipelineSchema } from '../../datasources/pipelines.js';
import type { GatewayContext } from '../../server/context.js';
import type { UserSchema } from '../../datasources/users.js';
import { toGlobalId } from '../global-id.js';
import { UserCore } from '../users/User.js';
import { formatHumanDuration } from './human-duration.js';
import { asksForLabelDetails, labelsOfIssue, withLabelDetails } from './labels.js';

const projectIdOf = (mergeRequest: MergeRequestSchema): number => mergeRequest.target_project_id ?? mergeRequest.project_id;

/** The assignees REST embeds; a record that names only its first (`assignee`) gives that one. */
function assigneesOf(mergeRequest: MergeRequestSchema): UserSchema[] {
  if (mergeRequest.assignees) return mergeRequest.assignees;
  return mergeRequest.assignee ? [mergeRequest.assignee] : [];
}

/**
 * The record that holds `key`: the parent when it has it (`related_merge_requests` records), else
 * the merge request's own record, which list records (MergeRequestBasic) need: one
 * `GET /projects/:id/merge_requests/:merge_request_iid` per merge request and request.
 */
function wholeRecordWith(mergeRequest: MergeRequestSchema, key: keyof MergeRequestSchema, context: GatewayContext): Promise<MergeRequestSchema> {
  if (key in mergeRequest) return Promise.resolve(mergeRequest);
  return context.loaders.mergeRequest.load({ project: projectIdOf(mergeRequest), iid: mergeRequest.iid });
}

/**
 * The head pipeline is in the merge request's target project; the fields it lacks come from the
 * pipeline's own record, which needs the project (older servers' embedded pipelines omit it).
 */
const inTargetProject = (mergeRequest: MergeRequestSchema, pipeline: PipelineSchema | null | undefined) => (pipeline ? { project_id: projectIdOf(mergeRequest), ...pipeline } : null);

export const MergeRequest: MergeRequestResolvers = {
  id: (mergeRequest) => toGlobalId('MergeRequest', mergeRequest.id),
  iid: (mergeRequest) => String(mergeRequest.iid),
  project: (mergeRequest) => ({ id: projectIdOf(mergeRequest) }),
  sourceProject: (mergeRequest) => ({ id: mergeRequest.source_project_id ?? mergeRequest.project_id }),
  targetProject: (mergeRequest) => ({ id: projectIdOf(mergeRequest) }),
  assignees: (mergeRequest, args) => arrayConnection(args, assigneesOf(mergeRequest)),
  // Names are all a merge request record has, as for an issue: the project's labels are read once
  // per project and request, only when the query asks for more than the title.
  async labels(mergeRequest, args, context, info) {
    const named = labelsOfIssue(mergeRequest.labels, projectIdOf(mergeRequest));
    return arrayConnection(args, asksForLabelDetails(info) ? await withLabelDetails(named, context) : named);
  },
  // GitLab's `to_reference(full:)`: `!1`, or `group/project!1`.
  reference: (mergeRequest, { full }) =>
    full ? (mergeRequest.references?.full ?? `!${mergeRequest.iid}`) : (mergeRequest.references?.short ?? mergeRequest.reference ?? `!${mergeRequest.iid}`),
  totalTimeSpent: (mergeRequest) => mergeRequest.time_stats?.total_time_spent ?? 0,
  // Computed from the seconds by GitLab's rules, as for issues.
  humanTotalTimeSpent: (mergeRequest) => formatHumanDuration(mergeRequest.time_stats?.total_time_spent ?? 0),
  workInProgress: (mergeRequest) => mergeRequest.work_in_progress ?? mergeRequest.draft ?? null,
  // REST sends a string (it caps the count as "1000+"); older answers sent a number.
  changesCount: (mergeRequest) => (mergeRequest.changes_count === undefined || mergeRequest.changes_count === null ? null : String(mergeRequest.changes_count)),
  userPermissions: (mergeRequest) => mergeRequest.user ?? null,
  headPipeline: async (mergeRequest, _args, context) => inTargetProject(mergeRequest, (await wholeRecordWith(mergeRequest, 'head_pipeline', context)).head_pipeline),
  pipeline: async (mergeRequest, _args, context) => inTargetProject(mergeRequest, (await wholeRecordWith(mergeRequest, 'pipeline', context)).pipeline),
};

/** An assignee is a user like any other: the same fields, from the same records. */
export const MergeRequestAssignee: MergeRequestAssigneeResolvers = {
  id: UserCore.id,
  webPath: UserCore.webPath,
  status: UserCore.status,
};

import type { MergeRequestNewState, MutationOperationMode, MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, oneCall } from '../../cost/field-cost.js';
import { MERGE_REQUEST_RECORD } from '../../cost/shapes.js';
import type { MergeRequestKey, MergeRequestSchema, MergeRequestWriteBody } from '../../datasources/merge-requests.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared, type DeclarationSpec } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { idFromGlobalId } from '../global-id.js';
import { checkFullPath } from '../projects/Query.js';
import { refusalReasons } from '../refusals.js';
import { parseHumanDuration } from './human-duration.js';
import { assigneeIdsFor, labelIdsOf, labelTitles, shareProjectLabels } from './issue-writes.js';
import { checkIid } from './key.js';
import { MERGE_REQUEST_READ } from './merge-request-record.js';
import { recordField } from '../../fields/patterns.js';

/** The merge request a mutation names by `projectPath` and `iid`, checked before any REST call. */
function mergeRequestKeyFromInput(input: { projectPath: string; iid: string }): MergeRequestKey {
  return { project: checkFullPath(input.projectPath, 'projectPath'), iid: checkIid(input.iid) };
}

/**
 * A write that answers the merge request: REST's refusals (400/422 with reasons) are the payload's
 * `errors`, and the loader forgets the merge request so that later reads see the change.
 */
async function writeMergeRequest(clientMutationId: string | null | undefined, key: MergeRequestKey, context: GatewayContext, write: () => Promise<MergeRequestSchema>) {
  try {
    const mergeRequest = await write();
    context.loaders.mergeRequest.clear(key);
    return { clientMutationId: clientMutationId ?? null, errors: [], mergeRequest };
  } catch (error) {
    const reasons = refusalReasons(error);
    if (reasons) return { clientMutationId: clientMutationId ?? null, errors: reasons, mergeRequest: null };
    throw error;
  }
}

/** REST's label parameter for each way of combining: the whole list, or what to add or take away. */
const LABELS_PARAMETER: Readonly<Record<MutationOperationMode, 'labels' | 'add_labels' | 'remove_labels'>> = { replace: 'labels', append: 'add_labels', remove: 'remove_labels' };

/** REST's `state_event` for GitLab's MergeRequestNewState. */
const STATE_EVENT: Readonly<Record<MergeRequestNewState, 'close' | 'reopen'>> = { closed: 'close', open: 'reopen' };

/**
 * GitLab's `timeEstimate` as REST's estimate endpoints take it: a human duration, checked before
 * any call; zero or null (GitLab's "remove the current estimate") is the reset. Undefined when not
 * given.
 */
function estimateOf(timeEstimate: string | null | undefined): { reset: true } | { duration: string } | undefined {
  if (timeEstimate === undefined) return undefined;
  if (timeEstimate === null) return { reset: true };
  const seconds = parseHumanDuration(timeEstimate);
  if (seconds === null || seconds < 0) {
    throw badUserInput(`\`timeEstimate\` must be a duration of zero or more such as 1h 30m, 2d or 1w 3d; got "${timeEstimate.slice(0, 100)}".`, 'timeEstimate');
  }
  return seconds === 0 ? { reset: true } : { duration: timeEstimate.trim() };
}

function checkNotBlank(value: string | null | undefined, argumentName: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must not be empty.`, argumentName);
  return value;
}

const MERGE_REQUEST_EDIT = 'PUT /projects/:id/merge_requests/:merge_request_iid';
/** PUT .../merge_requests/:merge_request_iid, answering the whole record. */
const ONE_MERGE_REQUEST_EDIT: DeclarationSpec = { ...oneCall(MERGE_REQUEST_RECORD), rest: [MERGE_REQUEST_EDIT] };

type MergeRequestMutation = 'mergeRequestSetMilestone' | 'mergeRequestSetSubscription' | 'mergeRequestSetLabels' | 'mergeRequestSetLocked' | 'mergeRequestSetAssignees' | 'mergeRequestUpdate';

/** `mergeRequestUpdate`'s calls: the estimate's endpoints, the PUT, or with only the estimate the single read. */
const MERGE_REQUEST_UPDATE: DeclarationSpec = {
  calls: 2,
  returns: MERGE_REQUEST_RECORD,
  rest: ['POST /projects/:id/merge_requests/:merge_request_iid/time_estimate', 'POST /projects/:id/merge_requests/:merge_request_iid/reset_time_estimate', MERGE_REQUEST_EDIT, MERGE_REQUEST_READ],
};

/** GitLab's merge request sidebar writes, each one REST write (plus the look-ups its IDs and names need). */
const mergeRequestMutations: Pick<MutationResolvers, MergeRequestMutation> = {
  mergeRequestSetMilestone: declared(ONE_MERGE_REQUEST_EDIT, (_parent, { input }, context) => {
    const key = mergeRequestKeyFromInput(input);
    // REST takes 0 for "no milestone"; a null or absent milestoneId takes it away, as in GitLab.
    const milestoneId = input.milestoneId ? idFromGlobalId(input.milestoneId, 'Milestone', 'milestoneId') : 0;
    return writeMergeRequest(input.clientMutationId, key, context, () => context.api.mergeRequests.edit(key, { milestone_id: milestoneId }));
  }),

  // POST .../subscribe or .../unsubscribe, and on a 304 the single read.
  mergeRequestSetSubscription: declared(
    {
      calls: 2,
      returns: MERGE_REQUEST_RECORD,
      rest: ['POST /projects/:id/merge_requests/:merge_request_iid/subscribe', 'POST /projects/:id/merge_requests/:merge_request_iid/unsubscribe', MERGE_REQUEST_READ],
    },
    async (_parent, { input }, context) => {
      const key = mergeRequestKeyFromInput(input);
      const changed = await context.api.mergeRequests.setSubscription(key, input.subscribedState);
      context.loaders.mergeRequest.clear(key);
      // REST 304: already so; the merge request is read as it stands.
      return { clientMutationId: input.clientMutationId ?? null, errors: [], mergeRequest: changed ?? (await context.loaders.mergeRequest.load(key)) };
    },
  ),

  // The project's labels (label IDs to titles), then the PUT.
  mergeRequestSetLabels: declared({ calls: 2, returns: MERGE_REQUEST_RECORD, rest: ['GET /projects/:id/labels', MERGE_REQUEST_EDIT] }, async (_parent, { input }, context) => {
    const key = mergeRequestKeyFromInput(input);
    const ids = labelIdsOf(input.labelIds, 'labelIds');
    // REST takes titles: the project's labels are read once, and an ID not among them refused before the write.
    const titles = await labelTitles(key.project, ids, 'labelIds', context);
    if (titles.some((title) => title.includes(','))) throw badUserInput('`labelIds`: REST takes label titles comma-separated, and one of these has a comma.', 'labelIds');
    const body: MergeRequestWriteBody = { [LABELS_PARAMETER[input.operationMode ?? 'replace']]: titles.join(',') };
    return writeMergeRequest(input.clientMutationId, key, context, async () => {
      const mergeRequest = await context.api.mergeRequests.edit(key, body);
      // The labels just read by path also serve the merge request's labels, read by project ID.
      await shareProjectLabels(key.project, mergeRequest.project_id, context);
      return mergeRequest;
    });
  }),

  mergeRequestSetLocked: declared(ONE_MERGE_REQUEST_EDIT, (_parent, { input }, context) => {
    const key = mergeRequestKeyFromInput(input);
    return writeMergeRequest(input.clientMutationId, key, context, () => context.api.mergeRequests.edit(key, { discussion_locked: input.locked }));
  }),

  // One GET /users?username= per username, the merge request (APPEND, REMOVE), then the PUT.
  mergeRequestSetAssignees: declared(
    {
      calls: (args) => ((args['input'] as { assigneeUsernames?: unknown[] } | undefined)?.assigneeUsernames?.length ?? 0) + 2,
      returns: MERGE_REQUEST_RECORD,
      rest: ['GET /users', MERGE_REQUEST_READ, MERGE_REQUEST_EDIT],
    },
    async (_parent, { input }, context) => {
      const key = mergeRequestKeyFromInput(input);
      const assignees = await assigneeIdsFor(input.assigneeUsernames, input.operationMode, async () => (await context.loaders.mergeRequest.load(key)).assignees, context);
      return writeMergeRequest(input.clientMutationId, key, context, () => context.api.mergeRequests.edit(key, { assignee_ids: assignees }));
    },
  ),

  // The estimate's POST, then the PUT (or, with only the estimate, the single read).
  mergeRequestUpdate: declared(MERGE_REQUEST_UPDATE, (_parent, { input }, context) => {
    const key = mergeRequestKeyFromInput(input);
    const estimate = estimateOf(input.timeEstimate);
    const body: MergeRequestWriteBody = {
      title: checkNotBlank(input.title, 'title'),
      target_branch: checkNotBlank(input.targetBranch, 'targetBranch'),
      description: input.description ?? undefined,
      state_event: input.state ? STATE_EVENT[input.state] : undefined,
    };
    const changes = Object.values(body).some((value) => value !== undefined);
    return writeMergeRequest(input.clientMutationId, key, context, async () => {
      // The estimate has its own endpoints; REST's PUT does not take it.
      if (estimate) await ('reset' in estimate ? context.api.mergeRequests.resetTimeEstimate(key) : context.api.mergeRequests.setTimeEstimate(key, estimate.duration));
      if (changes) return context.api.mergeRequests.edit(key, body);
      context.loaders.mergeRequest.clear(key);
      return context.loaders.mergeRequest.load(key);
    });
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: mergeRequestMutations, MergeRequestSetMilestonePayload: { mergeRequest: recordField(embedded(MERGE_REQUEST_RECORD)) }, MergeRequestSetSubscriptionPayload: { mergeRequest: recordField(embedded(MERGE_REQUEST_RECORD)) }, MergeRequestSetLabelsPayload: { mergeRequest: recordField(embedded(MERGE_REQUEST_RECORD)) }, MergeRequestSetLockedPayload: { mergeRequest: recordField(embedded(MERGE_REQUEST_RECORD)) }, MergeRequestSetAssigneesPayload: { mergeRequest: recordField(embedded(MERGE_REQUEST_RECORD)) }, MergeRequestUpdatePayload: { mergeRequest: recordField(embedded(MERGE_REQUEST_RECORD)) } };

import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, oneCall } from '../../cost/field-cost.js';
import type { IssueKey } from '../../datasources/issues.js';
import type { TimeStatsSchema } from '../../datasources/issuable-schemas.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import type { Loaders } from '../../datasources/loaders.js';
import { idFromGlobalId } from '../global-id.js';
import { checkDuration } from './duration.js';
import { issueKeyFromInput } from './key.js';
import { issueKeyOfGlobalId } from './issue-writes.js';
import { sidebarMutations } from './sidebar-mutations.js';
import { noteMutations } from './notes.js';
import { checkMetricImage } from './metric-images.js';
import { refusalReasons } from '../refusals.js';
import { ISSUE_RECORD } from '../../cost/shapes.js';
import { recordField } from '../../fields/patterns.js';

type TimeTrackingMutation = 'issueTimeEstimateSet' | 'issueTimeEstimateReset' | 'issueSpentTimeAdd' | 'issueSpentTimeReset';

/**
 * A time tracking write: REST answers the time stats; a refusal (REST's validation errors, such as
 * subtracting more than was spent) is the payload's `errors`.
 */
async function trackTime(clientMutationId: string | null | undefined, key: IssueKey, loaders: Loaders, write: () => Promise<TimeStatsSchema>) {
  try {
    const timeStats = await write();
    loaders.issue.clear(key);
    return { clientMutationId: clientMutationId ?? null, errors: [], timeStats };
  } catch (error) {
    const reasons = refusalReasons(error);
    if (reasons) return { clientMutationId: clientMutationId ?? null, errors: reasons, timeStats: null };
    throw error;
  }
}

const timeTrackingMutations: Pick<MutationResolvers, TimeTrackingMutation> = {
  issueTimeEstimateSet: declared({ ...oneCall(), rest: ['POST /projects/:id/issues/:issue_iid/time_estimate'] }, (_parent, { input }, { api, loaders }) => {
    const key = issueKeyFromInput(input);
    const duration = checkDuration(input.duration, { signed: false });
    return trackTime(input.clientMutationId, key, loaders, () => api.issues.setTimeEstimate(key, duration));
  }),
  issueTimeEstimateReset: declared({ ...oneCall(), rest: ['POST /projects/:id/issues/:issue_iid/reset_time_estimate'] }, (_parent, { input }, { api, loaders }) => {
    const key = issueKeyFromInput(input);
    return trackTime(input.clientMutationId, key, loaders, () => api.issues.resetTimeEstimate(key));
  }),
  issueSpentTimeAdd: declared({ ...oneCall(), rest: ['POST /projects/:id/issues/:issue_iid/add_spent_time'] }, (_parent, { input }, { api, loaders }) => {
    const key = issueKeyFromInput(input);
    const duration = checkDuration(input.duration, { signed: true });
    return trackTime(input.clientMutationId, key, loaders, () => api.issues.addSpentTime(key, duration, input.summary ?? undefined));
  }),
  issueSpentTimeReset: declared({ ...oneCall(), rest: ['POST /projects/:id/issues/:issue_iid/reset_spent_time'] }, (_parent, { input }, { api, loaders }) => {
    const key = issueKeyFromInput(input);
    return trackTime(input.clientMutationId, key, loaders, () => api.issues.resetSpentTime(key));
  }),
};

const NOT_PROMOTED =
  'The issue was not promoted: REST did not run `/promote`. It needs GitLab PREMIUM, a project in a group, the Reporter role in that group, and an issue not promoted before.';

const issueMutations: Pick<MutationResolvers, 'todoCreate' | 'promoteToEpic' | 'metricImageUpload' | 'metricImageDelete' | TimeTrackingMutation> &
  typeof sidebarMutations &
  typeof noteMutations = {
  ...sidebarMutations,
  ...noteMutations,
  // GET /issues/:id (the target's project and iid), then the to-do.
  todoCreate: declared({ calls: 2, rest: ['GET /issues/:id', 'POST /projects/:id/issues/:issue_iid/todo'] }, async (_parent, { input }, context) => {
    const creation = await context.api.todos.createForIssue(await issueKeyOfGlobalId(input.targetId, 'targetId', context));
    // REST 304: the caller already has a pending to-do on the issue; that is an outcome, not an error.
    return { clientMutationId: input.clientMutationId ?? null, errors: [], todo: creation.todo, alreadyPending: !creation.created };
  }),

  ...timeTrackingMutations,

  // The `/promote` quick action is a note's POST.
  promoteToEpic: declared({ ...oneCall(), rest: ['POST /projects/:id/issues/:issue_iid/notes'] }, async (_parent, { input }, { api, loaders }) => {
    const key = issueKeyFromInput(input);
    const comment = input.comment?.trim();
    // The quick action must stand at the start of a line of its own (rest-v4-api.md).
    const body = comment ? `${comment}\n/promote` : '/promote';
    const creation = await api.notes.createOnIssue(key, body);
    const promoted = creation.commandsChanges['promote_to_epic'] === true;
    if (promoted) loaders.issue.clear(key);
    return {
      clientMutationId: input.clientMutationId ?? null,
      errors: promoted ? [] : [NOT_PROMOTED],
      promoted,
      note: creation.kind === 'note' ? creation.note : null,
    };
  }),

  metricImageUpload: declared({ ...oneCall(), rest: ['POST /projects/:id/issues/:issue_iid/metric_images'] }, async (_parent, { input }, { api }) => {
    const key = issueKeyFromInput(input);
    const file = checkMetricImage(input.file);
    if (input.url !== null && input.url !== undefined && !/^https?:\/\//i.test(input.url)) {
      throw badUserInput('`url` must be an http or https URL.', 'url');
    }
    const metricImage = await api.metricImages.upload(key, { file, url: input.url ?? undefined, urlText: input.urlText ?? undefined });
    return { clientMutationId: input.clientMutationId ?? null, errors: [], metricImage };
  }),

  metricImageDelete: declared({ ...oneCall(), rest: ['DELETE /projects/:id/issues/:issue_iid/metric_images/:image_id'] }, async (_parent, { input }, { api }) => {
    const key = issueKeyFromInput(input);
    const imageId = idFromGlobalId(input.id, 'IssuableMetricImage', 'id');
    try {
      await api.metricImages.remove(key, imageId);
    } catch (error) {
      // rest-v4-api.md "Errors": 400 when the image could not be deleted, an outcome for the payload.
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId: input.clientMutationId ?? null, errors: reasons };
      throw error;
    }
    return { clientMutationId: input.clientMutationId ?? null, errors: [] };
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: issueMutations, CreateIssuePayload: { issue: recordField(embedded(ISSUE_RECORD)) }, UpdateIssuePayload: { issue: recordField(embedded(ISSUE_RECORD)) }, IssueMovePayload: { issue: recordField(embedded(ISSUE_RECORD)) }, IssueSetAssigneesPayload: { issue: recordField(embedded(ISSUE_RECORD)) }, IssueSetConfidentialPayload: { issue: recordField(embedded(ISSUE_RECORD)) }, IssueSetLockedPayload: { issue: recordField(embedded(ISSUE_RECORD)) }, IssueSetDueDatePayload: { issue: recordField(embedded(ISSUE_RECORD)) }, IssueSetSubscriptionPayload: { issue: recordField(embedded(ISSUE_RECORD)) } };

// The issue sidebar's subscriptions (`issuableAssigneesUpdated`, `issuableLabelsUpdated`, ...):
// each names an issue by its global ID and watches one aspect of it through the shared pollers.
import { GraphQLError } from 'graphql';
import type { IssuableResolvers, SubscriptionResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { ISSUE_RECORD } from '../../cost/shapes.js';
import type { Credential } from '../../datasources/credentials.js';
import type { IssueKey, IssueSchema } from '../../datasources/issues.js';
import { RestError } from '../../datasources/rest-error.js';
import { badUserInput, graphQLErrorFromRest } from '../../errors/graphql-errors.js';
import { declared, type DeclarationSpec } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { watchIssuable, type IssuableAspect, type IssuableEvent } from '../../subscriptions/issuable-updates.js';
import { parseGlobalId } from '../global-id.js';
import { issueKeyOf } from '../issues/key.js';

type IssuableSubscriptionField =
  | 'issuableAssigneesUpdated'
  | 'issuableLabelsUpdated'
  | 'issuableMilestoneUpdated'
  | 'issuableDatesUpdated'
  | 'issuableTitleUpdated'
  | 'issuableDescriptionUpdated'
  | 'issuableTimeTrackingUpdated';

/** Each field and the aspect of the issue it watches. */
const ASPECT_OF_FIELD: Readonly<Record<IssuableSubscriptionField, IssuableAspect>> = {
  issuableAssigneesUpdated: 'assignees',
  issuableLabelsUpdated: 'labels',
  issuableMilestoneUpdated: 'milestone',
  issuableDatesUpdated: 'dates',
  issuableTitleUpdated: 'title',
  issuableDescriptionUpdated: 'description',
  issuableTimeTrackingUpdated: 'timeTracking',
};

/** An issue's REST record, marked so that the `Issuable` union knows it from a merge request's. */
type IssueOfIssuable = IssueSchema & { __typename: 'Issue' };

function requireCredential(credential: Credential | null): Credential {
  if (credential) return credential;
  throw new GraphQLError('Subscribing to an issue needs a credential in the connection_init payload.', { extensions: { code: 'UNAUTHENTICATED' } });
}

/**
 * The issue a subscription names: remembered from what the gateway served this credential, or else
 * REST's look-up by global id, which is for administrators only. Anyone else is told how to
 * subscribe rather than given REST's bare 403.
 */
async function issueToWatch(issuableId: string, credential: Credential, context: GatewayContext): Promise<{ id: number; key: IssueKey }> {
  const { className, id } = parseGlobalId(issuableId, 'issuableId');
  if (className !== 'Issue') {
    throw badUserInput(`\`issuableId\`: the gateway watches issues only; a ${className} cannot be watched (REST has no look-up of one by global ID).`, 'issuableId');
  }
  const remembered = await context.issueReferences.find(credential, id);
  if (remembered) return { id, key: remembered };
  try {
    return { id, key: issueKeyOf(await context.loaders.issueById.load(id)) };
  } catch (error) {
    if (!(error instanceof RestError) || error.status !== 403) throw error;
    throw new GraphQLError(
      `Not allowed: REST finds an issue by its global ID for administrators only (GET /issues/:id). Read the issue through this gateway with the same credential first (a query that selects its \`id\`, such as project(fullPath:) { issue(iid:) { id } }), then subscribe.`,
      { extensions: { code: 'FORBIDDEN', restStatus: 403 } },
    );
  }
}

/** Subscribes the caller to one aspect of the issue `issuableId` names. */
async function subscribeToIssuable(field: IssuableSubscriptionField, issuableId: string, context: GatewayContext): Promise<AsyncIterableIterator<IssuableEvent>> {
  const credential = requireCredential(context.credential);
  const issue = await issueToWatch(issuableId, credential, context);
  return watchIssuable(context.pollers, credential, issue, ASPECT_OF_FIELD[field]);
}

/** An event as the subscriber sees it: the issue, or the error that ended the watch (then the stream ends). */
function resolveIssuableEvent(event: IssuableEvent): IssueOfIssuable {
  if ('error' in event) throw graphQLErrorFromRest(event.error);
  // Each event reads label details afresh (GatewayContext.beginEvent gives it fresh loaders), so a
  // label created since the subscription began is not missing its color and ID.
  return { ...event.record, __typename: 'Issue' };
}

/**
 * GET /issues/:id when the issue was not served to the caller before, then the first poll of the
 * issue (shared with every subscription to it); events carry GET /projects/:id/issues/:iid records.
 */
const WATCHING_AN_ISSUE: DeclarationSpec = { calls: 2, returns: ISSUE_RECORD, rest: ['GET /issues/:id', 'GET /projects/:id/issues/:issue_iid'] };

const issuableSubscriptions: Pick<SubscriptionResolvers, IssuableSubscriptionField> = {
  issuableAssigneesUpdated: {
    subscribe: declared(WATCHING_AN_ISSUE, (_parent, { issuableId }, context) => subscribeToIssuable('issuableAssigneesUpdated', issuableId, context)),
    resolve: (event: IssuableEvent) => resolveIssuableEvent(event),
  },
  issuableLabelsUpdated: {
    subscribe: declared(WATCHING_AN_ISSUE, (_parent, { issuableId }, context) => subscribeToIssuable('issuableLabelsUpdated', issuableId, context)),
    resolve: (event: IssuableEvent) => resolveIssuableEvent(event),
  },
  issuableMilestoneUpdated: {
    subscribe: declared(WATCHING_AN_ISSUE, (_parent, { issuableId }, context) => subscribeToIssuable('issuableMilestoneUpdated', issuableId, context)),
    resolve: (event: IssuableEvent) => resolveIssuableEvent(event),
  },
  issuableDatesUpdated: {
    subscribe: declared(WATCHING_AN_ISSUE, (_parent, { issuableId }, context) => subscribeToIssuable('issuableDatesUpdated', issuableId, context)),
    resolve: (event: IssuableEvent) => resolveIssuableEvent(event),
  },
  issuableTitleUpdated: {
    subscribe: declared(WATCHING_AN_ISSUE, (_parent, { issuableId }, context) => subscribeToIssuable('issuableTitleUpdated', issuableId, context)),
    resolve: (event: IssuableEvent) => resolveIssuableEvent(event),
  },
  issuableDescriptionUpdated: {
    subscribe: declared(WATCHING_AN_ISSUE, (_parent, { issuableId }, context) => subscribeToIssuable('issuableDescriptionUpdated', issuableId, context)),
    resolve: (event: IssuableEvent) => resolveIssuableEvent(event),
  },
  issuableTimeTrackingUpdated: {
    subscribe: declared(WATCHING_AN_ISSUE, (_parent, { issuableId }, context) => subscribeToIssuable('issuableTimeTrackingUpdated', issuableId, context)),
    resolve: (event: IssuableEvent) => resolveIssuableEvent(event),
  },
};

/** The union's members: subscriptions mark their records; a merge request record has branches. */
export const Issuable: IssuableResolvers = {
  __resolveType: (record) => {
    if ('__typename' in record && (record.__typename === 'Issue' || record.__typename === 'MergeRequest')) return record.__typename;
    return 'source_branch' in record ? 'MergeRequest' : 'Issue';
  },
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Issuable, Subscription: issuableSubscriptions };

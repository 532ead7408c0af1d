import type { MutationResolvers } from '../../__generated__/resolvers-types.js';
import type { MergeRequestKey } from '../../datasources/merge-requests.js';
import { idFromGlobalId } from '../global-id.js';
import { checkFullPath } from '../projects/Query.js';
import { refusalReasons } from '../refusals.js';
import { checkIid } from './key.js';

/** The merge request a mutation names by `projectPath` and `iid`, checked before any REST call. */
function mergeRequestKeyFromInput(input: { projectPath: string; iid: string }): MergeRequestKey {
  return { project: checkFullPath(input.projectPath, 'projectPath'), iid: checkIid(input.iid) };
}

/** GitLab's merge request sidebar writes, each one REST write; the loader forgets the merge request so later reads see the change. */
export const mergeRequestMutations: Pick<MutationResolvers, 'mergeRequestSetMilestone' | 'mergeRequestSetSubscription'> = {
  async mergeRequestSetMilestone(_parent, { input }, context) {
    const key = mergeRequestKeyFromInput(input);
    // REST takes 0 for "no milestone"; a null or absent milestoneId takes it away, as in GitLab.
    const milestoneId = input.milestoneId ? idFromGlobalId(input.milestoneId, 'Milestone', 'milestoneId') : 0;
    const clientMutationId = input.clientMutationId ?? null;
    try {
      const mergeRequest = await context.api.mergeRequests.edit(key, { milestone_id: milestoneId });
      context.loaders.mergeRequest.clear(key);
      return { clientMutationId, errors: [], mergeRequest };
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, mergeRequest: null };
      throw error;
    }
  },

  async mergeRequestSetSubscription(_parent, { input }, context) {
    const key = mergeRequestKeyFromInput(input);
    const changed = await context.api.mergeRequests.setSubscription(key, input.subscribedState);
    context.loaders.mergeRequest.clear(key);
    // REST 304: already so; the merge request is read as it stands.
    return { clientMutationId: input.clientMutationId ?? null, errors: [], mergeRequest: changed ?? (await context.loaders.mergeRequest.load(key)) };
  },
};

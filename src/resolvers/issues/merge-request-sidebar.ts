import type { MergeRequestResolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection, restConnection } from '../../connections/connection.js';
import { restList } from '../../cost/field-cost.js';
import { USER_SUMMARY } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { MAX_ASSIGNEES, mergeRequestKeyOf, projectIdOf, readsWholeRecord, wholeRecordField } from './merge-request-record.js';

/**
 * What GitLab's merge request sidebar reads beside the record: whether the caller is subscribed,
 * the reviewers, the participants and the caller's to-dos.
 */
export const mergeRequestSidebarFields: Pick<MergeRequestResolvers, 'subscribed' | 'reviewers' | 'participants' | 'currentUserTodos'> = {
  // List records leave `subscribed` out (REST presents lists with `include_subscribed: false`): it is
  // the single read's only, and `reviewers` in no documentation example, so either may cost that read.
  subscribed: declared(readsWholeRecord('subscribed'), async (mergeRequest, _args, context) => (await wholeRecordField(mergeRequest, 'subscribed', context)) ?? false),
  reviewers: declared(readsWholeRecord('reviewers', { items: MAX_ASSIGNEES, returns: USER_SUMMARY }), async (mergeRequest, args, context) =>
    arrayConnection(args, (await wholeRecordField(mergeRequest, 'reviewers', context)) ?? []),
  ),
  // GET /projects/:id/merge_requests/:merge_request_iid/participants, paginated.
  participants: declared({ ...restList(USER_SUMMARY), rest: ['GET /projects/:id/merge_requests/:merge_request_iid/participants'] }, (mergeRequest, args, { api }) =>
    restConnection(args, (page) => api.mergeRequests.participants(mergeRequestKeyOf(mergeRequest), page)),
  ),
  // REST cannot filter to-dos by target, so the project's merge request to-dos are read once per
  // state and request (GET /todos) and filtered here, as for issues.
  currentUserTodos: declared({ calls: 1, items: 'window', rest: ['GET /todos'] }, async (mergeRequest, args, { credential, loaders }) => {
    if (!credential) return arrayConnection(args, []);
    const todos = await loaders.projectIssueTodos.load({ project: projectIdOf(mergeRequest), state: args.state ?? undefined, targetType: 'MergeRequest' });
    return arrayConnection(args, todos.filter((todo) => todo.target_type === 'MergeRequest' && todo.target?.iid === mergeRequest.iid));
  }),
};

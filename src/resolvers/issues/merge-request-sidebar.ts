import type { MergeRequestResolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection, restConnection } from '../../connections/connection.js';
import { mergeRequestKeyOf, projectIdOf, wholeRecordField } from './merge-request-record.js';

/**
 * What GitLab's merge request sidebar reads beside the record: whether the caller is subscribed,
 * the reviewers, the participants and the caller's to-dos.
 */
export const mergeRequestSidebarFields: Pick<MergeRequestResolvers, 'subscribed' | 'reviewers' | 'participants' | 'currentUserTodos'> = {
  // List records leave `subscribed` out (REST presents lists with `include_subscribed: false`).
  subscribed: async (mergeRequest, _args, context) => (await wholeRecordField(mergeRequest, 'subscribed', context)) ?? false,
  reviewers: async (mergeRequest, args, context) => arrayConnection(args, (await wholeRecordField(mergeRequest, 'reviewers', context)) ?? []),
  participants: (mergeRequest, args, { api }) => restConnection(args, (page) => api.mergeRequests.participants(mergeRequestKeyOf(mergeRequest), page)),
  // REST cannot filter to-dos by target, so the project's merge request to-dos are read once per
  // state and request and filtered here, as for issues.
  async currentUserTodos(mergeRequest, args, { credential, loaders }) {
    if (!credential) return arrayConnection(args, []);
    const todos = await loaders.projectIssueTodos.load({ project: projectIdOf(mergeRequest), state: args.state ?? undefined, targetType: 'MergeRequest' });
    return arrayConnection(args, todos.filter((todo) => todo.target_type === 'MergeRequest' && todo.target?.iid === mergeRequest.iid));
  },
};

// GitLab's `todosMarkAllDone`, over REST's to-do list and its two ways of marking to-dos done.
import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { UNBOUNDED_ARRAY_ITEMS } from '../../cost/field-cost.js';
import { everyPage } from '../../datasources/every-page.js';
import { MOST_PENDING_TO_DO_PAGES, type TodoSchema } from '../../datasources/todos.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { recordField } from '../../fields/patterns.js';
import { parseGlobalId } from '../global-id.js';

/** The to-dos' issue or merge request, by class and id: the only targets REST's `type` filter and the gateway's Todoable share. */
function targetOf(targetId: string): { type: 'Issue' | 'MergeRequest'; id: number } {
  const { className, id } = parseGlobalId(targetId, 'targetId');
  if (className !== 'Issue' && className !== 'MergeRequest') {
    throw badUserInput(`\`targetId\` must be an Issue or a MergeRequest global ID; the gateway serves no to-dos of a ${className}.`, 'targetId');
  }
  return { type: className, id };
}

const todoMutations: Pick<MutationResolvers, 'todosMarkAllDone'> = {
  /**
   * GitLab answers the to-dos it marked; REST's mark-all answers none (204), so the pending ones are
   * read first. Without a target, REST marks them all at once; with one, REST cannot mark a target's
   * to-dos together, so each of them is marked on its own.
   */
  // The pending to-dos' pages, then REST's mark-all, or one mark per to-do of the target (a user has
  // a few on one target: one per action, at most REST's default page of them is assumed).
  todosMarkAllDone: declared(
    {
      calls: (args) => MOST_PENDING_TO_DO_PAGES + ((args['input'] as { targetId?: unknown } | undefined)?.targetId ? UNBOUNDED_ARRAY_ITEMS : 1),
      rest: ['GET /todos', 'POST /todos/mark_as_done', 'POST /todos/:id/mark_as_done'],
    },
    async (_parent, { input }, { api }) => {
      const target = input.targetId ? targetOf(input.targetId) : undefined;
      const pending = await everyPage((page) => api.todos.pending(page, target?.type), { maxPages: MOST_PENDING_TO_DO_PAGES });
      let todos: TodoSchema[];
      if (target) {
        const ofTarget = pending.filter((todo) => todo.target?.id === target.id);
        todos = await Promise.all(ofTarget.map((todo) => api.todos.markDone(todo.id)));
      } else {
        await api.todos.markAllDone();
        todos = pending.map((todo) => ({ ...todo, state: 'done' }));
      }
      return { clientMutationId: input.clientMutationId ?? null, errors: [], todos };
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = {
  Mutation: todoMutations,
  // The to-dos read before marking them: at most the pages read.
  TodosMarkAllDonePayload: { todos: recordField({ items: MOST_PENDING_TO_DO_PAGES * 100 }) },
};

// The caller's to-do list (GitLab's REST "To-Do lists"): `GET /todos` with its filters, newest
// first, pending unless asked otherwise; marking one or all done. Only the caller's own to-dos
// exist for them: another user's to-do id is a 404.
import type { Todo, User } from '../data/model.js';
import { todoEntity } from '../entities/todos.js';
import { messageError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { created, noContent, notModified, type ApiResponse } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';

/** The groups whose projects a `group_id` filter covers: the group and its subgroups. */
function projectIdsOfGroup(ctx: RequestContext<unknown>, groupId: number): Set<number> {
  const group = ctx.state.groups.get(groupId);
  if (!group) return new Set();
  const groupIds = new Set(ctx.state.groupSubtree(group).map((g) => g.id));
  return new Set([...ctx.state.projects.values()].filter((project) => project.namespace.kind === 'group' && groupIds.has(project.namespace.groupId)).map((project) => project.id));
}

/**
 * GitLab's POST .../todo on an issue or a merge request: a to-do the caller marks for themself (201
 * with it), or 304 with no body while one of theirs on the target is pending (rest-conventions §5).
 */
export function markTodo(ctx: RequestContext<unknown>, user: User, target: { type: Todo['targetType']; id: number; title: string }): ApiResponse {
  const pending = [...ctx.state.todos.values()].some((todo) => todo.userId === user.id && todo.targetType === target.type && todo.targetId === target.id && todo.state === 'pending');
  if (pending) return notModified();
  const id = ctx.state.nextId('todos');
  const todo: Todo = { id, userId: user.id, authorId: user.id, targetType: target.type, targetId: target.id, actionName: 'marked', state: 'pending', body: target.title, createdAt: ctx.state.now.toISOString() };
  ctx.state.todos.set(id, todo);
  return created(todoEntity(ctx, todo));
}

const TARGET_TYPES = ['Issue', 'MergeRequest', 'Commit', 'Epic', 'DesignManagement::Design', 'AlertManagement::Alert', 'Project', 'Namespace', 'Vulnerability', 'WikiPage::Meta'];

export function registerTodoRoutes(router: Router): void {
  const listParams = {
    action: p.string().values(['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required', 'unmergeable', 'directly_addressed', 'merge_train_removed', 'member_access_requested']),
    author_id: p.integer(),
    project_id: p.integer(),
    group_id: p.integer(),
    state: p.string().values(['pending', 'done']),
    type: p.string().values(TARGET_TYPES),
  };

  router.get('/todos', { auth: 'required', paginated: true, params: listParams }, (ctx) => {
    const { action, author_id: authorId, project_id: projectId, group_id: groupId, state, type } = ctx.params;
    const inGroup = groupId === undefined ? undefined : projectIdsOfGroup(ctx, groupId);
    const projectOf = (todo: Todo) => (todo.targetType === 'Issue' ? ctx.state.issues : ctx.state.mergeRequests).get(todo.targetId)?.projectId;
    const todos = [...ctx.state.todos.values()]
      .filter((todo) => todo.userId === ctx.user!.id && todo.state === (state ?? 'pending'))
      .filter((todo) => type === undefined || todo.targetType === type)
      .filter((todo) => action === undefined || todo.actionName === action)
      .filter((todo) => authorId === undefined || todo.authorId === authorId)
      .filter((todo) => projectId === undefined || projectOf(todo) === projectId)
      .filter((todo) => inGroup === undefined || inGroup.has(projectOf(todo) ?? -1))
      .sort((a, b) => b.id - a.id);
    return paginate(ctx, todos, (todo) => todoEntity(ctx, todo));
  });

  // `current_user.todos.find(id)`: ActiveRecord's RecordNotFound answer (rest-conventions §6.1).
  router.post('/todos/:id/mark_as_done', { auth: 'required', params: { id: p.integer().required() } }, (ctx) => {
    const todo = ctx.state.todos.get(ctx.params.id);
    if (!todo || todo.userId !== ctx.user!.id) throw messageError(404, '404 Not found');
    todo.state = 'done';
    return created(todoEntity(ctx, todo));
  });

  router.post('/todos/mark_as_done', { auth: 'required', params: {} }, (ctx) => {
    for (const todo of ctx.state.todos.values()) if (todo.userId === ctx.user!.id) todo.state = 'done';
    return noContent();
  });
}

import type { MutationResolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { ISSUE_RECORD } from '../../cost/shapes.js';
import type { IssueKey, IssueSchema, IssueWriteBody } from '../../datasources/issues.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared, type DeclarationSpec } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { idFromGlobalId } from '../global-id.js';
import { checkFullPath } from '../projects/Query.js';
import { refusalReasons } from '../refusals.js';
import { checkDuration } from './duration.js';
import { parseHumanDuration } from './human-duration.js';
import { assigneeIdsFor, issueKeyOfGlobalId, labelIdsOf, labelTitles, shareProjectLabels } from './issue-writes.js';
import { issueKeyFromInput } from './key.js';

type SidebarMutation =
  | 'createIssue'
  | 'updateIssue'
  | 'issueMove'
  | 'issueSetAssignees'
  | 'issueSetConfidential'
  | 'issueSetLocked'
  | 'issueSetDueDate'
  | 'issueSetSubscription'
  | 'todoMarkDone'
  | 'timelogCreate';

/**
 * A write that answers the issue: REST's refusals (400/422 with reasons) are the payload's
 * `errors`, and the issue loader forgets the issue so that later reads see the change.
 */
async function writeIssue(clientMutationId: string | null | undefined, context: GatewayContext, key: IssueKey | null, write: () => Promise<IssueSchema>) {
  try {
    const issue = await write();
    if (key) context.loaders.issue.clear(key);
    return { clientMutationId: clientMutationId ?? null, errors: [], issue };
  } catch (error) {
    const reasons = refusalReasons(error);
    if (reasons) return { clientMutationId: clientMutationId ?? null, errors: reasons, issue: null };
    throw error;
  }
}

/** A due date as REST takes it: the date part of a Time (`2025-01-31T...` -> `2025-01-31`), `''` to clear. */
function dueDateOf(value: string | null): string {
  return value === null ? '' : value.slice(0, 10);
}

/** REST's `issue_type` from GitLab's IssueType: REST creates and edits issues, incidents and test cases only. */
function issueTypeOf(type: string | null | undefined): string | undefined {
  if (type === null || type === undefined) return undefined;
  if (!['issue', 'incident', 'test_case'].includes(type)) throw badUserInput('`type` must be ISSUE, INCIDENT or TEST_CASE: REST writes no other type.', 'type');
  return type;
}

function checkWeight(weight: number | null | undefined): number | null | undefined {
  if (weight !== null && weight !== undefined && (weight < 0 || weight > 9)) throw badUserInput('`weight` must be 0 to 9.', 'weight');
  return weight;
}

const ISSUE_READ = 'GET /projects/:id/issues/:issue_iid';
const ISSUE_EDIT = 'PUT /projects/:id/issues/:issue_iid';
/** REST's single-issue record, which the sidebar's writes answer. */
const ONE_ISSUE_EDIT: DeclarationSpec = { ...oneCall(ISSUE_RECORD), rest: [ISSUE_EDIT] };

/** GitLab's sidebar writes, each one REST write (plus the look-ups its IDs and names need). */
export const sidebarMutations: Pick<MutationResolvers, SidebarMutation> = {
  // The project's labels when labelIds are given, then the POST.
  createIssue: declared({ calls: 2, returns: ISSUE_RECORD, rest: ['GET /projects/:id/labels', 'POST /projects/:id/issues'] }, async (_parent, { input }, context) => {
    const project = checkFullPath(input.projectPath, 'projectPath');
    if (!input.title.trim()) throw badUserInput('`title` must not be empty.', 'title');
    const labelIds = labelIdsOf(input.labelIds ?? [], 'labelIds');
    const body: IssueWriteBody = {
      title: input.title,
      description: input.description ?? undefined,
      confidential: input.confidential ?? undefined,
      due_date: input.dueDate ?? undefined,
      issue_type: issueTypeOf(input.type),
      assignee_ids: input.assigneeIds?.map((id) => idFromGlobalId(id, 'User', 'assigneeIds')),
      milestone_id: input.milestoneId ? idFromGlobalId(input.milestoneId, 'Milestone', 'milestoneId') : undefined,
      weight: checkWeight(input.weight) ?? undefined,
      created_at: input.createdAt ?? undefined,
      iid: input.iid ?? undefined,
    };
    const titles = [...(input.labels ?? []), ...(await labelTitles(project, labelIds, 'labelIds', context))];
    if (titles.some((title) => title.includes(','))) throw badUserInput('`labels` titles must not contain commas.', 'labels');
    if (titles.length > 0) body.labels = titles.join(',');
    return writeIssue(input.clientMutationId, context, null, async () => {
      const issue = await context.api.issues.create(project, body);
      if (labelIds.length > 0) await shareProjectLabels(project, issue.project_id, context);
      return issue;
    });
  }),

  // The project's labels (one call for all three lists), the estimate's POST, then the PUT (or, with
  // only the estimate, the single read).
  updateIssue: declared(
    {
      calls: 3,
      returns: ISSUE_RECORD,
      rest: ['GET /projects/:id/labels', 'POST /projects/:id/issues/:issue_iid/time_estimate', ISSUE_EDIT, ISSUE_READ],
    },
    async (_parent, { input }, context) => {
      const key = issueKeyFromInput(input);
      if (input.labelIds && (input.addLabelIds || input.removeLabelIds)) {
        throw badUserInput('`labelIds` replaces the labels; give it or `addLabelIds`/`removeLabelIds`, not both.', 'labelIds');
      }
      const estimate = input.timeEstimate === null || input.timeEstimate === undefined ? undefined : checkDuration(input.timeEstimate, { signed: false });
      const body: IssueWriteBody = {
        title: input.title ?? undefined,
        description: input.description ?? undefined,
        confidential: input.confidential ?? undefined,
        discussion_locked: input.locked ?? undefined,
        issue_type: issueTypeOf(input.type),
        state_event: input.stateEvent ?? undefined,
      };
      if (input.title !== undefined && !input.title?.trim()) throw badUserInput('`title` must not be empty.', 'title');
      if (input.dueDate !== undefined) body.due_date = dueDateOf(input.dueDate);
      // REST unassigns the milestone with 0.
      if (input.milestoneId !== undefined) body.milestone_id = input.milestoneId === null ? 0 : idFromGlobalId(input.milestoneId, 'Milestone', 'milestoneId');
      if (input.weight !== undefined) body.weight = checkWeight(input.weight) ?? null;
      const [labels, addLabels, removeLabels] = await Promise.all(
        (['labelIds', 'addLabelIds', 'removeLabelIds'] as const).map((name) => {
          const ids = input[name];
          return ids ? labelTitles(key.project, labelIdsOf(ids, name), name, context) : Promise.resolve(undefined);
        }),
      );
      if (labels) body.labels = labels.join(',');
      if (addLabels) body.add_labels = addLabels.join(',');
      if (removeLabels) body.remove_labels = removeLabels.join(',');
      return writeIssue(input.clientMutationId, context, key, async () => {
        // The estimate has its own endpoint; REST's PUT does not take it.
        if (estimate !== undefined) await context.api.issues.setTimeEstimate(key, estimate);
        const changes = Object.values(body).some((value) => value !== undefined);
        const issue = changes ? await context.api.issues.edit(key, body) : await context.api.issues.show(key);
        if (labels ?? addLabels ?? removeLabels) await shareProjectLabels(key.project, issue.project_id, context);
        return issue;
      });
    },
  ),

  // The target project by path, then the move.
  issueMove: declared({ calls: 2, returns: ISSUE_RECORD, rest: ['GET /projects/:id', 'POST /projects/:id/issues/:issue_iid/move'] }, async (_parent, { input }, context) => {
    const key = issueKeyFromInput(input);
    // REST moves to a project by numeric id: the target's path is looked up first.
    const target = await context.loaders.project.load(checkFullPath(input.targetProjectPath, 'targetProjectPath'));
    return writeIssue(input.clientMutationId, context, key, () => context.api.issues.move(key, target.id));
  }),

  // One GET /users?username= per username, the issue (APPEND, REMOVE), then the PUT.
  issueSetAssignees: declared(
    {
      calls: (args) => ((args['input'] as { assigneeUsernames?: unknown[] } | undefined)?.assigneeUsernames?.length ?? 0) + 2,
      returns: ISSUE_RECORD,
      rest: ['GET /users', ISSUE_READ, ISSUE_EDIT],
    },
    async (_parent, { input }, context) => {
      const key = issueKeyFromInput(input);
      const assignees = await assigneeIdsFor(input.assigneeUsernames, input.operationMode, async () => (await context.loaders.issue.load(key)).assignees, context);
      return writeIssue(input.clientMutationId, context, key, () => context.api.issues.edit(key, { assignee_ids: assignees }));
    },
  ),

  issueSetConfidential: declared(ONE_ISSUE_EDIT, (_parent, { input }, context) => {
    const key = issueKeyFromInput(input);
    return writeIssue(input.clientMutationId, context, key, () => context.api.issues.edit(key, { confidential: input.confidential }));
  }),

  issueSetLocked: declared(ONE_ISSUE_EDIT, (_parent, { input }, context) => {
    const key = issueKeyFromInput(input);
    return writeIssue(input.clientMutationId, context, key, () => context.api.issues.edit(key, { discussion_locked: input.locked }));
  }),

  issueSetDueDate: declared(ONE_ISSUE_EDIT, (_parent, { input }, context) => {
    const key = issueKeyFromInput(input);
    return writeIssue(input.clientMutationId, context, key, () => context.api.issues.edit(key, { due_date: dueDateOf(input.dueDate ?? null) }));
  }),

  // The (un)subscribe, and the issue when REST answered 304.
  issueSetSubscription: declared(
    {
      calls: 2,
      returns: ISSUE_RECORD,
      rest: ['POST /projects/:id/issues/:issue_iid/subscribe', 'POST /projects/:id/issues/:issue_iid/unsubscribe', ISSUE_READ],
    },
    async (_parent, { input }, context) => {
      const key = issueKeyFromInput(input);
      const changed = await context.api.issues.setSubscription(key, input.subscribedState);
      context.loaders.issue.clear(key);
      // REST 304: already so; the issue is read as it stands.
      return { clientMutationId: input.clientMutationId ?? null, errors: [], issue: changed ?? (await context.loaders.issue.load(key)) };
    },
  ),

  todoMarkDone: declared({ ...oneCall(), rest: ['POST /todos/:id/mark_as_done'] }, async (_parent, { input }, { api }) => {
    const todo = await api.todos.markDone(idFromGlobalId(input.id, 'Todo', 'id'));
    return { clientMutationId: input.clientMutationId ?? null, errors: [], todo };
  }),

  // GET /issues/:id, then add_spent_time.
  timelogCreate: declared({ calls: 2, rest: ['GET /issues/:id', 'POST /projects/:id/issues/:issue_iid/add_spent_time'] }, async (_parent, { input }, context) => {
    const seconds = parseHumanDuration(input.timeSpent);
    if (seconds === null || seconds === 0) {
      throw badUserInput(`\`timeSpent\` must be a duration such as 1h 30m, 2d or 1w 3d; got "${input.timeSpent.slice(0, 100)}".`, 'timeSpent');
    }
    // REST logs spent time at the moment of the call; another day cannot be recorded.
    if (input.spentAt.slice(0, 10) !== new Date().toISOString().slice(0, 10)) {
      throw badUserInput('`spentAt` must be today (UTC): REST records spent time when it is added.', 'spentAt');
    }
    const key = await issueKeyOfGlobalId(input.issuableId, 'issuableId', context);
    try {
      await context.api.issues.addSpentTime(key, input.timeSpent.trim(), input.summary || undefined);
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId: input.clientMutationId ?? null, errors: reasons };
      throw error;
    }
    context.loaders.issue.clear(key);
    return { clientMutationId: input.clientMutationId ?? null, errors: [] };
  }),
};

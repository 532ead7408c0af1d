// Creating, editing and moving an issue, and subscribing to it (GitLab's REST "Issues": POST
// /projects/:id/issues, PUT .../issues/:issue_iid, POST .../move, .../subscribe, .../unsubscribe).
// As GitLab's issuable services do: metadata (assignees, milestone, labels, due date, lock) is kept
// only from Reporters and above and silently dropped from others; unknown label names become new
// project labels; an unknown milestone clears it; new assignees get an `assigned` to-do.
import { projectAccessLevel } from '../../data/access.js';
import { milestoneById, milestonesOfGroups, projectLabelNamed } from '../../data/labels.js';
import { AccessLevel, type GroupMilestone, type Issue, type Milestone, type Project, type User } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { issueEntity } from '../../entities/issues.js';
import { forbidden, grapeError, messageError, notFound, validationError } from '../../http/errors.js';
import { p, type ParamsOf } from '../../http/params.js';
import { created, notModified, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { canReadIssuesOf, canUpdateIssue, issuesProject, visibleIssue } from './access.js';

/** Label::DEFAULT_COLOR, the color of a label an issue write creates. */
const NEW_LABEL_COLOR = '#6699cc';
const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'];

const writeParams = {
  title: p.string(),
  description: p.string(),
  confidential: p.boolean(),
  assignee_ids: p.integerArray().nullable(),
  assignee_id: p.integer().nullable(),
  milestone_id: p.integer().nullable(),
  labels: p.stringArray().commaSeparated(),
  due_date: p.string().nullable(),
  weight: p.integer().nullable(),
  issue_type: p.string().values(ISSUE_TYPES),
};

const updateParams = {
  ...writeParams,
  add_labels: p.stringArray().commaSeparated(),
  remove_labels: p.stringArray().commaSeparated(),
  state_event: p.string().values(['close', 'reopen']),
  discussion_locked: p.boolean(),
};

type WriteParams = Partial<ParamsOf<typeof updateParams>>;

/** `admin_issue` / `set_issue_metadata`: Reporters and above, and administrators. */
function mayEditMetadata(state: SimulatorState, user: User, project: Project): boolean {
  return user.isAdmin || projectAccessLevel(state, user, project) >= AccessLevel.REPORTER;
}

function validate(params: WriteParams): void {
  if (params.title !== undefined && params.title.trim() === '') throw validationError({ title: ["can't be blank"] });
  if (params.title !== undefined && params.title.length > 255) throw validationError({ title: ['is too long (maximum is 255 characters)'] });
  if (params.due_date && !/^\d{4}-\d{2}-\d{2}$/.test(params.due_date)) throw grapeError(400, 'due_date is invalid');
  if (params.weight !== undefined && params.weight !== null && params.weight < 0) throw validationError({ weight: ['must be greater than or equal to 0'] });
}

/** The label names as the issue keeps them; a name no label has becomes a project label. */
export function resolveLabels(state: SimulatorState, project: Project, names: readonly string[]): string[] {
  const result: string[] = [];
  for (const name of names) {
    const label = projectLabelNamed(state, project, name);
    if (!label) {
      const id = state.nextId('labels');
      state.labels.set(id, { id, projectId: project.id, name, color: NEW_LABEL_COLOR, description: null, priority: null });
    }
    if (!result.includes(name)) result.push(name);
  }
  return result;
}

/** A milestone of the project or of a group above it, or null (IssuableBaseService#filter_milestone). */
export function resolveMilestone(state: SimulatorState, project: Project, id: number | null): number | null {
  if (id === null || id === 0) return null;
  const milestone = milestoneById(state, id);
  if (!milestone) return null;
  if ('projectId' in milestone) return milestone.projectId === project.id ? id : null;
  const group = state.projectGroup(project);
  const groups = group ? [group, ...state.groupAncestors(group)] : [];
  return milestonesOfGroups(state, groups).some((candidate) => candidate.id === id) ? id : null;
}

function resolveAssignees(state: SimulatorState, params: WriteParams): number[] | undefined {
  const ids = params.assignee_ids !== undefined ? (params.assignee_ids ?? []) : params.assignee_id !== undefined ? [params.assignee_id ?? 0] : undefined;
  return ids?.filter((id) => state.users.has(id));
}

/** New assignees other than the one acting get a pending `assigned` to-do (TodoService#assign_issue). */
function notifyAssignees(state: SimulatorState, actor: User, issue: Issue, before: readonly number[]): void {
  for (const userId of issue.assigneeIds) {
    if (before.includes(userId) || userId === actor.id) continue;
    const id = state.nextId('todos');
    state.todos.set(id, { id, userId, authorId: actor.id, targetType: 'Issue', targetId: issue.id, actionName: 'assigned', state: 'pending', body: issue.title, createdAt: state.now.toISOString() });
  }
}

/** Applies what the caller may change; metadata only from those allowed to set it. */
function apply(state: SimulatorState, user: User, project: Project, issue: Issue, params: WriteParams): void {
  const before = [...issue.assigneeIds];
  if (params.title !== undefined) issue.title = params.title;
  if (params.description !== undefined) issue.description = params.description;
  if (params.confidential !== undefined) issue.confidential = params.confidential;
  if (params.issue_type !== undefined) issue.issueType = params.issue_type === 'task' ? 'issue' : (params.issue_type as Issue['issueType']);
  if (params.state_event === 'close' && issue.state === 'opened') {
    issue.state = 'closed';
    issue.closedAt = state.now.toISOString();
    issue.closedById = user.id;
  } else if (params.state_event === 'reopen' && issue.state === 'closed') {
    issue.state = 'opened';
    issue.closedAt = null;
    issue.closedById = null;
  }
  if (mayEditMetadata(state, user, project)) {
    const assignees = resolveAssignees(state, params);
    if (assignees !== undefined) issue.assigneeIds = [...new Set(assignees)];
    if (params.milestone_id !== undefined) issue.milestoneId = resolveMilestone(state, project, params.milestone_id);
    if (params.labels !== undefined) issue.labels = resolveLabels(state, project, params.labels);
    if (params.add_labels !== undefined) issue.labels = resolveLabels(state, project, [...issue.labels, ...params.add_labels]);
    if (params.remove_labels !== undefined) issue.labels = issue.labels.filter((name) => !params.remove_labels!.includes(name));
    if (params.due_date !== undefined) issue.dueDate = params.due_date === '' ? null : params.due_date;
    if (params.weight !== undefined) issue.weight = params.weight;
    if (params.discussion_locked !== undefined) issue.discussionLocked = params.discussion_locked;
  }
  issue.updatedAt = state.now.toISOString();
  notifyAssignees(state, user, issue, before);
}

function nextIid(state: SimulatorState, project: Project): number {
  return 1 + Math.max(0, ...[...state.issues.values()].filter((issue) => issue.projectId === project.id).map((issue) => issue.iid));
}

function blankIssue(state: SimulatorState, project: Project, author: User, title: string): Issue {
  const now = state.now.toISOString();
  return {
    id: state.nextId('issues'),
    iid: nextIid(state, project),
    projectId: project.id,
    title,
    description: '',
    state: 'opened',
    issueType: 'issue',
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    closedById: null,
    authorId: author.id,
    assigneeIds: [],
    milestoneId: null,
    labels: [],
    awards: [],
    dueDate: null,
    confidential: false,
    discussionLocked: false,
    weight: null,
    epicId: null,
    iterationId: null,
    healthStatus: null,
    severity: 'UNKNOWN',
    relativePosition: 0,
    timeEstimate: 0,
    totalTimeSpent: 0,
    tasks: { count: 0, completed: 0 },
    // The author takes part, so is subscribed (Subscribable#subscribed? for participants).
    subscriberIds: [author.id],
    userAgentDetail: null,
    promotedToEpicId: null,
    movedToId: null,
  };
}

/**
 * Issues::MoveService: a copy in the target project (new iid; labels and milestone kept where the
 * target has one of the same name), the original closed and pointing at it.
 */
function move(ctx: RequestContext<unknown>, user: User, issue: Issue, source: Project, target: Project): Issue {
  const { state } = ctx;
  if (target.id === source.id) throw messageError(400, 'Cannot move issue to project it originates from!');
  const mayCreate = canReadIssuesOf(state, user, target) && (user.isAdmin || projectAccessLevel(state, user, target) >= AccessLevel.GUEST);
  if (!mayEditMetadata(state, user, source) || !mayCreate) throw messageError(400, 'Cannot move issue due to insufficient permissions!');
  if (issue.movedToId) throw messageError(400, 'Cannot move issue which was already moved');
  const copy: Issue = {
    ...blankIssue(state, target, user, issue.title),
    description: issue.description,
    issueType: issue.issueType,
    authorId: issue.authorId,
    assigneeIds: [...issue.assigneeIds],
    labels: issue.labels.filter((name) => projectLabelNamed(state, target, name) !== undefined),
    milestoneId: resolveMilestoneByTitle(state, target, milestoneById(state, issue.milestoneId)?.title),
    dueDate: issue.dueDate,
    confidential: issue.confidential,
    weight: issue.weight,
    timeEstimate: issue.timeEstimate,
    totalTimeSpent: issue.totalTimeSpent,
    subscriberIds: [...issue.subscriberIds],
  };
  state.issues.set(copy.id, copy);
  const now = state.now.toISOString();
  Object.assign(issue, { state: 'closed', closedAt: issue.closedAt ?? now, closedById: issue.closedById ?? user.id, updatedAt: now, movedToId: copy.id });
  return copy;
}

function resolveMilestoneByTitle(state: SimulatorState, project: Project, title: string | undefined): number | null {
  if (title === undefined) return null;
  const group = state.projectGroup(project);
  const candidates: Array<Milestone | GroupMilestone> = [...state.milestones.values()].filter((m) => m.projectId === project.id);
  if (group) candidates.push(...milestonesOfGroups(state, [group, ...state.groupAncestors(group)]));
  return candidates.find((milestone) => milestone.title === title)?.id ?? null;
}

export function registerIssueWriteRoutes(router: Router): void {
  const issueParams = { id: p.string().required(), issue_iid: p.integer().required() };
  const base = '/projects/:id/issues/:issue_iid';

  router.post('/projects/:id/issues', { auth: 'required', params: { id: p.string().required(), ...writeParams, title: p.string().required() } }, (ctx) => {
    const project = issuesProject(ctx, ctx.params.id);
    const user = ctx.user!;
    validate(ctx.params);
    const issue = blankIssue(ctx.state, project, user, ctx.params.title);
    apply(ctx.state, user, project, issue, ctx.params);
    ctx.state.issues.set(issue.id, issue);
    return created(issueEntity(ctx, issue, { from: { kind: 'project' }, single: true }));
  });

  router.put(base, { auth: 'required', params: { ...issueParams, ...updateParams }, atLeastOneOf: Object.keys(updateParams) }, (ctx) => {
    const { project, issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    const user = ctx.user!;
    if (!canUpdateIssue(ctx.state, user, issue, project)) throw forbidden();
    validate(ctx.params);
    apply(ctx.state, user, project, issue, ctx.params);
    return ok(issueEntity(ctx, issue, { from: { kind: 'project' }, single: true }));
  });

  router.post(`${base}/move`, { auth: 'required', params: { ...issueParams, to_project_id: p.integer().required() } }, (ctx) => {
    const { project, issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    const target = ctx.state.projects.get(ctx.params.to_project_id);
    if (!target || !canReadIssuesOf(ctx.state, ctx.user, target)) throw notFound('Project');
    const copy = move(ctx, ctx.user!, issue, project, target);
    return created(issueEntity(ctx, copy, { from: { kind: 'project' }, single: true }));
  });

  // rest-conventions §5: 304, no body, when the caller already is (or is not) subscribed.
  for (const [action, subscribe] of [['subscribe', true], ['unsubscribe', false]] as const) {
    router.post(`${base}/${action}`, { auth: 'required', params: issueParams }, (ctx) => {
      const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
      const userId = ctx.user!.id;
      if (issue.subscriberIds.includes(userId) === subscribe) return notModified();
      issue.subscriberIds = subscribe ? [...issue.subscriberIds, userId] : issue.subscriberIds.filter((id) => id !== userId);
      return created(issueEntity(ctx, issue, { from: { kind: 'project' }, single: true }));
    });
  }
}

// Label and milestone shapes shared by issues and boards (GitLab's LabelBasic and Milestone
// entities; fixtures/boards/*.json, fixtures/issues/list-issues.json).
import type { GroupLabel, GroupMilestone, Label, Milestone } from '../data/model.js';
import type { PresentContext } from './context.js';

/** White text on dark labels, dark text on light ones, as GitLab picks `text_color`. */
function textColor(color: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1] ?? 'ffffff';
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  const luminance = (0.299 * (r ?? 0) + 0.587 * (g ?? 0) + 0.114 * (b ?? 0)) / 255;
  return luminance > 0.6 ? '#333333' : '#FFFFFF';
}

/** A label as boards, board lists and `with_labels_details=true` issue lists show it. */
export function labelBasic(label: Label | GroupLabel) {
  return {
    id: label.id,
    name: label.name,
    color: label.color,
    description: label.description,
    description_html: label.description ? `<p>${label.description}</p>` : '',
    text_color: textColor(label.color),
  };
}

/** The counts `with_counts=true` adds to a label of a label list. */
export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

/**
 * A label of `GET /projects/:id/labels` or `GET /groups/:id/labels` (GitLab's Entities::Label and
 * GroupLabel): a project's own labels carry their priority and `is_project_label: true`; the
 * ancestor groups' labels a project list includes have no priority.
 */
export function labelEntity(label: Label | GroupLabel, options: { subscribed: boolean; counts: LabelCounts | null; inProjectList: boolean }) {
  const isProjectLabel = 'projectId' in label;
  return {
    ...labelBasic(label),
    ...(options.counts ?? {}),
    subscribed: options.subscribed,
    ...(options.inProjectList ? { priority: isProjectLabel ? label.priority : null, is_project_label: isProjectLabel } : {}),
  };
}

/** GitLab's Milestone#expired?: a due date before today. */
function expired(ctx: PresentContext, milestone: Milestone | GroupMilestone): boolean {
  return milestone.dueDate !== null && milestone.dueDate < ctx.state.now.toISOString().slice(0, 10);
}

/** A group milestone (`GET /groups/:id/milestones`, and project lists with `include_ancestors=true`). */
export function groupMilestoneEntity(ctx: PresentContext, milestone: GroupMilestone) {
  const group = ctx.state.groups.get(milestone.groupId);
  return {
    id: milestone.id,
    iid: milestone.iid,
    group_id: milestone.groupId,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt,
    updated_at: milestone.updatedAt,
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    expired: expired(ctx, milestone),
    web_url: `${ctx.origin}/groups/${group ? ctx.state.groupFullPath(group) : ''}/-/milestones/${milestone.iid}`,
  };
}

function milestoneWebUrl(ctx: PresentContext, milestone: Milestone): string {
  const project = ctx.state.projects.get(milestone.projectId);
  return `${ctx.origin}/${project ? ctx.state.projectFullPath(project) : ''}/-/milestones/${milestone.iid}`;
}

/** The milestone of an issue or of an updated board; `closed_at` only in single-issue answers. */
export function milestoneEntity(ctx: PresentContext, milestone: Milestone, options: { withClosedAt?: boolean } = {}) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.projectId,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt,
    updated_at: milestone.updatedAt,
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    expired: expired(ctx, milestone),
    web_url: milestoneWebUrl(ctx, milestone),
    ...(options.withClosedAt ? { closed_at: milestone.closedAt } : {}),
  };
}

/** A board's milestone in board lists and single boards: id and title only (fixtures/boards/get-project-board.json). */
export function milestoneReference(milestone: Milestone) {
  return { id: milestone.id, title: milestone.title };
}

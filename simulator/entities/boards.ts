// Board and board list shapes (rest-v4-api.md "Issue board", "Board list"; fixtures/boards/*.json;
// GitLab 13.8 added `hide_backlog_list` and `hide_closed_list`, and a group board names its group).
// A board's project is GitLab's BasicProjectDetails (Entities::Board), in reads and writes alike.
// Lists and single boards give the milestone's id and title; an update gives the whole milestone.
import { milestoneById } from '../data/labels.js';
import type { Board, BoardList, Group, GroupLabel, GroupMilestone, Label, Milestone } from '../data/model.js';
import type { PresentContext } from './context.js';
import { groupMilestoneEntity, labelBasic, milestoneEntity } from './labels.js';
import { projectSimple } from './projects.js';
import { userSummary } from './users.js';

/** A project or group label, which share one id space. */
function labelById(ctx: PresentContext, id: number): Label | GroupLabel | undefined {
  return ctx.state.labels.get(id) ?? ctx.state.groupLabels.get(id);
}

/** A project milestone, or a group milestone as the group milestone API shows it. */
function fullMilestone(ctx: PresentContext, milestone: Milestone | GroupMilestone) {
  return 'projectId' in milestone ? milestoneEntity(ctx, milestone) : groupMilestoneEntity(ctx, milestone);
}

export function boardListEntity(ctx: PresentContext, list: BoardList) {
  const label = list.labelId === null ? undefined : labelById(ctx, list.labelId);
  const assignee = list.assigneeId === null ? undefined : ctx.state.users.get(list.assigneeId);
  const milestone = milestoneById(ctx.state, list.milestoneId);
  return {
    id: list.id,
    label: label ? labelBasic(label) : null,
    position: list.position,
    max_issue_count: list.maxIssueCount,
    max_issue_weight: list.maxIssueWeight,
    limit_metric: list.limitMetric,
    // PREMIUM list kinds.
    assignee: assignee ? userSummary(ctx, assignee) : null,
    milestone: milestone ? fullMilestone(ctx, milestone) : null,
  };
}

/** A board's lists in position order; the open and closed lists are not stored, so never shown. */
export function listsOfBoard(ctx: PresentContext, board: Board): BoardList[] {
  return [...ctx.state.boardLists.values()].filter((list) => list.boardId === board.id).sort((a, b) => a.position - b.position || a.id - b.id);
}

/** A group board's `group` (GitLab's BasicGroupDetails: id, name, web_url). */
function boardGroup(ctx: PresentContext, group: Group) {
  return { id: group.id, name: group.name, web_url: `${ctx.origin}/groups/${ctx.state.groupFullPath(group)}` };
}

export function boardEntity(ctx: PresentContext, board: Board, options: { updated?: boolean } = {}) {
  const project = board.projectId === null ? undefined : ctx.state.projects.get(board.projectId);
  const group = board.groupId === null ? undefined : ctx.state.groups.get(board.groupId);
  if (!project && !group) throw new Error(`board ${board.id} has no project and no group`);
  const milestone = milestoneById(ctx.state, board.milestoneId);
  const assignee = board.assigneeId === null ? undefined : ctx.state.users.get(board.assigneeId);
  return {
    id: board.id,
    name: board.name,
    hide_backlog_list: board.hideBacklogList,
    hide_closed_list: board.hideClosedList,
    project: project ? projectSimple(ctx, project) : null,
    milestone: milestone ? (options.updated ? fullMilestone(ctx, milestone) : { id: milestone.id, title: milestone.title }) : null,
    lists: listsOfBoard(ctx, board).map((list) => boardListEntity(ctx, list)),
    group: group ? boardGroup(ctx, group) : null,
    assignee: assignee ? userSummary(ctx, assignee) : null,
    labels: board.labelIds.flatMap((id) => {
      const label = labelById(ctx, id);
      return label ? [{ id: label.id, name: label.name, color: label.color, description: label.description }] : [];
    }),
    weight: board.weight,
  };
}

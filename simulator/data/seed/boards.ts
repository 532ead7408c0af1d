// Demo issue boards: most projects with issues have a "Development" board whose lists follow the
// workflow labels; some also have a PREMIUM-scoped "Bugs" board (milestone, assignee, labels,
// weight) that hides its Open list, and every fourth project has none, for the documented empty
// list. Each top-level group has a "Planning" group board whose lists are the group's labels.
import { projectAccessLevel } from '../access.js';
import { AccessLevel, type Board, type GroupLabel, type Label, type Project } from '../model.js';
import type { Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';

const WORKFLOW = ['workflow::todo', 'workflow::doing', 'workflow::review'];

function labelOf(state: SimulatorState, project: Project, name: string): Label | undefined {
  for (const label of state.labels.values()) if (label.projectId === project.id && label.name === name) return label;
  return undefined;
}

type BoardSeed = Pick<Board, 'name' | 'milestoneId' | 'assigneeId' | 'labelIds' | 'weight'> & Partial<Board>;

function addBoard(state: SimulatorState, seed: BoardSeed, listLabels: ReadonlyArray<Label | GroupLabel>): void {
  const id = state.nextId('boards');
  state.boards.set(id, { id, projectId: null, groupId: null, hideBacklogList: false, hideClosedList: false, ...seed });
  for (const [position, label] of listLabels.entries()) {
    const listId = state.nextId('boardLists');
    state.boardLists.set(listId, { id: listId, boardId: id, labelId: label.id, assigneeId: null, milestoneId: null, position, maxIssueCount: 0, maxIssueWeight: 0, limitMetric: null });
  }
}

export function seedBoards(state: SimulatorState, rng: Rng): void {
  for (const project of state.projects.values()) {
    if (!project.issuesEnabled || project.id % 4 === 0) continue;
    const workflow = WORKFLOW.map((name) => labelOf(state, project, name)).filter((label): label is Label => label !== undefined);
    addBoard(state, { projectId: project.id, name: 'Development', milestoneId: null, assigneeId: null, labelIds: [], weight: null }, workflow);
    if (project.id % 3 !== 0) continue;
    const bug = labelOf(state, project, 'bug');
    const milestone = [...state.milestones.values()].find((m) => m.projectId === project.id && m.state === 'active');
    const assignee = [...state.users.values()].find((user) => projectAccessLevel(state, user, project) >= AccessLevel.DEVELOPER);
    addBoard(
      state,
      { projectId: project.id, name: 'Bugs', hideBacklogList: true, milestoneId: milestone?.id ?? null, assigneeId: assignee?.id ?? null, labelIds: bug ? [bug.id] : [], weight: rng.int(0, 9) },
      workflow.slice(0, 2),
    );
  }
  seedGroupBoards(state);
}

/** One group board per top-level group, listing the group's labels (GitLab's group boards take group labels). */
function seedGroupBoards(state: SimulatorState): void {
  for (const group of state.groups.values()) {
    if (group.parentId !== null) continue;
    const labels = [...state.groupLabels.values()].filter((label) => label.groupId === group.id);
    addBoard(state, { groupId: group.id, name: 'Planning', milestoneId: null, assigneeId: null, labelIds: [], weight: null }, labels);
  }
}

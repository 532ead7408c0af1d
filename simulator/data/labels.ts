// Which labels and milestones a project or a group may use: its own, and those of the groups above
// it (GitLab's LabelsFinder and MilestonesFinder with `include_ancestor_groups`).
import type { Group, GroupLabel, GroupMilestone, Label, Milestone, Project } from './model.js';
import type { SimulatorState } from './state.js';

/** The project's own labels, then (when asked) those of its group and every group above it. */
export function labelsOfProject(state: SimulatorState, project: Project, includeAncestorGroups: boolean): Array<Label | GroupLabel> {
  const own: Array<Label | GroupLabel> = [...state.labels.values()].filter((label) => label.projectId === project.id);
  const group = state.projectGroup(project);
  if (!includeAncestorGroups || !group) return own;
  return [...own, ...labelsOfGroups(state, [group, ...state.groupAncestors(group)])];
}

export function labelsOfGroups(state: SimulatorState, groups: readonly Group[]): GroupLabel[] {
  const ids = new Set(groups.map((group) => group.id));
  return [...state.groupLabels.values()].filter((label) => ids.has(label.groupId));
}

/** The label of that name a project's issue may carry (its own first), case-sensitively as GitLab matches titles. */
export function projectLabelNamed(state: SimulatorState, project: Project, name: string): Label | GroupLabel | undefined {
  return labelsOfProject(state, project, true).find((label) => label.name === name);
}

/** The milestones of these groups. */
export function milestonesOfGroups(state: SimulatorState, groups: readonly Group[]): GroupMilestone[] {
  const ids = new Set(groups.map((group) => group.id));
  return [...state.groupMilestones.values()].filter((milestone) => ids.has(milestone.groupId));
}

/** The project's own milestones. */
export function milestonesOfProject(state: SimulatorState, project: Project): Milestone[] {
  return [...state.milestones.values()].filter((milestone) => milestone.projectId === project.id);
}

/** An issue's milestone: a project milestone or a group milestone, which share one id space. */
export function milestoneById(state: SimulatorState, id: number | null): Milestone | GroupMilestone | undefined {
  if (id === null) return undefined;
  return state.milestones.get(id) ?? state.groupMilestones.get(id);
}

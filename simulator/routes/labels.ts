// Labels and milestones of projects and groups (GitLab's REST "Labels", "Group labels", "Project
// milestones" and "Group milestones" pages): what a project or a group may tag its issues with.
// Both lists are paginated and readable by whoever may read the project or group (rest-conventions
// §7: 404 otherwise).
import { labelsOfGroups, labelsOfProject, milestonesOfGroups, milestonesOfProject } from '../data/labels.js';
import type { Group, GroupLabel, GroupMilestone, Issue, Label, Milestone } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { groupMilestoneEntity, labelEntity, milestoneEntity, type LabelCounts } from '../entities/labels.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleGroup, visibleProject } from './lookup.js';

/** Issue and merge request tallies of a label over the issues of some projects. */
function countsOver(state: SimulatorState, projectIds: ReadonlySet<number>, label: Label | GroupLabel): LabelCounts {
  const tagged = (issue: Issue) => projectIds.has(issue.projectId) && issue.labels.includes(label.name);
  const issues = [...state.issues.values()].filter(tagged);
  const openMergeRequests = [...state.mergeRequests.values()].filter((mr) => projectIds.has(mr.projectId) && mr.state === 'opened' && mr.labels.includes(label.name));
  return {
    open_issues_count: issues.filter((issue) => issue.state === 'opened').length,
    closed_issues_count: issues.filter((issue) => issue.state === 'closed').length,
    open_merge_requests_count: openMergeRequests.length,
  };
}

function projectIdsUnder(state: SimulatorState, groups: readonly Group[]): Set<number> {
  const groupIds = new Set(groups.map((group) => group.id));
  return new Set([...state.projects.values()].filter((project) => project.namespace.kind === 'group' && groupIds.has(project.namespace.groupId)).map((project) => project.id));
}

/** LabelsFinder orders by title; `search` matches title or description, case-insensitively. */
function searched<T extends Label | GroupLabel>(labels: T[], search: string | undefined): T[] {
  const needle = search?.toLowerCase();
  const kept = needle ? labels.filter((label) => label.name.toLowerCase().includes(needle) || (label.description ?? '').toLowerCase().includes(needle)) : labels;
  return kept.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

type MilestoneFilters = { iids?: number[] | undefined; state?: string | undefined; title?: string | undefined; search?: string | undefined };

/**
 * MilestonesFinder: `title` exact, `search` in title or description, `state` active or closed;
 * in its default order (`due_date_asc`): by due date, none last, then the newest (highest id) first.
 */
function filteredMilestones<T extends Milestone | GroupMilestone>(milestones: T[], filters: MilestoneFilters): T[] {
  const needle = filters.search?.toLowerCase();
  return milestones
    .filter((milestone) => filters.iids === undefined || filters.iids.includes(milestone.iid))
    .filter((milestone) => filters.state === undefined || milestone.state === filters.state)
    .filter((milestone) => filters.title === undefined || milestone.title === filters.title)
    .filter((milestone) => !needle || milestone.title.toLowerCase().includes(needle) || milestone.description.toLowerCase().includes(needle))
    .sort((a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') || b.id - a.id);
}

function presentMilestone(ctx: RequestContext<unknown>, milestone: Milestone | GroupMilestone) {
  return 'groupId' in milestone ? groupMilestoneEntity(ctx, milestone) : milestoneEntity(ctx, milestone);
}

export function registerLabelRoutes(router: Router): void {
  const labelListParams = { with_counts: p.boolean().default(false), include_ancestor_groups: p.boolean().default(true), search: p.string() };

  router.get('/projects/:id/labels', { auth: 'optional', paginated: true, params: { id: p.string().required(), ...labelListParams } }, (ctx) => {
    const project = visibleProject(ctx, ctx.params.id);
    const labels = searched(labelsOfProject(ctx.state, project, ctx.params.include_ancestor_groups), ctx.params.search);
    const projectIds = new Set([project.id]);
    return paginate(ctx, labels, (label) =>
      labelEntity(label, { subscribed: false, counts: ctx.params.with_counts ? countsOver(ctx.state, projectIds, label) : null, inProjectList: true }),
    );
  });

  router.get(
    '/groups/:id/labels',
    {
      auth: 'optional',
      paginated: true,
      params: { id: p.string().required(), ...labelListParams, include_descendant_groups: p.boolean().default(false), only_group_labels: p.boolean().default(true) },
    },
    (ctx) => {
      const group = visibleGroup(ctx, ctx.params.id);
      const { state } = ctx;
      const groups = [group, ...(ctx.params.include_ancestor_groups ? state.groupAncestors(group) : []), ...(ctx.params.include_descendant_groups ? state.groupSubtree(group).slice(1) : [])];
      const own: Array<Label | GroupLabel> = labelsOfGroups(state, groups);
      // only_group_labels=false adds the labels of the projects of the groups listed.
      const projectIds = projectIdsUnder(state, ctx.params.include_descendant_groups ? state.groupSubtree(group) : [group]);
      const projectLabels = ctx.params.only_group_labels ? [] : [...state.labels.values()].filter((label) => projectIds.has(label.projectId));
      const labels = searched([...own, ...projectLabels], ctx.params.search);
      const countedProjects = projectIdsUnder(state, state.groupSubtree(group));
      return paginate(ctx, labels, (label) =>
        labelEntity(label, { subscribed: false, counts: ctx.params.with_counts ? countsOver(state, countedProjects, label) : null, inProjectList: false }),
      );
    },
  );

  const milestoneListParams = { iids: p.integerArray(), state: p.string().values(['active', 'closed']), title: p.string(), search: p.string(), include_ancestors: p.boolean().default(false) };

  router.get('/projects/:id/milestones', { auth: 'optional', paginated: true, params: { id: p.string().required(), ...milestoneListParams } }, (ctx) => {
    const project = visibleProject(ctx, ctx.params.id);
    const group = ctx.state.projectGroup(project);
    const inherited = ctx.params.include_ancestors && group ? milestonesOfGroups(ctx.state, [group, ...ctx.state.groupAncestors(group)]) : [];
    const milestones = filteredMilestones<Milestone | GroupMilestone>([...milestonesOfProject(ctx.state, project), ...inherited], ctx.params);
    return paginate(ctx, milestones, (milestone) => presentMilestone(ctx, milestone));
  });

  router.get(
    '/groups/:id/milestones',
    { auth: 'optional', paginated: true, params: { id: p.string().required(), ...milestoneListParams, include_descendants: p.boolean().default(false) } },
    (ctx) => {
      const group = visibleGroup(ctx, ctx.params.id);
      const { state } = ctx;
      const groups = [group, ...(ctx.params.include_ancestors ? state.groupAncestors(group) : []), ...(ctx.params.include_descendants ? state.groupSubtree(group).slice(1) : [])];
      // include_descendants adds the milestones of the projects below the group too.
      const projectIds = ctx.params.include_descendants ? projectIdsUnder(state, state.groupSubtree(group)) : new Set<number>();
      const projectMilestones = [...state.milestones.values()].filter((milestone) => projectIds.has(milestone.projectId));
      const milestones = filteredMilestones<Milestone | GroupMilestone>([...milestonesOfGroups(state, groups), ...projectMilestones], ctx.params);
      return paginate(ctx, milestones, (milestone) => presentMilestone(ctx, milestone));
    },
  );
}

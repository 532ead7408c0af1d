import type { GroupResolvers, ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { restList, type FieldCost } from '../../cost/field-cost.js';
import { LABEL_LISTED } from '../../cost/shapes.js';
import { windowCost } from '../../cost/window-cost.js';
import type { PageRequest } from '../../datasources/pagination.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { MAX_SORTED_MILESTONE_PAGES, needsWholeMilestoneList, wholeMilestoneConnection } from './milestone-whole-list.js';

function searchTerm(value: string | null | undefined, argumentName: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must not be empty; leave it out instead.`, argumentName);
  return value;
}

const optional = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/**
 * A milestone list: the window's pages in REST's order, or with `sort`, `ids` or a date filter every
 * page of the list up to the ceiling past which it is refused (milestone-whole-list.ts).
 */
const milestoneList: FieldCost = {
  calls: (args) => (needsWholeMilestoneList(args) ? MAX_SORTED_MILESTONE_PAGES : windowCost(args).calls),
  items: 'window',
};

/** `Project.labels` and `Project.milestones` (REST `GET /projects/:id/labels`, `.../milestones`; `sort`, `ids` and dates: milestone-whole-list.ts). */
const projectLabelFields: Pick<ProjectResolvers, 'labels' | 'milestones'> = {
  labels: declared({ ...restList(LABEL_LISTED), rest: ['GET /projects/:id/labels'] }, (project, args, { api }) => {
    // GitLab's project label list includes the ancestor groups' labels unless told otherwise.
    const filters = { search: searchTerm(args.searchTerm, 'searchTerm'), includeAncestorGroups: args.includeAncestorGroups ?? true };
    return restConnection(args, (page) => api.labels.forProject(project.id, filters, page));
  }),
  milestones: declared({ ...milestoneList, rest: ['GET /projects/:id/milestones'] }, (project, args, { api }) => {
    const filters = {
      state: optional(args.state),
      title: optional(args.title),
      search: searchTerm(args.searchTitle, 'searchTitle'),
      includeAncestors: optional(args.includeAncestors),
    };
    const fetchPage = (page: PageRequest) => api.labels.milestonesOfProject(project.id, filters, page);
    // REST's own pages unless an argument asks what REST cannot do: then the whole list, filtered and ordered here.
    return needsWholeMilestoneList(args) ? wholeMilestoneConnection(args, fetchPage) : restConnection(args, fetchPage);
  }),
};

/** `Group.labels` and `Group.milestones` (REST `GET /groups/:id/labels`, `.../milestones`). */
const groupLabelFields: Pick<GroupResolvers, 'labels' | 'milestones'> = {
  labels: declared({ ...restList(LABEL_LISTED), rest: ['GET /groups/:id/labels'] }, (group, args, { api }) => {
    const filters = {
      search: searchTerm(args.searchTerm, 'searchTerm'),
      includeAncestorGroups: args.includeAncestorGroups ?? true,
      includeDescendantGroups: optional(args.includeDescendantGroups),
      onlyGroupLabels: optional(args.onlyGroupLabels),
    };
    return restConnection(args, (page) => api.labels.forGroup(group.id, filters, page));
  }),
  milestones: declared({ ...milestoneList, rest: ['GET /groups/:id/milestones'] }, (group, args, { api }) => {
    const filters = {
      state: optional(args.state),
      title: optional(args.title),
      search: searchTerm(args.searchTitle, 'searchTitle'),
      includeAncestors: optional(args.includeAncestors),
      includeDescendants: optional(args.includeDescendants),
    };
    const fetchPage = (page: PageRequest) => api.labels.milestonesOfGroup(group.id, filters, page);
    return needsWholeMilestoneList(args) ? wholeMilestoneConnection(args, fetchPage) : restConnection(args, fetchPage);
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Group: groupLabelFields, Project: projectLabelFields };

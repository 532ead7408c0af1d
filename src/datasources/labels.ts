import type { LabelSchema } from './issues.js';
import type { MilestoneSchema } from './issuable-schemas.js';
import { everyPage } from './every-page.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** The filters of `GET /projects/:id/labels` and `GET /groups/:id/labels`. */
export interface LabelListFilters {
  search?: string | undefined;
  includeAncestorGroups?: boolean | undefined;
  /** Groups only. */
  includeDescendantGroups?: boolean | undefined;
  /** Groups only. */
  onlyGroupLabels?: boolean | undefined;
}

/** The filters of `GET /projects/:id/milestones` and `GET /groups/:id/milestones`. */
export interface MilestoneListFilters {
  state?: string | undefined;
  title?: string | undefined;
  search?: string | undefined;
  includeAncestors?: boolean | undefined;
  /** Groups only. */
  includeDescendants?: boolean | undefined;
}

function labelQuery(filters: LabelListFilters) {
  return {
    search: filters.search,
    include_ancestor_groups: filters.includeAncestorGroups,
    include_descendant_groups: filters.includeDescendantGroups,
    only_group_labels: filters.onlyGroupLabels,
  };
}

function milestoneQuery(filters: MilestoneListFilters) {
  return {
    state: filters.state,
    title: filters.title,
    search: filters.search,
    include_ancestors: filters.includeAncestors,
    include_descendants: filters.includeDescendants,
  };
}

/** REST labels and milestones of projects and groups (rest-conventions: both take an id or a full path). */
export class LabelsApi {
  constructor(private readonly rest: RestSession) {}

  forProject(idOrPath: number | string, filters: LabelListFilters, page: PageRequest): Promise<Page<LabelSchema>> {
    return this.rest.getPage<LabelSchema>(restPath`/projects/${idOrPath}/labels`, page, labelQuery(filters));
  }

  /**
   * Every label a project's issues may carry (its own and its ancestor groups'), page after page
   * of 100 until REST says there is no next page: one call for most projects.
   */
  allOfProject(idOrPath: number | string): Promise<LabelSchema[]> {
    return everyPage((page) => this.forProject(idOrPath, { includeAncestorGroups: true }, page));
  }

  forGroup(idOrPath: number | string, filters: LabelListFilters, page: PageRequest): Promise<Page<LabelSchema>> {
    return this.rest.getPage<LabelSchema>(restPath`/groups/${idOrPath}/labels`, page, labelQuery(filters));
  }

  milestonesOfProject(idOrPath: number | string, filters: MilestoneListFilters, page: PageRequest): Promise<Page<MilestoneSchema>> {
    return this.rest.getPage<MilestoneSchema>(restPath`/projects/${idOrPath}/milestones`, page, milestoneQuery(filters));
  }

  milestonesOfGroup(idOrPath: number | string, filters: MilestoneListFilters, page: PageRequest): Promise<Page<MilestoneSchema>> {
    return this.rest.getPage<MilestoneSchema>(restPath`/groups/${idOrPath}/milestones`, page, milestoneQuery(filters));
  }
}

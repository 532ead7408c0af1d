import type { GroupResolvers, ProjectResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { nullWhenNotFound } from '../lookups.js';
import { issueListFilters } from './filters.js';
import { checkIid } from './key.js';

/** `Project.issues` and `Project.issue(iid:)`, spread into the Project resolvers. */
export const projectIssueFields: Pick<ProjectResolvers, 'issues' | 'issue'> = {
  issues(project, args, { api }) {
    const filters = issueListFilters(args, 'project');
    return restConnection(args, (page) => api.issues.forProject(project.id, filters, page));
  },
  issue: (project, { iid }, { loaders }) => nullWhenNotFound(loaders.issue.load({ project: project.id, iid: checkIid(iid) })),
};

/** `Group.issues`: the issues of the group's projects and its subgroups'. */
export const groupIssueFields: Pick<GroupResolvers, 'issues'> = {
  issues(group, args, { api }) {
    const filters = issueListFilters(args, 'group');
    return restConnection(args, (page) => api.issues.forGroup(group.id, filters, page));
  },
};

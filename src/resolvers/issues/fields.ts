import type { GroupResolvers, ProjectResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import type { IssueListFilters, IssueSchema } from '../../datasources/issues.js';
import { listField, type ParentList } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';
import { issueListFilters, type IssueListArgs } from './filters.js';
import { checkIid } from './key.js';
import { badUserInput } from '../../errors/graphql-errors.js';

// `GET /projects/:id/issues` and `GET /groups/:id/issues` take the id or the full path alike
// (rest-v4-api.md "Issues"), so a project or group looked up by path sends them alongside its record.
const projectIssueList: ParentList<IssueListArgs, IssueListFilters, IssueSchema> = {
  filters: (args) => issueListFilters(args, 'project'),
  page: (api, project, filters, page) => api.issues.forProject(project, filters, page),
};
const groupIssueList: ParentList<IssueListArgs, IssueListFilters, IssueSchema> = {
  filters: (args) => issueListFilters(args, 'group'),
  page: (api, group, filters, page) => api.issues.forGroup(group, filters, page),
};

/** `Project.issues` and `Project.issue(iid:)`, spread into the Project resolvers. */
export const projectIssueFields: Pick<ProjectResolvers, 'issues' | 'issue'> = {
  issues: listField(projectIssueList, (pages, args) => restConnection(args, pages)),
  issue: (project, { iid }, { loaders }) => {
    // REST reads one issue by its iid; GitLab's search-like use of `issue` without one has no REST form.
    if (iid === null || iid === undefined) throw badUserInput('`iid` is required: REST reads one issue by its internal ID.', 'iid');
    return nullWhenNotFound(loaders.issue.load({ project: project.id, iid: checkIid(iid) }));
  },
};

/** `Group.issues`: the issues of the group's projects and its subgroups'. */
export const groupIssueFields: Pick<GroupResolvers, 'issues'> = {
  issues: listField(groupIssueList, (pages, args) => restConnection(args, pages)),
};

import type { GroupResolvers, ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { ISSUE_RECORD } from '../../cost/shapes.js';
import type { IssueListFilters, IssueSchema } from '../../datasources/issues.js';
import { declared } from '../../fields/declaration.js';
import { listField, type ParentList } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';
import { issueListFilters, type IssueListArgs } from './filters.js';
import { checkIid } from './key.js';

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
const projectIssueFields: Pick<ProjectResolvers, 'issues' | 'issue'> = {
  issues: declared(
    { ...restList(ISSUE_RECORD), rest: ['GET /projects/:id/issues'] },
    listField(projectIssueList, (pages, args) => restConnection(args, pages)),
  ),
  // The single read through the issue loader, or with filters a one-item page of the list.
  issue: declared({ ...oneCall(ISSUE_RECORD), rest: ['GET /projects/:id/issues/:issue_iid', 'GET /projects/:id/issues'] }, async (project, args, { api, loaders }) => {
    const { iid, ...filters } = args;
    const filtered = Object.values(filters).some((value) => value !== null && value !== undefined);
    // The issue by its iid alone is REST's single read (which has `subscribed`, and is shared with the loader).
    if (!filtered && iid !== null && iid !== undefined) return nullWhenNotFound(loaders.issue.load({ project: project.id, iid: checkIid(iid) }));
    // As GitLab's finder: the first issue of the filtered list, the iid being one more filter.
    const listFilters = issueListFilters({ ...filters, iid }, 'project');
    const page = await nullWhenNotFound(api.issues.forProject(project.id, listFilters, { page: 1, perPage: 1 }));
    return page?.items[0] ?? null;
  }),
};

/** `Group.issues`: the issues of the group's projects and its subgroups'. */
const groupIssueFields: Pick<GroupResolvers, 'issues'> = {
  issues: declared(
    { ...restList(ISSUE_RECORD), rest: ['GET /groups/:id/issues'] },
    listField(groupIssueList, (pages, args) => restConnection(args, pages)),
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Group: groupIssueFields, Project: projectIssueFields };

import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { ISSUE_RECORD } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { issueListFilters } from './filters.js';
import { issueKeyOf } from './key.js';

const issueQueries: Pick<QueryResolvers, 'issues' | 'issue'> = {
  issues: declared({ ...restList(ISSUE_RECORD), rest: ['GET /issues'] }, (_parent, args, { api }) => {
    const filters = issueListFilters(args, 'instance');
    return restConnection(args, (page) => api.issues.all(filters, page));
  }),

  // GET /issues/:id is for administrators: a 403 stays an error, so it is not mistaken for absence.
  issue: declared({ ...oneCall(ISSUE_RECORD), rest: ['GET /issues/:id'] }, async (_parent, { id }, { loaders }) => {
    const issue = await nullWhenNotFound(loaders.issueById.load(idFromGlobalId(id, 'Issue', 'id')));
    if (issue && typeof issue.project_id === 'number') loaders.issue.prime(issueKeyOf(issue), issue);
    return issue;
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: issueQueries };

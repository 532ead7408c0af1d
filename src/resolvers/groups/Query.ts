import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { GROUP_LOADED, GROUP_RECORD } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { lookAhead } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';
import { checkFullPath } from '../projects/Query.js';
import { groupListFilters } from './filters.js';

const groupQueries: Pick<QueryResolvers, 'group' | 'groups'> = {
  group: declared({ ...oneCall(GROUP_LOADED), rest: ['GET /groups/:id'] }, (_parent, { fullPath }, context, info) => {
    const path = checkFullPath(fullPath);
    // The group's lists in the selection (subgroups, projects, ...) start alongside its record.
    return lookAhead(info, context, path, nullWhenNotFound(context.loaders.group.load(path)));
  }),

  groups: declared({ ...restList(GROUP_RECORD), rest: ['GET /groups'] }, (_parent, args, { api }) => {
    const filters = groupListFilters(args);
    return restConnection(args, (page) => api.groups.all(filters, page));
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: groupQueries };

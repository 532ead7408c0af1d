import type { QueryResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { nullWhenNotFound } from '../lookups.js';
import { checkFullPath } from '../projects/Query.js';
import { groupListFilters } from './filters.js';

export const groupQueries: Pick<QueryResolvers, 'group' | 'groups'> = {
  group: (_parent, { fullPath }, { loaders }) => nullWhenNotFound(loaders.group.load(checkFullPath(fullPath))),

  groups(_parent, args, { api }) {
    const filters = groupListFilters(args);
    return restConnection(args, (page) => api.groups.all(filters, page));
  },
};

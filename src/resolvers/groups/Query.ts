import type { QueryResolvers } from '../../__generated__/resolvers-types.js';
import { nullWhenNotFound } from '../lookups.js';
import { checkFullPath } from '../projects/Query.js';

export const groupQueries: Pick<QueryResolvers, 'group'> = {
  group: (_parent, { fullPath }, { loaders }) => nullWhenNotFound(loaders.group.load(checkFullPath(fullPath))),
};

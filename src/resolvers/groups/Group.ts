import type { GroupResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { toGlobalId } from '../global-id.js';
import { readRecordField } from '../record-fields.js';
import { runnerListFilters } from '../runners/filters.js';

export const Group: GroupResolvers = {
  id: (group) => toGlobalId('Group', group.id),
  fullPath: async (group, _args, context) =>
    (await readRecordField(group, 'full_path', context, FULL_RECORD_LOADERS['Group'])) as string,
  async parent(group, _args, context) {
    const parentId = (await readRecordField(group, 'parent_id', context, FULL_RECORD_LOADERS['Group'])) as number | null;
    return parentId ? context.loaders.group.load(parentId) : null;
  },
  runners(group, args, { api }) {
    const filters = runnerListFilters(args);
    return restConnection(args, (page) => api.runners.forGroup(group.id, filters, page));
  },
};

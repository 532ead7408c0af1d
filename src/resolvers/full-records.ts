import type { FullRecordLoader } from './record-fields.js';

/**
 * For each object type that REST embeds in partial form, how to get its full record. A field the
 * embedded record lacks is read from this record, fetched once per request.
 */
export const FULL_RECORD_LOADERS: Readonly<Record<string, FullRecordLoader>> = {
  CiRunner: (runner, { loaders }) => loaders.runner.load(runner.id),
  Project: (project, { loaders }) => loaders.project.load(project.id),
  Group: (group, { loaders }) => loaders.group.load(group.id),
  User: (user, { loaders }) => loaders.user.load(user.id),
};

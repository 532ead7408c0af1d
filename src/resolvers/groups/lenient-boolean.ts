import type { GatewayContext } from '../../server/context.js';
import type { GroupSchema } from '../../datasources/groups.js';
import { declared } from '../../fields/declaration.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { readRecordField } from '../record-fields.js';

/**
 * REST sends JSON booleans. The group documentation's shared-groups example renders them as the
 * strings "true" and "false" and null as "nil" (fixtures/groups/list-shared-groups.json, a known doc
 * bug); a field should not fail over that, so those three strings read as what they mean. Anything
 * else passes through untouched, and a value that is no boolean at all still fails its field.
 */
export function lenientBoolean(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'nil') return null;
  return value;
}

/**
 * A Group Boolean field read from `key` (fetching the full record, GET /groups/:id, when the one at
 * hand lacks it), leniently.
 */
export function groupBoolean(key: keyof GroupSchema) {
  return declared(
    { reads: [key], rest: ['GET /groups/:id'] },
    async (group: GroupSchema, _args: unknown, context: GatewayContext): Promise<boolean | null> =>
      lenientBoolean(await readRecordField(group, key, context, FULL_RECORD_LOADERS['Group'])) as boolean | null,
  );
}

import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { normalizeFingerprint } from './fingerprints.js';

const keyQueries: Pick<QueryResolvers, 'key' | 'keyByFingerprint'> = {
  key: declared({ ...oneCall(), rest: ['GET /keys/:id'] }, (_parent, { id }, { api }) =>
    nullWhenNotFound(api.keys.show(idFromGlobalId(id, 'Key', 'id'))),
  ),
  keyByFingerprint: declared({ ...oneCall(), rest: ['GET /keys'] }, (_parent, { fingerprint }, { api }) => {
    const normalized = normalizeFingerprint(fingerprint);
    if (!normalized) {
      throw badUserInput(
        '`fingerprint` must be an MD5 fingerprint (16 colon-separated hex pairs, such as `b5:d1:...:9c`) or a SHA256 one (`SHA256:` and 43 base64 characters).',
        'fingerprint',
      );
    }
    return nullWhenNotFound(api.keys.findByFingerprint(normalized));
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: keyQueries };

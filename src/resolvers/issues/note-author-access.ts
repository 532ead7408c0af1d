// `Note.maxAccessLevelOfAuthor`: GitLab's `Note#human_max_access`, the author's highest access level
// in the note's project (inherited and shared memberships included) in words, through
// `Gitlab::Access.human_access`, which names the roles and nothing else: no access is nil.
import type { NoteResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { declared } from '../../fields/declaration.js';

/**
 * GitLab's role names by REST `access_level`. Minimal Access (5) is left out on purpose: it grants
 * no project authorization, so GitLab's max access for the project is none, and the answer nil.
 */
const ROLE_NAMES: ReadonlyMap<number, string> = new Map([
  [10, 'Guest'],
  [15, 'Planner'],
  [20, 'Reporter'],
  [30, 'Developer'],
  [40, 'Maintainer'],
  [50, 'Owner'],
]);

/** The role name of an access level, or null for none (0), Minimal Access or an unknown level. */
export function humanAccessLevel(accessLevel: number | null | undefined): string | null {
  return accessLevel === null || accessLevel === undefined ? null : (ROLE_NAMES.get(accessLevel) ?? null);
}

const noteAuthorAccessFields: Pick<NoteResolvers, 'maxAccessLevelOfAuthor'> = {
  // GET /projects/:id/members/all/:user_id, once per project and author in a request.
  maxAccessLevelOfAuthor: declared({ ...oneCall(), rest: ['GET /projects/:id/members/all/:user_id'] }, async (note, _args, { credential, loaders }) => {
    // REST's members API authenticates every request: an anonymous caller gets no answer from it.
    if (!credential || typeof note.project_id !== 'number' || typeof note.author?.id !== 'number') return null;
    const member = await loaders.effectiveMember.load({ source: { kind: 'project', id: note.project_id }, userId: note.author.id });
    return humanAccessLevel(member?.access_level);
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Note: noteAuthorAccessFields };

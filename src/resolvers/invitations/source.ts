import type { InvitationSource } from '../../datasources/invitations.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { checkFullPath } from '../projects/Query.js';

export interface SourceInput {
  groupPath?: string | null;
  projectPath?: string | null;
}

/** The group or project an invitation mutation names: exactly one of `groupPath` and `projectPath`. */
export function invitationSource(input: SourceInput): InvitationSource {
  const hasGroup = input.groupPath !== null && input.groupPath !== undefined;
  const hasProject = input.projectPath !== null && input.projectPath !== undefined;
  if (hasGroup === hasProject) throw badUserInput('Give exactly one of `groupPath` and `projectPath`.', 'input');
  return hasGroup
    ? { kind: 'group', idOrPath: checkFullPath(input.groupPath!, 'groupPath') }
    : { kind: 'project', idOrPath: checkFullPath(input.projectPath!, 'projectPath') };
}

export function describeSource(source: InvitationSource): string {
  return `${source.kind} ${source.idOrPath}`;
}

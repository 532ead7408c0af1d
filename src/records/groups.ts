// The record GraphQL's GroupPermissions resolves from (codegen.ts maps the type to it). The
// generated resolver types import this module, so it imports nothing that imports them.

/** What GitLab's group policy decides from: the caller's effective level (administrators as Owner) and the group. */
export interface GroupAbilities {
  level: number;
  projectCreationLevel: string | undefined;
}

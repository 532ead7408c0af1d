// GitLab types its global IDs per class (`CiRunnerID`, `IssueID`, ...), and a client written for
// GitLab declares its variables with those scalars: GraphQL validation requires a variable's type
// to equal the argument's, so the gateway's arguments take the same scalars (GITLAB-DIALECT.md,
// rule 4). Each one is a `gid://gitlab/<Class>/<id>` string whose class is one the scalar admits,
// checked when the variable or literal is read, so a wrong ID is BAD_USER_INPUT before any REST
// call. The value reaches the resolvers as the same string, and they take the id out of it with
// idFromGlobalId as before.
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { badUserInput } from '../errors/graphql-errors.js';
import type { Resolvers } from '../__generated__/resolvers-types.js';

/** Longest global ID read: a class name and 15 digits fit with room to spare. */
const MAX_GLOBAL_ID_LENGTH = 200;
const GLOBAL_ID = /^gid:\/\/gitlab\/([A-Za-z][A-Za-z0-9]*(?:::[A-Za-z][A-Za-z0-9]*)*)\/([0-9A-Za-z]{1,64})$/;

/** Each scalar and the classes GitLab admits for it (a subclass's ID passes where its parent's does). */
export const GLOBAL_ID_SCALAR_CLASSES = {
  AwardableID: ['Issue', 'MergeRequest', 'Note', 'DiscussionNote', 'DiffNote', 'Snippet', 'ProjectSnippet', 'PersonalSnippet', 'Epic'],
  BoardID: ['Board'],
  CiJobArtifactID: ['Ci::JobArtifact'],
  CiPipelineID: ['Ci::Pipeline'],
  CiRunnerID: ['Ci::Runner'],
  CiRunnerManagerID: ['Ci::RunnerManager'],
  DiscussionID: ['Discussion'],
  GroupID: ['Group'],
  IssuableID: ['Issue', 'MergeRequest', 'Epic'],
  IssueID: ['Issue'],
  JobID: ['Ci::Build', 'CommitStatus'],
  LabelID: ['Label', 'ProjectLabel', 'GroupLabel'],
  ListID: ['List'],
  MergeRequestID: ['MergeRequest'],
  MilestoneID: ['Milestone'],
  NamespaceID: ['Namespace', 'Group', 'Namespaces::ProjectNamespace', 'Namespaces::UserNamespace'],
  NoteableID: ['Issue', 'MergeRequest', 'Commit', 'Snippet', 'PersonalSnippet', 'ProjectSnippet', 'Epic'],
  NoteID: ['Note', 'DiscussionNote', 'DiffNote'],
  ProjectID: ['Project'],
  TimelogID: ['Timelog'],
  TodoableID: ['Issue', 'MergeRequest', 'Commit', 'Epic'],
  TodoID: ['Todo'],
  UserID: ['User'],
} as const satisfies Record<string, readonly string[]>;

export type GlobalIdScalarName = keyof typeof GLOBAL_ID_SCALAR_CLASSES;

function globalIdScalar(name: GlobalIdScalarName, classes: readonly string[]): GraphQLScalarType<string, string> {
  const admitted = new Set(classes);
  const example = `gid://gitlab/${classes[0]}/1`;
  const read = (value: unknown): string => {
    if (typeof value !== 'string' || value.length > MAX_GLOBAL_ID_LENGTH) {
      throw badUserInput(`${name} must be a global ID string such as ${example}.`);
    }
    const match = GLOBAL_ID.exec(value);
    if (!match) throw badUserInput(`${name} must be a global ID such as ${example}; got "${value.slice(0, 100)}".`);
    if (!admitted.has(match[1]!)) {
      throw badUserInput(`${name} must be the global ID of a ${classes.join(' or ')}; got a ${match[1]} ID.`);
    }
    return value;
  };
  return new GraphQLScalarType<string, string>({
    name,
    description: `A global ID of a ${classes.join(' or ')}, as GitLab's GraphQL API types it: \`${example}\`.`,
    serialize: (value) => String(value),
    parseValue: read,
    parseLiteral: (node: ValueNode) => read(node.kind === Kind.STRING ? node.value : undefined),
  });
}

/** The resolvers of every global ID scalar, keyed by name. */
export const globalIdScalars: Record<GlobalIdScalarName, GraphQLScalarType<string, string>> = Object.fromEntries(
  Object.entries(GLOBAL_ID_SCALAR_CLASSES).map(([name, classes]) => [name, globalIdScalar(name as GlobalIdScalarName, classes)]),
) as Record<GlobalIdScalarName, GraphQLScalarType<string, string>>;

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { ...globalIdScalars };

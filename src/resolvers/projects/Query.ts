import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { lookAhead } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';
import { projectConnection } from './project-list.js';

/** A project or group full path: segments separated by single slashes, no blanks. */
export function checkFullPath(fullPath: string, argumentName = 'fullPath'): string {
  if (!/^[^/\s]+(\/[^/\s]+)*$/.test(fullPath) || fullPath.length > 1024) {
    throw badUserInput(`\`${argumentName}\` must be a full path such as \`group/project\`; got "${fullPath.slice(0, 100)}".`, argumentName);
  }
  return fullPath;
}

const projectQueries: Pick<QueryResolvers, 'project' | 'projects'> = {
  project(_parent, { fullPath }, context, info) {
    const path = checkFullPath(fullPath);
    // The project's lists in the selection (issues, runners, ...) start alongside its record.
    return lookAhead(info, context, path, nullWhenNotFound(context.loaders.project.load(path)));
  },
  projects: (_parent, args, context, info) => projectConnection(args, context, info),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: projectQueries };

import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { PROJECT_LOADED } from '../../cost/shapes.js';
import { windowCost } from '../../cost/window-cost.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { lookAhead } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';
import { MAX_PROJECT_IDS, projectConnection, projectListOrIds } from './project-list.js';

/** A project or group full path: segments separated by single slashes, no blanks. */
export function checkFullPath(fullPath: string, argumentName = 'fullPath'): string {
  if (!/^[^/\s]+(\/[^/\s]+)*$/.test(fullPath) || fullPath.length > 1024) {
    throw badUserInput(`\`${argumentName}\` must be a full path such as \`group/project\`; got "${fullPath.slice(0, 100)}".`, argumentName);
  }
  return fullPath;
}

const projectQueries: Pick<QueryResolvers, 'project' | 'projects'> = {
  project: declared({ ...oneCall(PROJECT_LOADED), rest: ['GET /projects/:id'] }, (_parent, { fullPath }, context, info) => {
    const path = checkFullPath(fullPath);
    // The project's lists in the selection (issues, runners, ...) start alongside its record.
    return lookAhead(info, context, path, nullWhenNotFound(context.loaders.project.load(path)));
  }),
  // With `personal`, the caller's GET /user names the namespace whose list is read.
  projects: declared(
    {
      ...projectListOrIds(PROJECT_LOADED),
      calls: (args) =>
        Array.isArray(args['ids'])
          ? Math.min(args['ids'].length, MAX_PROJECT_IDS)
          : windowCost(args).calls + (args['personal'] === true ? 1 : 0),
      rest: ['GET /projects', 'GET /user', 'GET /users/:user_id/projects', 'GET /projects/:id'],
    },
    (_parent, args, context, info) => projectConnection(args, context, info),
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: projectQueries };

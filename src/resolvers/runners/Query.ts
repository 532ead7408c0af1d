import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { RUNNER_LOADED, RUNNER_SUMMARY } from '../../cost/shapes.js';
import { RestError } from '../../datasources/rest-error.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { runnerList, runnerListFilters, runnerListOrder } from './filters.js';

const runnerQueries: Pick<QueryResolvers, 'runner' | 'runners' | 'ownedRunners' | 'ciJobRouterDiscovery'> = {
  runner: declared({ ...oneCall(RUNNER_LOADED), rest: ['GET /runners/:id'] }, async (_parent, { id }, { loaders }) => {
    const runnerId = idFromGlobalId(id, 'Ci::Runner', 'id');
    try {
      return await loaders.runner.load(runnerId);
    } catch (error) {
      // A nullable look-up answers null for "not found"; 403 stays an error so it is not mistaken for absence.
      if (error instanceof RestError && error.status === 404) return null;
      throw error;
    }
  }),

  ownedRunners: declared({ ...restList(RUNNER_SUMMARY), rest: ['GET /runners'] }, (_parent, args, { api }) => {
    const filters = runnerListFilters(args);
    return restConnection(args, (page) => api.runners.all(filters, page));
  }),

  ciJobRouterDiscovery: declared({ ...oneCall(), rest: ['GET /runners/router/discovery'] }, async (_parent, { runnerToken }, { api }) => {
    if (!runnerToken.trim()) throw badUserInput('`runnerToken` must not be empty.', 'runnerToken');
    return { serverUrl: (await api.runners.routerDiscovery(runnerToken)).server_url };
  }),

  // GitLab's `runners`: the administrators' list of every runner.
  runners: declared({ ...runnerList, rest: ['GET /runners/all'] }, (_parent, args, { api }) => {
    const filters = runnerListFilters(args, true);
    return restConnection(args, (page) => api.runners.allInstance(filters, page), runnerListOrder(args));
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: runnerQueries };

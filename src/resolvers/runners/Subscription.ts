import type { SubscriptionResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { RunnerSchema } from '../../datasources/runners.js';
import { oneCall } from '../../cost/field-cost.js';
import { RUNNER_DETAIL } from '../../cost/shapes.js';
import { graphQLErrorFromRest } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { GraphQLError } from 'graphql';
import { watchRunnerStatus, type RunnerStatusEvent } from '../../subscriptions/runner-status.js';
import { idFromGlobalId } from '../global-id.js';

const runnerSubscriptions: Pick<SubscriptionResolvers, 'ciRunnerStatusUpdated'> = {
  ciRunnerStatusUpdated: {
    // The first poll of the runner (shared when others watch it); events carry GET /runners/:id records.
    subscribe: declared(
      { ...oneCall(RUNNER_DETAIL), rest: ['GET /runners/:id'] },
      async (_parent, { runnerId }, { credential, pollers }) => {
        const id = idFromGlobalId(runnerId, 'Ci::Runner', 'runnerId');
        if (!credential) {
          throw new GraphQLError('Subscribing to a runner needs a credential in the connection_init payload.', {
            extensions: { code: 'UNAUTHENTICATED' },
          });
        }
        return watchRunnerStatus(pollers, credential, id);
      },
    ),
    // An error that ended the poller reaches the subscriber as a GraphQL error, then the stream ends.
    resolve: (event: RunnerStatusEvent): RunnerSchema => {
      if ('error' in event) throw graphQLErrorFromRest(event.error);
      return event.record;
    },
  },
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Subscription: runnerSubscriptions };

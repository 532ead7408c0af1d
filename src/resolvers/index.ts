import type { Resolvers } from '../__generated__/resolvers-types.js';
import { Group, SharedWithGroup } from './groups/Group.js';
import { groupMutations } from './groups/Mutation.js';
import { groupQueries } from './groups/Query.js';
import { Node, nodeQueries } from './node.js';
import { Namespace, Project } from './projects/Project.js';
import { projectMutations } from './projects/Mutation.js';
import { projectQueries } from './projects/Query.js';
import { Invitation } from './invitations/Invitation.js';
import { invitationMutations } from './invitations/Mutation.js';
import { CiJob, CiRunnerManager, Pipeline } from './runners/CiJob.js';
import { CiRunner } from './runners/CiRunner.js';
import { runnerMutations } from './runners/Mutation.js';
import { runnerQueries } from './runners/Query.js';
import { runnerSubscriptions } from './runners/Subscription.js';
import { DateScalar, Time, Upload } from './scalars.js';
import { Commit } from './commits/Commit.js';
import { User } from './users/User.js';
import { userQueries } from './users/Query.js';

/**
 * The resolver map, assembled explicitly so that a type without resolvers is a decision, not an
 * accident. Fields not listed read their REST field (see record-fields.ts); enums get their REST
 * values from the schema (see schema/enum-values.ts).
 */
export const resolvers: Resolvers = {
  Time,
  Date: DateScalar,
  Upload,
  Query: {
    ...nodeQueries,
    ...userQueries,
    ...runnerQueries,
    ...projectQueries,
    ...groupQueries,
  },
  Mutation: {
    ...runnerMutations,
    ...groupMutations,
    ...projectMutations,
    ...invitationMutations,
  },
  Subscription: {
    ...runnerSubscriptions,
  },
  Node,
  User,
  CiRunner,
  CiJob,
  CiRunnerManager,
  Pipeline,
  Commit,
  Project,
  Namespace,
  Group,
  SharedWithGroup,
  Invitation,
};

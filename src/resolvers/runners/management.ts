// The runner mutations of GitLab's runner administration pages: creating a runner as a signed-in
// user, deleting several at once, and replacing a registration token.
import type { MutationResolvers, RunnerCreateInput, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, type FieldArgs, oneCall } from '../../cost/field-cost.js';
import type { RunnerCreation, RunnerSchema } from '../../datasources/runners.js';
import { RestError } from '../../datasources/rest-error.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId, toGlobalId } from '../global-id.js';
import { refusalReasons } from '../refusals.js';
import type { CreatedRunner } from './CiRunner.js';
import { runnerSettings } from './Mutation.js';
import { RUNNER_LOADED } from '../../cost/shapes.js';
import { recordField } from '../../fields/patterns.js';

/** GitLab's Ci::Runners::BulkDeleteRunnersService::RUNNER_LIMIT, which bulk pausing shares. */
export const BULK_DELETE_LIMIT = 50;

/** How many `ids` a mutation's `input` lists. */
const inputIdsOf = (args: FieldArgs) => {
  const ids = (args['input'] as { ids?: unknown } | undefined)?.ids;
  return Array.isArray(ids) ? ids.length : 0;
};

/** The REST body of `POST /user/runners`: the type, the owner it needs, and the settings. */
function runnerCreation(input: RunnerCreateInput): RunnerCreation {
  const { runnerType, groupId, projectId, clientMutationId: _clientMutationId, paused, ...settings } = input;
  const { active: _active, ...edit } = runnerSettings(settings);
  const creation: RunnerCreation = { runner_type: runnerType, ...edit };
  if (paused !== null && paused !== undefined) creation.paused = paused;
  const hasGroup = groupId !== null && groupId !== undefined;
  const hasProject = projectId !== null && projectId !== undefined;
  if (runnerType === 'group_type' ? !hasGroup || hasProject : hasGroup) {
    throw badUserInput('`groupId` goes with GROUP_TYPE runners, and only with them.', 'groupId');
  }
  if (runnerType === 'project_type' ? !hasProject || hasGroup : hasProject) {
    throw badUserInput('`projectId` goes with PROJECT_TYPE runners, and only with them.', 'projectId');
  }
  if (hasGroup) creation.group_id = idFromGlobalId(groupId, 'Group', 'groupId');
  if (hasProject) creation.project_id = idFromGlobalId(projectId, 'Project', 'projectId');
  return creation;
}

/** The owner of a registration token, checked against the runner type before any REST call. */
function registrationTokenOwner(type: string, id: string | null | undefined): { kind: 'groups' | 'projects'; id: number } | undefined {
  if (type === 'instance_type') {
    if (id !== null && id !== undefined) throw badUserInput('The instance\'s registration token takes no `id`.', 'id');
    return undefined;
  }
  if (id === null || id === undefined) throw badUserInput('GROUP_TYPE and PROJECT_TYPE need the `id` of the group or project.', 'id');
  const expected = type === 'group_type' ? 'Group' : 'Project';
  return { kind: type === 'group_type' ? 'groups' : 'projects', id: idFromGlobalId(id, expected, 'id') };
}

/** The runner IDs of a bulk change, without repeats, checked before any REST call. */
function bulkDeleteIds(ids: ReadonlyArray<string>): number[] {
  return [...new Set(ids.map((id) => idFromGlobalId(id, 'Ci::Runner', 'ids')))];
}

/** Why REST refused to delete some runners, in the words of GitLab's bulk deletion. */
function bulkDeleteErrors(refused: Map<number, unknown>, ignored: number): string[] {
  const errors: string[] = [];
  const byStatus = (status: number) => [...refused].filter(([, error]) => error instanceof RestError && error.status === status).map(([id]) => id);
  const forbidden = byStatus(403);
  const missing = byStatus(404);
  if (forbidden.length > 0) errors.push(`User does not have permission to delete runner(s) ${forbidden.join(', ')}`);
  if (missing.length > 0) errors.push(`Runner(s) not found: ${missing.join(', ')}`);
  for (const [id, error] of refused) {
    if (error instanceof RestError && error.status !== 403 && error.status !== 404) errors.push(`Runner ${id} was not deleted: ${error.reason}`);
  }
  if (ignored > 0) errors.push(`Can only delete up to ${BULK_DELETE_LIMIT} runners per call. Ignored the remaining ${ignored} runner(s).`);
  return errors;
}

/** The instance's, a group's or a project's registration token reset, by the runner type. */
const REGISTRATION_TOKEN_RESETS = [
  'POST /runners/reset_registration_token',
  'POST /groups/:id/runners/reset_registration_token',
  'POST /projects/:id/runners/reset_registration_token',
];

const runnerManagementMutations: Pick<MutationResolvers, 'runnerCreate' | 'bulkRunnerDelete' | 'runnerBulkPause' | 'runnersRegistrationTokenReset'> = {
  // POST /user/runners, then GET /runners/:id for the payload's runner.
  runnerCreate: declared({ calls: 2, rest: ['POST /user/runners', 'GET /runners/:id'] }, async (_parent, { input }, { api, loaders }) => {
    const creation = runnerCreation(input);
    const clientMutationId = input.clientMutationId ?? null;
    let created;
    try {
      created = await api.runners.create(creation);
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, runner: null };
      throw error;
    }
    if (created.id === undefined) return { clientMutationId, errors: [], runner: null };
    const runner: CreatedRunner = { ...(await loaders.runner.load(created.id)), ephemeralAuthenticationToken: created.token ?? null };
    return { clientMutationId, errors: [], runner };
  }),

  // DELETE /runners/:id for each ID, at most 50.
  bulkRunnerDelete: declared({ calls: (args) => Math.min(inputIdsOf(args), BULK_DELETE_LIMIT), rest: ['DELETE /runners/:id'] }, async (_parent, { input }, { api, loaders }) => {
    const ids = bulkDeleteIds(input.ids ?? []);
    const chosen = ids.slice(0, BULK_DELETE_LIMIT);
    const outcomes = await Promise.allSettled(chosen.map((id) => api.runners.remove(id)));
    const deleted: number[] = [];
    const refused = new Map<number, unknown>();
    outcomes.forEach((outcome, index) => {
      const id = chosen[index]!;
      if (outcome.status === 'fulfilled') {
        deleted.push(id);
        loaders.runner.clear(id);
      } else if (outcome.reason instanceof RestError) {
        refused.set(id, outcome.reason);
      } else {
        throw outcome.reason;
      }
    });
    return {
      clientMutationId: input.clientMutationId ?? null,
      deletedCount: deleted.length,
      deletedIds: deleted.map((id) => toGlobalId('Ci::Runner', id)),
      errors: bulkDeleteErrors(refused, ids.length - chosen.length),
    };
  }),

  // PUT /runners/:id for each ID, at most 50.
  runnerBulkPause: declared({ calls: (args) => Math.min(inputIdsOf(args), BULK_DELETE_LIMIT), rest: ['PUT /runners/:id'] }, async (_parent, { input }, { api, loaders }) => {
    const ids = bulkDeleteIds(input.ids);
    if (ids.length > BULK_DELETE_LIMIT) throw badUserInput(`\`ids\` takes at most ${BULK_DELETE_LIMIT} runners; got ${ids.length}.`, 'ids');
    // `active` is what every REST version reads (`paused` arrived later); the negation of `paused`.
    const outcomes = await Promise.allSettled(ids.map((id) => api.runners.edit(id, { active: !input.paused })));
    const updatedRunners: RunnerSchema[] = [];
    const errors: string[] = [];
    outcomes.forEach((outcome, index) => {
      const id = ids[index]!;
      if (outcome.status === 'fulfilled') {
        updatedRunners.push(outcome.value);
        loaders.runner.clear(id).prime(id, outcome.value);
      } else if (outcome.reason instanceof RestError) {
        errors.push(`Runner ${id} was not ${input.paused ? 'paused' : 'resumed'}: ${outcome.reason.reason}`);
      } else {
        throw outcome.reason;
      }
    });
    return { clientMutationId: input.clientMutationId ?? null, errors, updatedCount: updatedRunners.length, updatedRunners };
  }),

  runnersRegistrationTokenReset: declared({ ...oneCall(), rest: REGISTRATION_TOKEN_RESETS }, async (_parent, { input }, { api }) => {
    const owner = registrationTokenOwner(input.type, input.id);
    const reset = await api.runners.resetRegistrationToken(owner);
    return { clientMutationId: input.clientMutationId ?? null, errors: [], token: reset.token ?? null };
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: runnerManagementMutations, RunnerCreatePayload: { runner: recordField(embedded(RUNNER_LOADED)) }, RunnerBulkPausePayload: { updatedRunners: recordField({ items: BULK_DELETE_LIMIT, returns: RUNNER_LOADED }) } };

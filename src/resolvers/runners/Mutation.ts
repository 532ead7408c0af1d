import type { MutationResolvers, RunnerUpdateInput, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, type FieldArgs, oneCall, UNBOUNDED_ARRAY_ITEMS } from '../../cost/field-cost.js';
import type { RunnerEdit } from '../../datasources/runners.js';
import { RestError } from '../../datasources/rest-error.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId, toGlobalId } from '../global-id.js';
import { refusalReasons } from '../refusals.js';
import { setAssociatedProjects } from './associated-projects.js';
import { RUNNER_LOADED, RUNNER_SUMMARY } from '../../cost/shapes.js';
import { recordField } from '../../fields/patterns.js';

/** `paused` and its deprecated negation `active` as REST's `active`; both at odds is refused. */
function activeFlag(input: { paused?: boolean | null; active?: boolean | null }): boolean | undefined {
  const fromPaused = input.paused === null || input.paused === undefined ? undefined : !input.paused;
  const fromActive = input.active ?? undefined;
  if (fromPaused !== undefined && fromActive !== undefined && fromPaused !== fromActive) {
    throw badUserInput('`paused` and `active` contradict each other; give only `paused`.', 'paused');
  }
  return fromPaused ?? fromActive;
}

/** The REST body of a runner update or registration, checked before any REST call. */
export function runnerSettings(input: Omit<RunnerUpdateInput, 'id' | 'clientMutationId' | 'associatedProjects'>): RunnerEdit {
  if (input.maximumTimeout !== null && input.maximumTimeout !== undefined && input.maximumTimeout < 0) {
    throw badUserInput('`maximumTimeout` must be a number of seconds, not negative.', 'maximumTimeout');
  }
  const settings: RunnerEdit = {};
  const active = activeFlag(input);
  if (active !== undefined) settings.active = active;
  if (input.description !== null && input.description !== undefined) settings.description = input.description;
  if (input.tagList !== null && input.tagList !== undefined) settings.tag_list = [...input.tagList];
  if (input.runUntagged !== null && input.runUntagged !== undefined) settings.run_untagged = input.runUntagged;
  if (input.locked !== null && input.locked !== undefined) settings.locked = input.locked;
  if (input.accessLevel) settings.access_level = input.accessLevel;
  if (input.maximumTimeout !== null && input.maximumTimeout !== undefined) settings.maximum_timeout = input.maximumTimeout;
  if (input.maintenanceNote !== null && input.maintenanceNote !== undefined) settings.maintenance_note = input.maintenanceNote;
  return settings;
}

function checkProjectPath(path: string): string {
  if (!/^[^/\s]+(\/[^/\s]+)+$/.test(path) && !/^\d+$/.test(path)) {
    throw badUserInput('`projectPath` must be a project full path such as `group/project`.', 'projectPath');
  }
  return path;
}

/** How many projects `runnerUpdate`'s `associatedProjects` lists; null when it sets none. */
const associatedProjectsOf = (args: FieldArgs): number | null => {
  const ids = (args['input'] as { associatedProjects?: unknown } | undefined)?.associatedProjects;
  return Array.isArray(ids) ? ids.length : null;
};

/** REST refuses to disable a runner in its only project with a 403 that is an outcome, not a denial. */
function isOnlyProjectRefusal(error: unknown): error is RestError {
  return error instanceof RestError && error.status === 403 && /only one project/i.test(error.reason);
}

const runnerMutations: Pick<
  MutationResolvers,
  | 'runnerUpdate'
  | 'runnerDelete'
  | 'runnerRegister'
  | 'runnerUnregister'
  | 'runnerVerify'
  | 'runnerAssignToProject'
  | 'runnerUnassignFromProject'
  | 'runnerResetAuthenticationToken'
> = {
  // PUT /runners/:id; with associatedProjects, also the runner's detail, an enable for each project
  // asked for, a disable for each project the runner leaves (at most its current ones), and the detail again.
  runnerUpdate: declared(
    {
      calls: (args) => (associatedProjectsOf(args) === null ? 1 : 3 + associatedProjectsOf(args)! + UNBOUNDED_ARRAY_ITEMS),
      rest: ['PUT /runners/:id', 'GET /runners/:id', 'POST /projects/:id/runners', 'DELETE /projects/:id/runners/:runner_id'],
    },
    async (_parent, { input }, context) => {
      const { api, loaders } = context;
      const runnerId = idFromGlobalId(input.id, 'Ci::Runner', 'id');
      const changes = runnerSettings(input);
      const associated = input.associatedProjects?.map((id) => idFromGlobalId(id, 'Project', 'associatedProjects'));
      if (Object.keys(changes).length === 0 && associated === undefined) {
        throw badUserInput('Give at least one field to change.', 'input');
      }
      const clientMutationId = input.clientMutationId ?? null;
      try {
        let runner = Object.keys(changes).length > 0 ? await api.runners.edit(runnerId, changes) : null;
        if (runner) loaders.runner.clear(runnerId).prime(runnerId, runner);
        if (associated !== undefined) {
          const errors = await setAssociatedProjects(runnerId, associated, context);
          runner = await loaders.runner.load(runnerId);
          return { clientMutationId, errors, runner };
        }
        return { clientMutationId, errors: [], runner };
      } catch (error) {
        const reasons = refusalReasons(error);
        if (reasons) return { clientMutationId, errors: reasons, runner: null };
        throw error;
      }
    },
  ),

  runnerDelete: declared({ ...oneCall(), rest: ['DELETE /runners/:id'] }, async (_parent, { input }, { api, loaders }) => {
    const runnerId = idFromGlobalId(input.id, 'Ci::Runner', 'id');
    await api.runners.remove(runnerId);
    loaders.runner.clear(runnerId);
    return { clientMutationId: input.clientMutationId ?? null, errors: [] };
  }),

  runnerRegister: declared({ ...oneCall(), rest: ['POST /runners'] }, async (_parent, { input }, { api }) => {
    if (!input.registrationToken.trim()) throw badUserInput('`registrationToken` must not be empty.', 'registrationToken');
    const { registrationToken, info, clientMutationId, ...settings } = input;
    const registration = {
      token: registrationToken,
      ...runnerSettings(settings),
      ...(info ? { info: Object.fromEntries(Object.entries(info).filter(([, value]) => value !== null && value !== undefined)) } : {}),
    };
    let registered;
    try {
      registered = await api.runners.register(registration);
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId: clientMutationId ?? null, errors: reasons, id: null, token: null, tokenExpiresAt: null };
      throw error;
    }
    return {
      clientMutationId: clientMutationId ?? null,
      errors: [],
      id: registered.id === undefined ? null : toGlobalId('Ci::Runner', registered.id),
      token: registered.token ?? null,
      tokenExpiresAt: registered.token_expires_at ?? null,
    };
  }),

  runnerUnregister: declared({ ...oneCall(), rest: ['DELETE /runners'] }, async (_parent, { input }, { api }) => {
    if (!input.token.trim()) throw badUserInput('`token` must not be empty.', 'token');
    await api.runners.removeByToken(input.token);
    return { clientMutationId: input.clientMutationId ?? null, errors: [] };
  }),

  runnerVerify: declared({ ...oneCall(), rest: ['POST /runners/verify'] }, async (_parent, { input }, { api }) => {
    if (!input.token.trim()) throw badUserInput('`token` must not be empty.', 'token');
    const clientMutationId = input.clientMutationId ?? null;
    try {
      const verified = await api.runners.verify(input.token);
      return {
        clientMutationId,
        errors: [],
        valid: true,
        runnerId: verified.id === undefined ? null : toGlobalId('Ci::Runner', verified.id),
        tokenExpiresAt: verified.token_expires_at ?? null,
      };
    } catch (error) {
      // rest-v4-api.md: 403 means the token is not valid; that is the answer, not a failure.
      if (error instanceof RestError && error.status === 403) {
        return { clientMutationId, errors: [], valid: false, runnerId: null, tokenExpiresAt: null };
      }
      throw error;
    }
  }),

  runnerResetAuthenticationToken: declared(
    { ...oneCall(), rest: ['POST /runners/:id/reset_authentication_token', 'POST /runners/reset_authentication_token'] },
    async (_parent, { input }, { api }) => {
      const byId = input.id !== null && input.id !== undefined;
      const byToken = input.token !== null && input.token !== undefined && input.token.trim() !== '';
      if (byId === byToken) throw badUserInput('Give exactly one of `id` and `token`.', 'input');
      const reset = byId
        ? await api.runners.resetToken(idFromGlobalId(input.id!, 'Ci::Runner', 'id'))
        : await api.runners.resetTokenByToken(input.token!);
      return {
        clientMutationId: input.clientMutationId ?? null,
        errors: [],
        token: reset.token ?? null,
        tokenExpiresAt: reset.token_expires_at ?? null,
      };
    },
  ),

  runnerAssignToProject: declared({ ...oneCall(), rest: ['POST /projects/:id/runners'] }, async (_parent, { input }, { api, loaders }) => {
    const runnerId = idFromGlobalId(input.runnerId, 'Ci::Runner', 'runnerId');
    const projectPath = checkProjectPath(input.projectPath);
    const clientMutationId = input.clientMutationId ?? null;
    try {
      const runner = await api.runners.enableInProject(projectPath, runnerId);
      loaders.runner.clear(runnerId);
      return { clientMutationId, errors: [], runner };
    } catch (error) {
      // "Runner has already been taken": enabled there already.
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, runner: null };
      throw error;
    }
  }),

  runnerUnassignFromProject: declared(
    { ...oneCall(), rest: ['DELETE /projects/:id/runners/:runner_id'] },
    async (_parent, { input }, { api, loaders }) => {
      const runnerId = idFromGlobalId(input.runnerId, 'Ci::Runner', 'runnerId');
      const projectPath = checkProjectPath(input.projectPath);
      const clientMutationId = input.clientMutationId ?? null;
      try {
        await api.runners.disableInProject(projectPath, runnerId);
      } catch (error) {
        if (isOnlyProjectRefusal(error)) return { clientMutationId, errors: [error.reason] };
        throw error;
      }
      loaders.runner.clear(runnerId);
      return { clientMutationId, errors: [] };
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: runnerMutations, RunnerUpdatePayload: { runner: recordField(embedded(RUNNER_LOADED)) }, RunnerAssignToProjectPayload: { runner: recordField(embedded(RUNNER_SUMMARY)) } };

// Runner-token endpoints (lib/api/ci/runner.rb): authenticated by a registration or runner
// authentication token in `token`, never by user credentials (rest-v4-api.md "Authentication" 3).
import type { Runner, RunnerType } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { forbidden } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { created, noContent, ok } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { newToken } from '../../data/tokens.js';
import { validateRunner } from './validation.js';
import { addRunner, newRunnerSettingParams } from './new-runner.js';


interface Registration {
  type: RunnerType;
  groupId: number | null;
  projectIds: number[];
}

/** Which kind of runner a registration token creates: instance, group or project. */
function registrationFor(state: SimulatorState, token: string): Registration | undefined {
  if (token !== '' && token === state.instanceRunnersToken) return { type: 'instance_type', groupId: null, projectIds: [] };
  for (const group of state.groups.values()) {
    if (group.runnersToken === token) return { type: 'group_type', groupId: group.id, projectIds: [] };
  }
  for (const project of state.projects.values()) {
    if (project.runnersToken === token) return { type: 'project_type', groupId: null, projectIds: [project.id] };
  }
  return undefined;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function runnerByToken(state: SimulatorState, token: string): Runner {
  const runner = state.findRunnerByToken(token);
  // Invalid runner credentials are a 403 (rest-conventions §7, rest-v4-api.md "Errors").
  if (!runner) throw forbidden();
  return runner;
}

export function registerRunnerRegistrationRoutes(router: Router): void {
  router.post(
    '/runners',
    {
      auth: 'none',
      params: {
        token: p.string().required(),
        ...newRunnerSettingParams(),
        // Registration only: the deprecated names and what the runner program reports.
        maintainer_note: p.string(),
        info: p.hash(),
        active: p.boolean(),
      },
      mutuallyExclusive: [['active', 'paused']],
    },
    (ctx) => {
      const { params, state } = ctx;
      const registration = registrationFor(state, params.token);
      if (!registration) throw forbidden();
      const tagList = [...new Set(params.tag_list ?? [])];
      const attrs = {
        tagList,
        runUntagged: params.run_untagged ?? true,
        maximumTimeout: params.maximum_timeout ?? null,
        maintenanceNote: params.maintenance_note ?? params.maintainer_note ?? null,
      };
      validateRunner(attrs);
      const info = params.info ?? {};
      const runner = addRunner(state, {
        runnerType: registration.type,
        groupId: registration.groupId,
        projectIds: registration.projectIds,
        description: params.description ?? '',
        active: params.paused !== undefined ? !params.paused : (params.active ?? true),
        tagList,
        runUntagged: attrs.runUntagged,
        locked: params.locked ?? false,
        accessLevel: params.access_level === 'ref_protected' ? 'ref_protected' : 'not_protected',
        maximumTimeout: attrs.maximumTimeout,
        maintenanceNote: attrs.maintenanceNote,
        info: { name: str(info['name']), version: str(info['version']), revision: str(info['revision']), platform: str(info['platform']), architecture: str(info['architecture']) },
      });
      return created({ id: runner.id, token: runner.token, token_expires_at: runner.tokenExpiresAt });
    },
  );

  router.delete('/runners', { auth: 'none', params: { token: p.string().required() } }, (ctx) => {
    const runner = runnerByToken(ctx.state, ctx.params.token);
    ctx.state.runners.delete(runner.id);
    return noContent();
  });

  // 200 with the shape of fixtures/runners/verify-runner.json.
  router.post('/runners/verify', { auth: 'none', params: { token: p.string().required(), system_id: p.string() } }, (ctx) => {
    const runner = runnerByToken(ctx.state, ctx.params.token);
    return ok({ id: runner.id, token: runner.token, token_expires_at: runner.tokenExpiresAt });
  });

  // fixtures/runners/reset-runner-auth-token-by-token.json: the runner proves itself with its token.
  router.post('/runners/reset_authentication_token', { auth: 'none', params: { token: p.string().required() } }, (ctx) => {
    const runner = runnerByToken(ctx.state, ctx.params.token);
    runner.token = newToken('glrt-');
    return created({ token: runner.token, token_expires_at: runner.tokenExpiresAt });
  });

  // fixtures/runners/job-router-discovery.json (GitLab 18.7+): authenticated by the `Runner-Token` header.
  router.get('/runners/router/discovery', { auth: 'none' }, (ctx) => {
    const header = ctx.headers['runner-token'];
    const token = Array.isArray(header) ? header[0] : header;
    runnerByToken(ctx.state, token ?? '');
    return ok({ server_url: `${ctx.origin.replace(/^http/, 'ws')}/-/job-router` });
  });
}

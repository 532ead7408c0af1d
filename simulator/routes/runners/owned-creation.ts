// Runners created by signed-in users, and the legacy registration tokens' resets:
// `POST /user/runners` (lib/api/users.rb, Ci::Runners::CreateRunnerService) and
// `POST /runners/reset_registration_token`, `POST /groups/:id/runners/reset_registration_token`,
// `POST /projects/:id/runners/reset_registration_token` (lib/api/ci/runners.rb).
import { canAdminGroup, projectAccessLevel } from '../../data/access.js';
import { AccessLevel, type Group, type Project } from '../../data/model.js';
import { newToken } from '../../data/tokens.js';
import { forbidden } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { created } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { visibleGroup, visibleProject } from '../lookup.js';
import { RUNNER_TYPES } from './filters.js';
import { addRunner, newRunnerSettingParams } from './new-runner.js';
import { validateRunner } from './validation.js';

/** CreateRunnerService refuses a missing scope or a caller without `create_runner` alike. */
const INSUFFICIENT = 'Insufficient permissions';

/** `create_runner` and `update_runners_registration_token` on a group: its Owners (`admin_group`). */
function ownsGroup(ctx: RequestContext<unknown>, group: Group | undefined): group is Group {
  return group !== undefined && canAdminGroup(ctx.state, ctx.user, group);
}

/** The same abilities on a project: its Maintainers and above (`admin_project`). */
function maintainsProject(ctx: RequestContext<unknown>, project: Project | undefined): project is Project {
  return project !== undefined && (ctx.user?.isAdmin === true || projectAccessLevel(ctx.state, ctx.user, project) >= AccessLevel.MAINTAINER);
}

/** GitLab's registration tokens start with the `GR1348941` prefix. */
const registrationToken = () => newToken('GR1348941');

export function registerOwnedRunnerCreationRoutes(router: Router): void {
  router.post(
    '/user/runners',
    {
      auth: 'required',
      params: {
        runner_type: p.string().required().values(RUNNER_TYPES),
        group_id: p.integer(),
        project_id: p.integer(),
        ...newRunnerSettingParams(),
      },
    },
    (ctx) => {
      const { params, state } = ctx;
      let groupId: number | null = null;
      let projectIds: number[] = [];
      if (params.runner_type === 'instance_type') {
        if (!ctx.user?.isAdmin) throw forbidden(INSUFFICIENT);
      } else if (params.runner_type === 'group_type') {
        const group = params.group_id === undefined ? undefined : state.groups.get(params.group_id);
        if (!ownsGroup(ctx, group)) throw forbidden(INSUFFICIENT);
        groupId = group.id;
      } else {
        const project = params.project_id === undefined ? undefined : state.projects.get(params.project_id);
        if (!maintainsProject(ctx, project)) throw forbidden(INSUFFICIENT);
        projectIds = [project.id];
      }
      const attrs = {
        tagList: params.tag_list ?? [],
        runUntagged: params.run_untagged ?? true,
        maximumTimeout: params.maximum_timeout ?? null,
        maintenanceNote: params.maintenance_note ?? null,
      };
      validateRunner(attrs);
      const runner = addRunner(state, {
        runnerType: params.runner_type === 'group_type' ? 'group_type' : params.runner_type === 'project_type' ? 'project_type' : 'instance_type',
        groupId,
        projectIds,
        description: params.description ?? '',
        active: !(params.paused ?? false),
        ...attrs,
        locked: params.locked ?? false,
        accessLevel: params.access_level === 'ref_protected' ? 'ref_protected' : 'not_protected',
      });
      // Entities::Ci::RunnerRegistrationDetails: the token is shown this once.
      return created({ id: runner.id, token: runner.token, token_expires_at: runner.tokenExpiresAt });
    },
  );

  router.post('/runners/reset_registration_token', { auth: 'required' }, (ctx) => {
    if (!ctx.user?.isAdmin) throw forbidden();
    ctx.state.instanceRunnersToken = registrationToken();
    return created({ token: ctx.state.instanceRunnersToken, token_expires_at: null });
  });

  router.post('/groups/:id/runners/reset_registration_token', { auth: 'required', params: { id: p.string().required() } }, (ctx) => {
    const group = visibleGroup(ctx, ctx.params.id);
    if (!ownsGroup(ctx, group)) throw forbidden();
    group.runnersToken = registrationToken();
    return created({ token: group.runnersToken, token_expires_at: null });
  });

  router.post('/projects/:id/runners/reset_registration_token', { auth: 'required', params: { id: p.string().required() } }, (ctx) => {
    const project = visibleProject(ctx, ctx.params.id);
    if (!maintainsProject(ctx, project)) throw forbidden();
    project.runnersToken = registrationToken();
    return created({ token: project.runnersToken, token_expires_at: null });
  });
}

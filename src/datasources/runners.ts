import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { ProjectSchema } from './projects.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

export type RunnerType = 'instance_type' | 'group_type' | 'project_type';
export type RunnerAccessLevel = 'not_protected' | 'ref_protected';
/** Values of a runner's `status` seen in REST answers (rest-v4-api.md and the doc fixtures). */
export type RunnerStatus = 'online' | 'offline' | 'stale' | 'never_contacted' | 'paused' | 'not_connected';

/** A runner record: list items carry the summary fields, `GET /runners/:id` the detail ones too. */
export interface RunnerSchema {
  id: number;
  description?: string | null;
  ip_address?: string | null;
  active?: boolean;
  paused?: boolean;
  is_shared?: boolean;
  runner_type?: RunnerType;
  name?: string | null;
  online?: boolean | null;
  status: RunnerStatus;
  job_execution_status?: string;
  architecture?: string | null;
  platform?: string | null;
  revision?: string | null;
  version?: string | null;
  contacted_at?: string | null;
  projects?: ProjectSchema[];
  tag_list?: string[];
  run_untagged?: boolean;
  locked?: boolean;
  access_level?: RunnerAccessLevel;
  maximum_timeout?: number | null;
  maintenance_note?: string | null;
  /** The group of a group runner, as the detail record embeds it. */
  groups?: RunnerGroupSchema[];
}

/** A group as a runner's detail record embeds it. */
export interface RunnerGroupSchema {
  id: number;
  name?: string;
  web_url?: string;
}

export interface CommitSummarySchema {
  id: string;
  short_id?: string;
  title?: string;
  message?: string;
  author_name?: string;
  author_email?: string;
  authored_date?: string;
  committer_name?: string;
  committer_email?: string;
  committed_date?: string;
  created_at?: string;
  parent_ids?: string[];
  web_url?: string;
}

export interface PipelineSummarySchema {
  id: number;
  /** Sent by newer servers (Entities::Ci::PipelineBasic) and the embedded one in job records. */
  project_id?: number;
  sha?: string;
  ref?: string;
  status?: string;
}

/** A job as `GET /runners/:id/jobs` returns it, with its user, commit, pipeline and project. */
export interface RunnerJobSchema {
  id: number;
  status: string;
  stage?: string;
  name?: string;
  ref?: string;
  tag?: boolean;
  coverage?: number | null;
  created_at?: string;
  started_at?: string | null;
  finished_at?: string | null;
  duration?: number | null;
  queued_duration?: number | null;
  ip_address?: string;
  user?: UserSchema | null;
  commit?: CommitSummarySchema | null;
  pipeline?: PipelineSummarySchema | null;
  project?: ProjectSchema | null;
}

/** A runner manager (`GET /runners/:id/managers`). */
export interface RunnerManagerSchema {
  id: number;
  system_id?: string;
  version?: string | null;
  revision?: string | null;
  platform?: string | null;
  architecture?: string | null;
  created_at?: string;
  contacted_at?: string | null;
  ip_address?: string | null;
  status?: RunnerStatus;
  job_execution_status?: string;
}

/** Filters shared by the runner lists; `scope` is the deprecated one. */
export interface RunnerListFilters {
  type?: RunnerType | undefined;
  status?: string | undefined;
  paused?: boolean | undefined;
  versionPrefix?: string | undefined;
  tagList?: ReadonlyArray<string> | undefined;
  scope?: string | undefined;
}

export interface RunnerJobFilters {
  status?: string | undefined;
  sort?: string | undefined;
}

/** Fields `PUT /runners/:id` accepts, in REST's names. */
export interface RunnerEdit {
  description?: string;
  active?: boolean;
  tag_list?: string[];
  run_untagged?: boolean;
  locked?: boolean;
  access_level?: RunnerAccessLevel;
  maximum_timeout?: number;
  maintenance_note?: string;
}

/** Fields `POST /user/runners` accepts: the runner's type and owner, and its settings. */
export interface RunnerCreation extends Omit<RunnerEdit, 'active'> {
  runner_type: RunnerType;
  group_id?: number;
  project_id?: number;
  paused?: boolean;
}

/** Fields `POST /runners` accepts besides the registration token. */
export interface RunnerRegistration extends RunnerEdit {
  token: string;
  info?: { name?: string; version?: string; revision?: string; platform?: string; architecture?: string };
}

export interface RunnerTokenSchema {
  id?: number;
  token?: string;
  token_expires_at?: string | null;
}

function listQuery(filters: RunnerListFilters) {
  return {
    type: filters.type,
    status: filters.status,
    // Grape reads `tag_list` as a comma-separated list or an array; the comma form is what the
    // REST documentation shows.
    tag_list: filters.tagList && filters.tagList.length > 0 ? filters.tagList.join(',') : undefined,
    scope: filters.scope,
    paused: filters.paused,
    version_prefix: filters.versionPrefix,
  };
}

/** REST `/runners` and the runner routes under projects and groups. */
export class RunnersApi {
  constructor(private readonly rest: RestSession) {}

  /** Runners the caller owns (`GET /runners`). */
  all(filters: RunnerListFilters, page: PageRequest): Promise<Page<RunnerSchema>> {
    return this.rest.getPage<RunnerSchema>(restPath`/runners`, page, listQuery(filters));
  }

  /** Every runner of the instance (`GET /runners/all`, administrators). */
  allInstance(filters: RunnerListFilters, page: PageRequest): Promise<Page<RunnerSchema>> {
    return this.rest.getPage<RunnerSchema>(restPath`/runners/all`, page, listQuery(filters));
  }

  show(id: number): Promise<RunnerSchema> {
    return this.rest.get<RunnerSchema>(restPath`/runners/${id}`);
  }

  edit(id: number, changes: RunnerEdit): Promise<RunnerSchema> {
    return this.rest.put<RunnerSchema>(restPath`/runners/${id}`, changes);
  }

  remove(id: number): Promise<void> {
    return this.rest.delete(restPath`/runners/${id}`);
  }

  jobs(id: number, filters: RunnerJobFilters, page: PageRequest): Promise<Page<RunnerJobSchema>> {
    return this.rest.getPage<RunnerJobSchema>(restPath`/runners/${id}/jobs`, page, {
      status: filters.status,
      sort: filters.sort,
    });
  }

  /**
   * How many jobs the runner has processed that the caller may see: the `X-Total` of a one-job page
   * (null when REST leaves it out, over 10,000 rows).
   */
  async jobCount(id: number, status: string | undefined): Promise<number | null> {
    return (await this.jobs(id, { status }, { page: 1, perPage: 1 })).total;
  }

  /** Creates a runner owned by the caller's instance, group or project (`POST /user/runners`). */
  async create(creation: RunnerCreation): Promise<RunnerTokenSchema> {
    return (await this.rest.post<RunnerTokenSchema>(restPath`/user/runners`, creation)).body;
  }

  /**
   * A new registration token for the instance (`owner` undefined), a group or a project
   * (`POST .../runners/reset_registration_token`).
   */
  async resetRegistrationToken(owner?: { kind: 'groups' | 'projects'; id: number }): Promise<RunnerTokenSchema> {
    const path = owner
      ? owner.kind === 'groups'
        ? restPath`/groups/${owner.id}/runners/reset_registration_token`
        : restPath`/projects/${owner.id}/runners/reset_registration_token`
      : restPath`/runners/reset_registration_token`;
    return (await this.rest.post<RunnerTokenSchema>(path)).body;
  }

  /** A new authentication token for a runner the caller may manage. */
  async resetToken(id: number): Promise<RunnerTokenSchema> {
    return (await this.rest.post<RunnerTokenSchema>(restPath`/runners/${id}/reset_authentication_token`)).body;
  }

  /** A new authentication token, proven by the current one (no other credential). */
  async resetTokenByToken(token: string): Promise<RunnerTokenSchema> {
    const response = await this.rest.withoutCredential().post<RunnerTokenSchema>(restPath`/runners/reset_authentication_token`, { token });
    return response.body;
  }

  /** Where the runner reaches the job router; the runner proves itself with the `Runner-Token` header. */
  routerDiscovery(runnerToken: string): Promise<{ server_url: string }> {
    return this.rest.withoutCredential().get<{ server_url: string }>(restPath`/runners/router/discovery`, undefined, { 'runner-token': runnerToken });
  }

  forProject(project: number | string, filters: RunnerListFilters, page: PageRequest): Promise<Page<RunnerSchema>> {
    return this.rest.getPage<RunnerSchema>(restPath`/projects/${project}/runners`, page, listQuery(filters));
  }

  forGroup(group: number | string, filters: RunnerListFilters, page: PageRequest): Promise<Page<RunnerSchema>> {
    return this.rest.getPage<RunnerSchema>(restPath`/groups/${group}/runners`, page, listQuery(filters));
  }

  async enableInProject(project: number | string, runnerId: number): Promise<RunnerSchema> {
    const response = await this.rest.post<RunnerSchema>(restPath`/projects/${project}/runners`, { runner_id: runnerId });
    return response.body;
  }

  disableInProject(project: number | string, runnerId: number): Promise<void> {
    return this.rest.delete(restPath`/projects/${project}/runners/${runnerId}`);
  }

  /** Registers a runner; the registration token is the only credential (`POST /runners`). */
  async register(registration: RunnerRegistration): Promise<RunnerTokenSchema> {
    const response = await this.rest.withoutCredential().post<RunnerTokenSchema>(restPath`/runners`, registration);
    return response.body;
  }

  /** Deletes the runner that owns this authentication token (`DELETE /runners`). */
  removeByToken(token: string): Promise<void> {
    // In the body, not the query: a URL ends up in access logs, and this token is a credential.
    return this.rest.withoutCredential().delete(restPath`/runners`, { token });
  }

  /** Checks a runner authentication token (`POST /runners/verify`); 403 means invalid. */
  async verify(token: string): Promise<RunnerTokenSchema> {
    const response = await this.rest.withoutCredential().post<RunnerTokenSchema>(restPath`/runners/verify`, { token });
    return response.body ?? {};
  }
}

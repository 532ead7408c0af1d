// The naive BFF's REST data sources, written as Apollo's documentation shows: RESTDataSource
// subclasses, one instance of each per GraphQL request, one method per REST resource. No
// DataLoader: what saves calls is RESTDataSource's own deduplication of identical GETs while one is
// in flight, which is why a runner's four detail fields cost one GET /runners/:id.
import type { Agent } from 'node:http';
import { RESTDataSource, type AugmentedRequest, type DataSourceConfig } from '@apollo/datasource-rest';

/** A REST record, as GitLab's v4 API answers it; only what the resolvers read is named. */
export type RestRecord = Record<string, unknown> & { id: number };

/** One page of a REST list and its X-Total header. */
export interface Page<T = RestRecord> {
  count: number;
  nodes: T[];
}

export interface GitLabConfig extends DataSourceConfig {
  /** GitLab's REST API base, e.g. `http://127.0.0.1:PORT/api/v4`. */
  baseURL: string;
  /** The caller's token, forwarded as PRIVATE-TOKEN. */
  token: string | undefined;
  /**
   * The keep-alive connections to GitLab, shared by every request (node-fetch, RESTDataSource's
   * default, takes an http.Agent). Unset when `fetch` is given: it brings its own connections.
   */
  agent?: Agent;
}

class GitLabAPI extends RESTDataSource {
  private readonly token: string | undefined;
  private readonly agent: Agent | undefined;

  constructor(config: GitLabConfig) {
    super(config);
    this.baseURL = `${config.baseURL.replace(/\/+$/, '')}/`;
    this.token = config.token;
    this.agent = config.agent;
  }

  protected override willSendRequest(_path: string, request: AugmentedRequest): void {
    if (this.token) request.headers['private-token'] = this.token;
    // RESTDataSource hands the request init to node-fetch as is; node-fetch reads `agent` from it.
    if (this.agent) Object.assign(request, { agent: this.agent });
  }

  /** One page of a list, with the X-Total count GitLab sends beside it. */
  protected async page<T = RestRecord>(path: string, params: Record<string, string>): Promise<Page<T>> {
    const { parsedBody, response } = await this.fetch<T[]>(path, { params });
    return { count: Number(response.headers.get('x-total') ?? parsedBody.length), nodes: parsedBody };
  }
}

const perPage = (first: number | null | undefined, fallback: number) => String(first ?? fallback);

export class GroupsAPI extends GitLabAPI {
  getGroup(fullPath: string): Promise<RestRecord> {
    return this.get(`groups/${encodeURIComponent(fullPath)}`, { params: { with_projects: 'false' } });
  }

  getSubgroups(groupId: number, first: number | null | undefined): Promise<Page> {
    return this.page(`groups/${groupId}/subgroups`, { per_page: perPage(first, 20) });
  }
}

export class ProjectsAPI extends GitLabAPI {
  getGroupProjects(groupId: number, first: number | null | undefined): Promise<Page> {
    return this.page(`groups/${groupId}/projects`, { per_page: perPage(first, 20) });
  }
}

export class RunnersAPI extends GitLabAPI {
  getAllRunners(first: number | null | undefined): Promise<Page> {
    return this.page('runners/all', { per_page: perPage(first, 20) });
  }

  getRunner(id: number): Promise<RestRecord> {
    return this.get(`runners/${id}`);
  }

  getProjectRunners(projectId: number, first: number | null | undefined): Promise<Page> {
    return this.page(`projects/${projectId}/runners`, { per_page: perPage(first, 20) });
  }

  getRunnerJobs(runnerId: number, first: number | null | undefined): Promise<Page> {
    return this.page(`runners/${runnerId}/jobs`, { per_page: perPage(first, 20) });
  }
}

export class IssuesAPI extends GitLabAPI {
  getIssues(scope: string, first: number | null | undefined): Promise<Page> {
    return this.page('issues', { scope, per_page: perPage(first, 20) });
  }

  getProjectIssues(projectId: number, state: string | undefined, first: number | null | undefined): Promise<Page> {
    return this.page(`projects/${projectId}/issues`, { ...(state ? { state } : {}), per_page: perPage(first, 20) });
  }
}

export interface DataSources {
  groups: GroupsAPI;
  projects: ProjectsAPI;
  runners: RunnersAPI;
  issues: IssuesAPI;
}

/** A fresh set for one GraphQL request: their deduplication lives as long as the request. */
export function createDataSources(config: GitLabConfig): DataSources {
  return {
    groups: new GroupsAPI(config),
    projects: new ProjectsAPI(config),
    runners: new RunnersAPI(config),
    issues: new IssuesAPI(config),
  };
}

// The naive BFF's resolvers, one per field that needs more than its parent holds, each calling its
// REST data source directly: as a team writes them by hand, with no look-ahead and no DataLoader.
// A child list waits for its parent record (a group's subgroups for the group), and a runner's
// detail fields each ask for GET /runners/:id (RESTDataSource sends it once while it is in flight).
import type { DataSources, Page, RestRecord } from './datasources.js';

export interface Context {
  dataSources: DataSources;
}

interface First {
  first?: number | null;
}

const gid = (type: string, id: number) => `gid://gitlab/${type}/${id}`;
const numericId = (id: string) => Number(id.slice(id.lastIndexOf('/') + 1));
const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

/** A runner's detail record: the parent when it is one already (runner(id:)), else GET /runners/:id. */
function details(runner: RestRecord, { dataSources }: Context): Promise<RestRecord> {
  return 'tag_list' in runner ? Promise.resolve(runner) : dataSources.runners.getRunner(runner.id);
}

function user(record: RestRecord) {
  return {
    id: gid('User', record.id),
    username: record['username'],
    name: record['name'],
    avatarUrl: record['avatar_url'],
    webUrl: record['web_url'],
  };
}

export const resolvers = {
  Query: {
    group: (_: unknown, { fullPath }: { fullPath: string }, { dataSources }: Context) => dataSources.groups.getGroup(fullPath),
    runners: (_: unknown, { first }: First, { dataSources }: Context) => dataSources.runners.getAllRunners(first),
    issues: (_: unknown, { scope, first }: First & { scope?: string }, { dataSources }: Context) =>
      dataSources.issues.getIssues((scope ?? 'ALL').toLowerCase(), first),
    runner: (_: unknown, { id }: { id: string }, { dataSources }: Context) => dataSources.runners.getRunner(numericId(id)),
  },
  Group: {
    id: (group: RestRecord) => gid('Group', group.id),
    fullPath: (group: RestRecord) => group['full_path'],
    subgroups: (group: RestRecord, { first }: First, { dataSources }: Context) => dataSources.groups.getSubgroups(group.id, first),
    projects: (group: RestRecord, { first }: First, { dataSources }: Context) => dataSources.projects.getGroupProjects(group.id, first),
  },
  Project: {
    fullPath: (project: RestRecord) => project['path_with_namespace'],
    runners: (project: RestRecord, { first }: First, { dataSources }: Context) => dataSources.runners.getProjectRunners(project.id, first),
    issues: (project: RestRecord, { first, state }: First & { state?: string }, { dataSources }: Context) =>
      dataSources.issues.getProjectIssues(project.id, state, first),
  },
  Runner: {
    id: (runner: RestRecord) => gid('Ci::Runner', runner.id),
    // GitLab's GraphQL leaves pausing to `paused`: REST's PAUSED is the runner's connectivity there.
    status: (runner: RestRecord) => {
      if (runner['status'] === 'paused') return runner['online'] === true ? 'ONLINE' : 'OFFLINE';
      // Older servers' name for a runner that never contacted the server.
      return runner['status'] === 'not_connected' ? 'NEVER_CONTACTED' : upper(runner['status']);
    },
    version: async (runner: RestRecord, _: unknown, context: Context) => (await details(runner, context))['version'],
    tagList: async (runner: RestRecord, _: unknown, context: Context) => (await details(runner, context))['tag_list'],
    contactedAt: async (runner: RestRecord, _: unknown, context: Context) => (await details(runner, context))['contacted_at'],
    projects: async (runner: RestRecord, _: unknown, context: Context): Promise<Page | null> => {
      // GitLab lists the projects of project runners only; list records say the type.
      if (runner['runner_type'] !== 'project_type') return null;
      const projects = ((await details(runner, context))['projects'] ?? []) as RestRecord[];
      // GitLab orders them by id (`sort: "id_asc"`); REST lists the owner project first.
      return { count: projects.length, nodes: [...projects].sort((a, b) => a.id - b.id) };
    },
    jobs: (runner: RestRecord, { first }: First, { dataSources }: Context) => dataSources.runners.getRunnerJobs(runner.id, first),
  },
  Job: {
    id: (job: RestRecord) => gid('Ci::Build', job.id),
    status: (job: RestRecord) => upper(job['status']),
    commit: (job: RestRecord) => {
      const commit = job['commit'] as { id: string; title?: string } | null | undefined;
      return commit ? { sha: commit.id, title: commit.title ?? null } : null;
    },
  },
  Issue: {
    id: (issue: RestRecord) => gid('Issue', issue.id),
    iid: (issue: RestRecord) => String(issue['iid']),
    state: (issue: RestRecord) => issue['state'],
    webUrl: (issue: RestRecord) => issue['web_url'],
    author: (issue: RestRecord) => user(issue['author'] as RestRecord),
    assignees: (issue: RestRecord) => ({ nodes: ((issue['assignees'] ?? []) as RestRecord[]).map(user) }),
    milestone: (issue: RestRecord) => {
      const milestone = issue['milestone'] as { title: string; due_date?: string | null } | null | undefined;
      return milestone ? { title: milestone.title, dueDate: milestone.due_date ?? null } : null;
    },
  },
};

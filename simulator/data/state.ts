import type {
  DeployKeysProject,
  Group,
  Invitation,
  Job,
  JobArtifacts,
  Membership,
  PersonalAccessToken,
  Project,
  ProjectStar,
  Runner,
  Snippet,
  SnippetStorageMove,
  SshKey,
  User,
  WikiAttachment,
  WikiPage,
} from './model.js';
import type { Board, BoardList, Epic, GroupLabel, GroupMilestone, Issue, Iteration, Label, MergeRequest, MergeRequestNote, MetricImage, Milestone, Note, Todo } from './model.js';
import type { Repository } from '../repository/repository.js';
import type { CommitNote, CommitPipeline, CommitStatus } from './commits.js';

/** The collections of the issues and boards domain (issue 4), all Maps keyed by id. */
type IssueCollection = 'labels' | 'milestones' | 'epics' | 'iterations' | 'issues' | 'notes' | 'mergeRequests' | 'todos' | 'metricImages' | 'boards' | 'boardLists';

/**
 * The whole in-memory world of one simulator. Collections are Maps keyed by id, iterated in id
 * (insertion) order. Lookups by path are computed on the fly so that renames stay consistent.
 */
export class SimulatorState {
  readonly users = new Map<number, User>();
  readonly tokens = new Map<string, PersonalAccessToken>();
  readonly groups = new Map<number, Group>();
  readonly projects = new Map<number, Project>();
  readonly memberships: Membership[] = [];
  readonly runners = new Map<number, Runner>();
  readonly jobs = new Map<number, Job>();
  /** Pending e-mail invitations to groups and projects, by member id. */
  readonly invitations = new Map<number, Invitation>();
  readonly stars: ProjectStar[] = [];
  // Issues and boards: records by id, iterated in id order like the others.
  readonly labels = new Map<number, Label>();
  readonly milestones = new Map<number, Milestone>();
  /** Group labels and milestones: ids from the `labels` and `milestones` sequences. */
  readonly groupLabels = new Map<number, GroupLabel>();
  readonly groupMilestones = new Map<number, GroupMilestone>();
  readonly epics = new Map<number, Epic>();
  readonly iterations = new Map<number, Iteration>();
  readonly issues = new Map<number, Issue>();
  readonly notes = new Map<number, Note>();
  /** Notes on merge requests; ids from the `notes` sequence. */
  readonly mergeRequestNotes = new Map<number, MergeRequestNote>();
  readonly mergeRequests = new Map<number, MergeRequest>();
  readonly todos = new Map<number, Todo>();
  readonly metricImages = new Map<number, MetricImage>();
  readonly boards = new Map<number, Board>();
  readonly boardLists = new Map<number, BoardList>();
  /** Project wiki pages, in creation order. */
  readonly wikiPages: WikiPage[] = [];
  readonly wikiAttachments: WikiAttachment[] = [];
  readonly snippets = new Map<number, Snippet>();
  readonly snippetStorageMoves = new Map<number, SnippetStorageMove>();
  /** Repository storage shards and their weights for new repositories (Admin Area > Repository). */
  readonly repositoryStorages = new Map<string, number>();
  /**
   * How long an API-scheduled storage move stays in each state before the simulated worker moves
   * it on (scheduled -> started -> replicated -> finished); tests set it to hold or hurry moves.
   */
  storageMoveStepMs = 1000;
  /** Users' SSH keys and deploy keys, one id space as in GitLab. */
  readonly sshKeys = new Map<number, SshKey>();
  readonly deployKeysProjects: DeployKeysProject[] = [];
  /** Artifacts archives by job id. */
  readonly jobArtifacts = new Map<number, JobArtifacts>();
  /** Child pipeline id -> parent pipeline id (pipelines triggered by a parent pipeline's job). */
  readonly pipelineParents = new Map<number, number>();
  /** CI job tokens (`CI_JOB_TOKEN`) of running jobs -> job id. */
  readonly jobTokens = new Map<string, number>();
  /** Each project's git repository (simulator/repository/), by project id. */
  readonly repositories = new Map<number, Repository>();
  /** Pipelines of repository commits (CI and external-status pipelines), by id. */
  readonly commitPipelines = new Map<number, CommitPipeline>();
  readonly commitStatuses = new Map<number, CommitStatus>();
  readonly commitNotes = new Map<number, CommitNote>();
  /** Credentials inventory (GitLab.com): each enterprise user's top-level group id, by user id. */
  readonly enterpriseGroupIds = new Map<number, number>();
  /** The bot users behind group and project access tokens, by user id: the group or project each serves. */
  readonly tokenBots = new Map<number, Membership['source']>();
  /** Instance-wide runner registration token (Admin Area > CI/CD > Runners). */
  instanceRunnersToken = '';
  /** The simulator's idea of "now" for token expiry; fixed so that the demo data never ages. */
  now = new Date('2025-06-01T12:00:00.000Z');

  private readonly sequences = new Map<string, number>();

  /** Next free id for a collection, above every id already used in it. */
  nextId(collection: 'users' | 'groups' | 'projects' | 'runners' | 'jobs' | 'invitations' | 'snippets' | 'snippetStorageMoves' | 'sshKeys' | IssueCollection): number {
    const map: Map<number, unknown> = this[collection];
    let max = this.sequences.get(collection) ?? 0;
    for (const id of map.keys()) if (id > max) max = id;
    const next = max + 1;
    this.sequences.set(collection, next);
    return next;
  }

  /** Next award emoji id: awards live on their issue or note, so no collection of their own holds them. */
  nextAwardEmojiId(): number {
    const next = (this.sequences.get('awardEmoji') ?? 0) + 1;
    this.sequences.set('awardEmoji', next);
    return next;
  }

  groupFullPath(group: Group): string {
    const parts: string[] = [];
    for (let g: Group | undefined = group; g; g = g.parentId === null ? undefined : this.groups.get(g.parentId)) {
      parts.unshift(g.path);
    }
    return parts.join('/');
  }

  groupFullName(group: Group): string {
    return this.groupAncestors(group)
      .reverse()
      .concat(group)
      .map((g) => g.name)
      .join(' / ');
  }

  /** Parent, grandparent, ... up to the top-level group. */
  groupAncestors(group: Group): Group[] {
    const result: Group[] = [];
    for (let id = group.parentId; id !== null; ) {
      const parent = this.groups.get(id);
      if (!parent) break;
      result.push(parent);
      id = parent.parentId;
    }
    return result;
  }

  /** The group itself and every group below it. */
  groupSubtree(group: Group): Group[] {
    const result = [group];
    for (let i = 0; i < result.length; i++) {
      const current = result[i];
      for (const g of this.groups.values()) if (current && g.parentId === current.id) result.push(g);
    }
    return result;
  }

  projectGroup(project: Project): Group | undefined {
    return project.namespace.kind === 'group' ? this.groups.get(project.namespace.groupId) : undefined;
  }

  projectNamespacePath(project: Project): string {
    if (project.namespace.kind === 'group') {
      const group = this.groups.get(project.namespace.groupId);
      return group ? this.groupFullPath(group) : '';
    }
    return this.users.get(project.namespace.userId)?.username ?? '';
  }

  projectNamespaceName(project: Project): string {
    if (project.namespace.kind === 'group') {
      const group = this.groups.get(project.namespace.groupId);
      return group ? this.groupFullName(group) : '';
    }
    return this.users.get(project.namespace.userId)?.name ?? '';
  }

  projectFullPath(project: Project): string {
    return `${this.projectNamespacePath(project)}/${project.path}`;
  }

  /** rest-conventions §2: `:id` is an integer id or the (already decoded) full path. */
  findProject(idOrPath: string | number): Project | undefined {
    const asString = String(idOrPath);
    if (/^\d+$/.test(asString)) return this.projects.get(Number(asString));
    const wanted = asString.toLowerCase();
    for (const project of this.projects.values()) {
      if (this.projectFullPath(project).toLowerCase() === wanted) return project;
    }
    return undefined;
  }

  findGroup(idOrPath: string | number): Group | undefined {
    const asString = String(idOrPath);
    if (/^\d+$/.test(asString)) return this.groups.get(Number(asString));
    const wanted = asString.toLowerCase();
    for (const group of this.groups.values()) {
      if (this.groupFullPath(group).toLowerCase() === wanted) return group;
    }
    return undefined;
  }

  findUserByUsername(username: string): User | undefined {
    const wanted = username.toLowerCase();
    for (const user of this.users.values()) if (user.username.toLowerCase() === wanted) return user;
    return undefined;
  }

  findRunnerByToken(token: string): Runner | undefined {
    for (const runner of this.runners.values()) if (runner.token === token) return runner;
    return undefined;
  }

  jobsOfRunner(runnerId: number): Job[] {
    const result: Job[] = [];
    for (const job of this.jobs.values()) if (job.runnerId === runnerId) result.push(job);
    return result;
  }
}

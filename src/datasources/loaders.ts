import DataLoader from 'dataloader';
import { everyPage, everyPageWithin } from './every-page.js';
import type { DataSources } from './index.js';
import { boardParentKey, type BoardKey, type BoardSchema } from './boards.js';
import type { BlobSchema, BranchKey, BranchSchema, CommitKey, CommitSchema, RepositoryFileKey, RepositoryFileSchema, TreeListingKey, TreeObjectSchema } from './commits.js';
import type { JobKey, JobSchema } from './artifacts.js';
import type { PipelineKey, PipelineSchema } from './pipelines.js';
import type { MergeRequestKey, MergeRequestSchema } from './merge-requests.js';
import type { GroupSchema, GroupShowOptions } from './groups.js';
import type { IssueKey, IssueSchema, LabelSchema } from './issues.js';
import type { MemberRecord, MemberSource } from './members.js';
import type { DiscussionSchema } from './notes.js';
import { RestError } from './rest-error.js';
import { withFields } from './with-fields.js';
import type { ProjectTodosKey, TodoSchema } from './todos.js';
import type { ProjectSchema } from './projects.js';
import type { RunnerSchema } from './runners.js';
import type { UserSchema, UserStatusSchema } from './users.js';
import type { NamespaceSchema } from './namespaces.js';

/**
 * The by-key loaders of one request. REST has no multi-get for these resources, so a batch runs
 * its fetches concurrently; what DataLoader buys is that a resource asked for by many fields is
 * fetched once per request. Loaders are made per request and per credential and never outlive
 * them, so a cache can never answer one caller with another's data.
 */
export interface Loaders {
  runner: DataLoader<number, RunnerSchema>;
  project: KeyedLoader<ProjectSchema>;
  group: KeyedLoader<GroupSchema>;
  /** The group detail with its deprecated embedded `projects` and `shared_projects`. */
  groupWithProjects: KeyedLoader<GroupSchema>;
  /** The group detail with `custom_attributes` (administrators; others get the plain detail). */
  groupWithCustomAttributes: KeyedLoader<GroupSchema>;
  user: DataLoader<number, UserSchema>;
  /** A project's issue by iid (`GET /projects/:id/issues/:issue_iid`); the key's project is an id or a full path. */
  issue: DataLoader<IssueKey, IssueSchema, string>;
  /** An issue by its global id (`GET /issues/:id`, administrators only). */
  issueById: DataLoader<number, IssueSchema>;
  /** A project's or group's board (`GET /projects/:id/boards/:board_id`, `GET /groups/:id/boards/:board_id`). */
  board: DataLoader<BoardKey, BoardSchema, string>;
  /** A user's status (`GET /users/:id/status`). */
  userStatus: DataLoader<number, UserStatusSchema>;
  /** The user an e-mail belongs to, as the caller may find them (`GET /users?search=<email>`); null when none. */
  userByEmail: DataLoader<string, UserSchema | null, string>;
  /**
   * Every label of a project with its ancestor groups' (`GET /projects/:id/labels`, all pages), to
   * give an issue's label names their details.
   */
  projectLabels: DataLoader<{ project: number | string }, LabelSchema[], string>;
  /** The caller's to-dos on a project's issues (or merge requests), by target type and state (`GET /todos?project_id=&type=`). */
  projectIssueTodos: DataLoader<ProjectTodosKey, TodoSchema[], string>;
  /** A commit's detail by project and SHA, branch or tag (`GET /projects/:id/repository/commits/:sha`). */
  commit: DataLoader<CommitKey, CommitSchema, string>;
  /**
   * Every entry of a directory listing (`GET /projects/:id/repository/tree`, all pages), read once
   * per listing and request for a tree's subdirectories, files and submodules together.
   */
  treeListing: DataLoader<TreeListingKey, TreeObjectSchema[], string>;
  /**
   * Everything below a directory (REST's recursive listing), when it fits in FLAT_PATH_LISTING_PAGES
   * pages; null, having read no further, when it does not. GitLab's flat paths of a small tree.
   */
  subtreeWithin: DataLoader<Omit<TreeListingKey, 'recursive'>, TreeObjectSchema[] | null, string>;
  /** The first two entries of a directory (one call): enough to tell whether it holds a single directory. */
  treeHead: DataLoader<Omit<TreeListingKey, 'recursive'>, TreeObjectSchema[], string>;
  /** A blob with its content (`GET /projects/:id/repository/blobs/:sha`), once per blob and request. */
  blob: DataLoader<CommitKey, BlobSchema, string>;
  /** A file at a ref with its content (`GET /projects/:id/repository/files/:file_path`), once per file, ref and request. */
  repositoryFile: DataLoader<RepositoryFileKey, RepositoryFileSchema, string>;
  /** A branch with the caller's `can_push` (`GET /projects/:id/repository/branches/:branch`), once per branch and request. */
  branch: DataLoader<BranchKey, BranchSchema, string>;
  /** A project's job record (`GET /projects/:id/jobs/:job_id`), for what runner job lists leave out. */
  job: DataLoader<JobKey, JobSchema, string>;
  /** A project's pipeline (`GET /projects/:id/pipelines/:pipeline_id`), for what jobs' embedded pipelines leave out. */
  pipeline: DataLoader<PipelineKey, PipelineSchema, string>;
  /**
   * The ids of a pipeline's latest jobs (every page of `GET /projects/:id/pipelines/:pipeline_id/jobs`,
   * which leaves retried jobs out), once per pipeline and request: a job of the pipeline missing
   * from them was retried.
   */
  latestPipelineJobIds: DataLoader<PipelineKey, ReadonlySet<number>, string>;
  /** A project's merge request by iid (`GET /projects/:id/merge_requests/:merge_request_iid`), for what list records leave out. */
  mergeRequest: DataLoader<MergeRequestKey, MergeRequestSchema, string>;
  /**
   * The caller's own record (`GET /user`), read once per request however many fields ask (the
   * `currentUser` query, permission fields that need the administrator flag), and primed into `user`.
   */
  currentUser(): Promise<UserSchema>;
  /**
   * The caller's personal namespace (`GET /namespaces/:username` after `GET /user`, whose record
   * has no namespace id), read once per request.
   */
  currentUserNamespace(): Promise<NamespaceSchema>;
  /**
   * Lets go of every loader made so far, and of the records in their caches: later loads start
   * afresh (a subscription's next event; a request whose operations have their responses).
   */
  forget(): void;
  /**
   * A project's own `GET /projects/:id`, with the caller's `permissions`: list records prime
   * `project` without them, so its cached record cannot answer a permission field.
   */
  projectWithPermissions: DataLoader<number, ProjectSchema>;
  /** How many merge requests of a project are open (the total of a one-item `GET /projects/:id/merge_requests?state=opened`). */
  openMergeRequestsCount: DataLoader<number, number | null>;
  /** The forks of a project the caller owns (`GET /projects/:id/forks?owned=true`, at most OWNED_FORK_PAGES pages), once per project and request. */
  ownedForks: DataLoader<number, ProjectSchema[]>;
  /**
   * GitLab Flavored Markdown rendered by REST (`POST /markdown`), once per distinct text and context
   * project in a request (REST renders one text per call).
   */
  markdown: DataLoader<MarkdownKey, string, string>;
  /**
   * A user's effective membership of a project or group, inherited and through shares included
   * (`GET /projects/:id/members/all/:user_id`); null when they are no member (REST's 404).
   */
  effectiveMember: DataLoader<MemberKey, MemberRecord | null, string>;
  /**
   * Every discussion of an issue (`GET .../issues/:issue_iid/discussions`, all pages), for the
   * fields that need the whole list: read once per issue and request however many ask.
   */
  issueDiscussions: DataLoader<IssueKey, DiscussionSchema[], string>;
  /** Every discussion of a merge request (`GET .../merge_requests/:merge_request_iid/discussions`, all pages), once per merge request and request. */
  mergeRequestDiscussions: DataLoader<MergeRequestKey, DiscussionSchema[], string>;
}

/** Whose membership to look up, and where. */
export interface MemberKey {
  source: MemberSource;
  userId: number;
}

/** A text to render, and the full path of the project its references resolve in. */
export interface MarkdownKey {
  text: string;
  projectPath: string | undefined;
}

export interface LoaderOptions {
  /** Off switches batching and per-request caching, to measure what they buy (bench only). */
  batching: boolean;
  /** Told the size of every batch a loader runs (the batch-size metric). */
  onBatch?: ((loader: string, size: number) => void) | undefined;
}

/** The options of one loader: the request's, and the loader's name for onBatch. */
type NamedLoaderOptions = LoaderOptions & { name: string };

/**
 * Projects and groups are reached both by numeric id and by full path; this keeps one cache for
 * both, priming the other key whenever a record arrives.
 */
export class KeyedLoader<T extends { id: number }> {
  private readonly loader: DataLoader<number | string, T, string>;

  constructor(
    fetch: (key: number | string) => Promise<T>,
    private readonly pathOf: (record: T) => string | undefined,
    options: NamedLoaderOptions,
  ) {
    this.loader = new DataLoader<number | string, T, string>(
      (keys) => {
        options.onBatch?.(options.name, keys.length);
        return eachOnArrival(keys, (key) =>
          fetch(key).then((record) => {
            this.prime(record);
            return record;
          }),
        );
      },
      { cacheKeyFn: cacheKey, batch: options.batching, cache: options.batching },
    );
  }

  load(key: number | string): Promise<T> {
    return this.loader.load(key);
  }

  /** Stores a record under its id and its full path, unless a fuller one is already there. */
  prime(record: T): void {
    this.loader.prime(record.id, record);
    const path = this.pathOf(record);
    if (path) this.loader.prime(path, record);
  }

  clear(record: Pick<T, 'id'> & Partial<T>): void {
    this.loader.clear(record.id);
    const path = this.pathOf(record as T);
    if (path) this.loader.clear(path);
  }
}

/**
 * A batch's answer for DataLoader: each key's own fetch, as a promise. DataLoader settles a key's
 * load with the value it is handed, and a load handed a promise follows it, so each load settles
 * when its own REST answer arrives. REST has no multi-get, so a batch is only concurrent calls;
 * waiting for all of them (what `Promise.allSettled` did) held every answer behind the batch's
 * slowest: the fields of a fleet page's first runners waited for the hundredth runner's detail, and
 * the children of a record that had arrived stayed unsent until its siblings had too.
 */
function eachOnArrival<K, T>(keys: readonly K[], fetch: (key: K) => Promise<T>): Promise<T[]> {
  const loads = keys.map((key) => ownLoad(fetch, key));
  // A Promise<T> where DataLoader's type says T: what it resolves a load with is followed, not stored.
  return Promise.resolve(loads as unknown as T[]);
}

/**
 * One key's call, rejected with an Error when it fails. A fetch that throws before it returns a
 * promise (an argument REST cannot carry, refused while the call is built) fails its own key's
 * load, where DataLoader would fail the whole batch with an error of its own.
 */
function ownLoad<K, T>(fetch: (key: K) => Promise<T>, key: K): Promise<T> {
  try {
    return fetch(key).catch((reason: unknown) => Promise.reject(asError(reason)));
  } catch (error) {
    return Promise.reject(asError(error));
  }
}

/** DataLoader rejects a load with what the fetch threw; something thrown that is no Error becomes one. */
function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/** Numeric ids and digit-only strings are the same key; paths are case-insensitive in GitLab. */
function cacheKey(key: number | string): string {
  return typeof key === 'number' || /^\d+$/.test(key) ? `id:${key}` : `path:${key.toLowerCase()}`;
}

function byId<T>(fetch: (id: number) => Promise<T>, options: NamedLoaderOptions): DataLoader<number, T> {
  return new DataLoader<number, T>(
    (ids) => {
      options.onBatch?.(options.name, ids.length);
      return eachOnArrival(ids, fetch);
    },
    { batch: options.batching, cache: options.batching },
  );
}

/** A loader of records that live inside a parent REST names them under (a project's issue by iid, a board by id). */
function withinParent<K, T>(fetch: (key: K) => Promise<T>, keyOf: (key: K) => string, options: NamedLoaderOptions): DataLoader<K, T, string> {
  return new DataLoader<K, T, string>(
    (keys) => {
      options.onBatch?.(options.name, keys.length);
      return eachOnArrival(keys, fetch);
    },
    { cacheKeyFn: keyOf, batch: options.batching, cache: options.batching },
  );
}

/** A loader of records that live inside a project (an issue by iid, a commit by SHA). */
function withinProject<K extends { project: number | string }, T>(
  fetch: (key: K) => Promise<T>,
  inner: (key: K) => number | string,
  options: NamedLoaderOptions,
): DataLoader<K, T, string> {
  return withinParent(fetch, (key) => `${cacheKey(key.project)}#${inner(key)}`, options);
}

/** REST's 404 on a membership look-up means "no member", an answer rather than a failure. */
function noneWhenNotFound(error: unknown): null {
  if (error instanceof RestError && error.status === 404) return null;
  throw error;
}

export function createLoaders(api: DataSources, options: LoaderOptions): Loaders {
  return new RequestLoaders(api, options);
}

const groupPath = (group: GroupSchema) => group.full_path;

/**
 * Pages of REST's recursive tree listing read for GitLab's flat paths before giving up on it: a
 * small tree is cheaper read whole than probed directory by directory, a large one (a monorepo's
 * root) is not, and must not be read whole at all.
 */
export const FLAT_PATH_LISTING_PAGES = 3;

/**
 * Most pages of 100 of the forks a caller owns that are read for one project: a caller owns one
 * fork per namespace they own, so two pages hold them all but for the rarest owner.
 */
export const OWNED_FORK_PAGES = 2;

/** The loaders a request has made, and its cached reads of the caller and the caller's namespace. */
type MadeLoaders = { -readonly [K in Exclude<keyof Loaders, 'currentUser' | 'currentUserNamespace' | 'forget'>]?: Loaders[K] } & {
  currentUser?: Promise<UserSchema>;
  currentUserNamespace?: Promise<NamespaceSchema>;
};

/**
 * Each loader is made when a resolver first asks for it: most operations use one or two of them,
 * and making all ten for every request was a measurable share of the hot path's CPU.
 */
class RequestLoaders implements Loaders {
  /** What has been made so far: one object, so that `forget` lets go of every loader and its cache at once. */
  #made: MadeLoaders = {};

  constructor(
    private readonly api: DataSources,
    private readonly options: LoaderOptions,
  ) {}

  forget(): void {
    this.#made = {};
  }

  private named(name: string): NamedLoaderOptions {
    return withFields(this.options, { name });
  }

  currentUser(): Promise<UserSchema> {
    const read = () =>
      this.api.users.current().then((user) => {
        this.user.prime(user.id, user);
        return user;
      });
    // Batching off turns the request's caches off too, this one included (bench only).
    if (!this.options.batching) return read();
    return (this.#made.currentUser ??= read());
  }

  currentUserNamespace(): Promise<NamespaceSchema> {
    // A personal namespace's full path is its owner's username.
    const read = () => this.currentUser().then((user) => this.api.namespaces.show(user.username));
    if (!this.options.batching) return read();
    return (this.#made.currentUserNamespace ??= read());
  }

  get projectWithPermissions() {
    return (this.#made.projectWithPermissions ??= byId((id) => this.api.projects.show(id), this.named('projectWithPermissions')));
  }

  get ownedForks() {
    return (this.#made.ownedForks ??= byId((id) => everyPage((page) => this.api.projects.forks(id, { owned: true }, page), { maxPages: OWNED_FORK_PAGES }), this.named('ownedForks')));
  }

  get openMergeRequestsCount() {
    return (this.#made.openMergeRequestsCount ??= byId((id) => this.api.projects.openMergeRequestsCount(id), this.named('openMergeRequestsCount')));
  }

  get markdown() {
    return (this.#made.markdown ??= withinParent(
      (key: MarkdownKey) => this.api.markdown.render(key.text, key.projectPath),
      (key) => JSON.stringify([key.projectPath ?? null, key.text]),
      this.named('markdown'),
    ));
  }

  get effectiveMember() {
    return (this.#made.effectiveMember ??= withinParent(
      (key: MemberKey) => this.api.members.effective(key.source, key.userId).catch(noneWhenNotFound),
      (key) => `${key.source.kind}:${key.source.id}#${key.userId}`,
      this.named('effectiveMember'),
    ));
  }

  get issueDiscussions() {
    return (this.#made.issueDiscussions ??= withinProject((key: IssueKey) => everyPage((page) => this.api.notes.discussionsOfIssue(key, page)), (key) => key.iid, this.named('issueDiscussions')));
  }

  get mergeRequestDiscussions() {
    return (this.#made.mergeRequestDiscussions ??= withinProject(
      (key: MergeRequestKey) => everyPage((page) => this.api.notes.discussionsOfMergeRequest(key, page)),
      (key) => key.iid,
      this.named('mergeRequestDiscussions'),
    ));
  }

  get runner() {
    return (this.#made.runner ??= byId((id) => this.api.runners.show(id), this.named('runner')));
  }

  get project() {
    return (this.#made.project ??= new KeyedLoader((key) => this.api.projects.show(key), (project) => project.path_with_namespace, this.named('project')));
  }

  get group() {
    return (this.#made.group ??= new KeyedLoader((key) => this.api.groups.show(key), groupPath, this.named('group')));
  }

  get groupWithProjects() {
    return (this.#made.groupWithProjects ??= this.groupVariant('groupWithProjects', { withProjects: true }));
  }

  get groupWithCustomAttributes() {
    return (this.#made.groupWithCustomAttributes ??= this.groupVariant('groupWithCustomAttributes', { withCustomAttributes: true }));
  }

  get user() {
    return (this.#made.user ??= byId((id) => this.api.users.show(id), this.named('user')));
  }

  get issue() {
    return (this.#made.issue ??= withinProject((key: IssueKey) => this.api.issues.show(key), (key) => key.iid, this.named('issue')));
  }

  get issueById() {
    return (this.#made.issueById ??= byId((id) => this.api.issues.showById(id), this.named('issueById')));
  }

  get board() {
    return (this.#made.board ??= withinParent((key: BoardKey) => this.api.boards.show(key), (key) => `${boardParentKey(key, cacheKey)}#${key.boardId}`, this.named('board')));
  }

  get userStatus() {
    return (this.#made.userStatus ??= byId((id) => this.api.users.status(id), this.named('userStatus')));
  }

  /**
   * E-mails are case-insensitive, so one address in any case is one call. The list record does not
   * prime `user`: for the caller's own user it is shorter than `GET /users/:id`'s.
   */
  get userByEmail() {
    return (this.#made.userByEmail ??= withinParent(
      (email: string) => this.api.users.byEmail(email),
      (email) => email.trim().toLowerCase(),
      this.named('userByEmail'),
    ));
  }

  get projectLabels() {
    return (this.#made.projectLabels ??= withinProject(
      (key: { project: number | string }) => this.api.labels.allOfProject(key.project),
      () => 'labels',
      this.named('projectLabels'),
    ));
  }

  get projectIssueTodos() {
    return (this.#made.projectIssueTodos ??= withinProject(
      (key: ProjectTodosKey) => this.api.todos.ofProjectIssues(key),
      (key) => `${key.targetType ?? 'Issue'}:${key.state ?? 'pending'}`,
      this.named('projectIssueTodos'),
    ));
  }

  get commit() {
    return (this.#made.commit ??= withinProject((key: CommitKey) => this.api.commits.show(key.project, key.sha), (key) => key.sha, this.named('commit')));
  }

  get treeListing() {
    return (this.#made.treeListing ??= withinProject(
      (key: TreeListingKey) => everyPage((page) => this.api.commits.tree(key, page)),
      (key) => JSON.stringify([key.ref ?? null, key.path, key.recursive]),
      this.named('treeListing'),
    ));
  }

  get subtreeWithin() {
    return (this.#made.subtreeWithin ??= withinProject(
      (key: Omit<TreeListingKey, 'recursive'>) => everyPageWithin((page) => this.api.commits.tree(withFields(key, { recursive: true }), page), FLAT_PATH_LISTING_PAGES),
      (key) => JSON.stringify([key.ref ?? null, key.path]),
      this.named('subtreeWithin'),
    ));
  }

  get treeHead() {
    return (this.#made.treeHead ??= withinProject(
      async (key: Omit<TreeListingKey, 'recursive'>) => (await this.api.commits.tree(withFields(key, { recursive: false }), { page: 1, perPage: 2 })).items,
      (key) => JSON.stringify([key.ref ?? null, key.path]),
      this.named('treeHead'),
    ));
  }

  get blob() {
    return (this.#made.blob ??= withinProject((key: CommitKey) => this.api.commits.blob(key.project, key.sha), (key) => key.sha, this.named('blob')));
  }

  get repositoryFile() {
    return (this.#made.repositoryFile ??= withinProject(
      (key: RepositoryFileKey) => this.api.commits.file(key),
      (key) => JSON.stringify([key.ref, key.path]),
      this.named('repositoryFile'),
    ));
  }

  get branch() {
    return (this.#made.branch ??= withinProject((key: BranchKey) => this.api.commits.branch(key.project, key.name), (key) => key.name, this.named('branch')));
  }

  get job() {
    return (this.#made.job ??= withinProject((key: JobKey) => this.api.artifacts.job(key.project, key.jobId), (key) => String(key.jobId), this.named('job')));
  }

  get latestPipelineJobIds() {
    return (this.#made.latestPipelineJobIds ??= withinProject(
      (key: PipelineKey) => everyPage((page) => this.api.projectJobs.forPipeline(key, { includeRetried: false }, page)).then((jobs) => new Set(jobs.map((job) => job.id))),
      (key) => String(key.pipelineId),
      this.named('latestPipelineJobIds'),
    ));
  }

  get pipeline() {
    return (this.#made.pipeline ??= withinProject((key: PipelineKey) => this.api.pipelines.show(key), (key) => String(key.pipelineId), this.named('pipeline')));
  }

  get mergeRequest() {
    return (this.#made.mergeRequest ??= withinProject((key: MergeRequestKey) => this.api.mergeRequests.show(key), (key) => key.iid, this.named('mergeRequest')));
  }

  /** The variants are full group details too, so each also answers the plain group loader. */
  private groupVariant(name: string, withOptions: GroupShowOptions): KeyedLoader<GroupSchema> {
    return new KeyedLoader(
      async (key) => {
        const detail = await this.api.groups.show(key, withOptions);
        this.group.prime(detail);
        return detail;
      },
      groupPath,
      this.named(name),
    );
  }
}

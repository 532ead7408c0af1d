import { parseJsonKeepingBigIntegers } from './exact-json.js';
import type { SshKeySchema } from './keys.js';
import type { MergeRequestSchema } from './merge-requests.js';
import type { DiscussionSchema } from './notes.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';
import type { CommitSummarySchema, PipelineSummarySchema } from './runners.js';
import type { UserSchema } from './users.js';

/** A project as REST's `:id` takes it: the numeric id or the full path. */
export type ProjectKey = number | string;

/** A commit within its project: `sha` is a SHA, or a branch or tag name. */
export interface CommitKey {
  project: ProjectKey;
  sha: string;
}

export interface CommitStatsSchema {
  additions: number;
  deletions: number;
  total: number;
}

/**
 * A commit (rest-v4-api.md "Commit"). Lists give the summary fields (and `stats` with
 * `with_stats`); `GET .../commits/:sha`, create and submodule answers add `stats`, `status`,
 * `project_id` and `last_pipeline`.
 */
export interface CommitSchema extends CommitSummarySchema {
  trailers?: Record<string, string>;
  extended_trailers?: Record<string, string[]>;
  stats?: CommitStatsSchema;
  status?: string | null;
  project_id?: number;
  last_pipeline?: PipelineSummarySchema | null;
}

/** Filters of `GET /projects/:id/repository/commits`. */
export interface CommitListFilters {
  refName?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  path?: string | undefined;
  author?: string | undefined;
  all?: boolean | undefined;
  withStats?: boolean | undefined;
  firstParent?: boolean | undefined;
  order?: 'default' | 'topo' | undefined;
  trailers?: boolean | undefined;
}

export type CommitActionKind = 'create' | 'delete' | 'move' | 'update' | 'chmod';

/** One action of the commit creation body, in REST's names. */
export interface CommitActionBody {
  action: CommitActionKind;
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: 'text' | 'base64';
  last_commit_id?: string;
  execute_filemode?: boolean;
}

/** The commit creation body (rest-v4-api.md "Commit creation body"). */
export interface CommitCreationBody {
  branch: string;
  commit_message: string;
  start_branch?: string;
  start_sha?: string;
  start_project?: number | string;
  actions: CommitActionBody[];
  author_email?: string;
  author_name?: string;
  force?: boolean;
}

/** A ref a commit is in. */
export interface CommitRefSchema {
  type: 'branch' | 'tag';
  name: string;
}

/** A diff entry. `collapsed` and `too_large` come from REST 18.4 on. */
export interface DiffSchema {
  diff?: string;
  new_path?: string;
  old_path?: string;
  a_mode?: string | null;
  b_mode?: string | null;
  new_file?: boolean;
  renamed_file?: boolean;
  deleted_file?: boolean;
  collapsed?: boolean;
  too_large?: boolean;
  generated_file?: boolean | null;
}

export interface CommitCommentSchema {
  note: string;
  author?: UserSchema | null;
  path?: string | null;
  line?: number | null;
  line_type?: 'new' | 'old' | null;
  created_at?: string;
}

export interface CommitCommentBody {
  note: string;
  path?: string;
  line?: number;
  line_type?: 'new' | 'old';
}

/** A discussion of a commit: the same record as an issue's (notes.ts). */
export type { DiscussionSchema } from './notes.js';

interface SignatureCommon {
  verification_status?: string;
  commit_source?: string;
}

export interface GpgSignatureSchema extends SignatureCommon {
  signature_type: 'PGP';
  gpg_key_id?: number;
  gpg_key_primary_keyid?: string;
  gpg_key_user_name?: string;
  gpg_key_user_email?: string;
  gpg_key_subkey_id?: number | null;
}

export interface X509IssuerSchema {
  id: number;
  subject?: string;
  subject_key_identifier?: string;
  crl_url?: string;
}

export interface X509CertificateSchema {
  id: number;
  subject?: string;
  subject_key_identifier?: string;
  email?: string;
  /** Exact digits as a string when beyond 2^53 (see exact-json.ts), a number otherwise. */
  serial_number?: string | number;
  certificate_status?: string;
  x509_issuer?: X509IssuerSchema;
}

export interface X509SignatureSchema extends SignatureCommon {
  signature_type: 'X509';
  x509_certificate?: X509CertificateSchema;
}

export interface SshSignatureSchema extends SignatureCommon {
  signature_type: 'SSH';
  /** The signing key (GitLab's SSH key record). */
  key?: SshKeySchema;
}

export type CommitSignatureSchema = GpgSignatureSchema | X509SignatureSchema | SshSignatureSchema;

/** What a dry run answers instead of a commit. */
export interface DryRunSchema {
  dry_run: 'success';
}

export interface ChangeRequest {
  branch: string;
  dryRun: boolean;
}

function commitPath(project: ProjectKey, sha: string): string {
  return restPath`/projects/${project}/repository/commits/${sha}`;
}

/** A branch of `GET /projects/:id/repository/branches`: its name and its head commit. */
export interface BranchSchema {
  name: string;
  commit?: CommitSchema | null;
  default?: boolean;
  protected?: boolean;
  merged?: boolean;
  web_url?: string;
  /** Whether the caller may push to the branch (GitLab's `user_access.can_push_to_branch?`). */
  can_push?: boolean;
}

/** A tag of `GET /projects/:id/repository/tags`: `target` is the tag object or the commit it names. */
export interface TagSchema {
  name: string;
  target?: string;
  commit?: CommitSchema | null;
  message?: string | null;
}

/** An entry of `GET /projects/:id/repository/tree` (REST's TreeObject). */
export interface TreeObjectSchema {
  /** The tree's or blob's object id; a submodule's commit SHA. */
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  /** Full path from the repository's root. */
  path: string;
  mode: string;
}

/** Which listing of `GET /projects/:id/repository/tree`: a directory at a ref, or everything below it. */
export interface TreeListingKey {
  project: ProjectKey;
  /** Branch, tag, SHA or full ref name; undefined: the default branch. */
  ref: string | undefined;
  path: string;
  recursive: boolean;
}

/** `GET /projects/:id/repository/blobs/:sha`: the blob's content, base64. */
export interface BlobSchema {
  sha: string;
  size: number;
  encoding: string;
  content: string;
}

/** A branch of a project, by name. */
export interface BranchKey {
  project: ProjectKey;
  name: string;
}

/** A file at a ref, as `GET /projects/:id/repository/files/:file_path?ref=` names it. */
export interface RepositoryFileKey {
  project: ProjectKey;
  /** Branch, tag, SHA or full ref name (REST requires one). */
  ref: string;
  path: string;
}

/** `GET /projects/:id/repository/files/:file_path`: a file at a ref, its content base64. */
export interface RepositoryFileSchema {
  file_name: string;
  file_path: string;
  size: number;
  encoding: string;
  content: string;
  content_sha256?: string;
  ref: string;
  blob_id: string;
  /** The commit the ref names. */
  commit_id: string;
  last_commit_id?: string;
  execute_filemode?: boolean;
}

/** REST `/projects/:id/repository/commits`: commits and their sub-resources. */
export class CommitsApi {
  constructor(private readonly rest: RestSession) {}

  all(project: ProjectKey, filters: CommitListFilters, page: PageRequest): Promise<Page<CommitSchema>> {
    return this.rest.getPage<CommitSchema>(restPath`/projects/${project}/repository/commits`, page, {
      ref_name: filters.refName,
      since: filters.since,
      until: filters.until,
      path: filters.path,
      author: filters.author,
      all: filters.all,
      with_stats: filters.withStats,
      first_parent: filters.firstParent,
      order: filters.order,
      trailers: filters.trailers,
    });
  }

  /** One commit with stats, status and last pipeline; `sha` may be a branch or tag name. */
  show(project: ProjectKey, sha: string): Promise<CommitSchema> {
    return this.rest.get<CommitSchema>(commitPath(project, sha));
  }

  /** Sent as a JSON body (rest-v4-api.md "Conventions" 2). */
  async create(project: ProjectKey, body: CommitCreationBody): Promise<CommitSchema> {
    return (await this.rest.post<CommitSchema>(restPath`/projects/${project}/repository/commits`, body)).body;
  }

  refs(project: ProjectKey, sha: string, type: 'branch' | 'tag' | 'all', page: PageRequest): Promise<Page<CommitRefSchema>> {
    return this.rest.getPage<CommitRefSchema>(`${commitPath(project, sha)}/refs`, page, { type });
  }

  /** 201 with the new commit, or 200 `{"dry_run": "success"}`; a failure is a RestError with `errorCode`. */
  async cherryPick(project: ProjectKey, sha: string, request: ChangeRequest): Promise<CommitSchema | DryRunSchema> {
    return (await this.rest.post<CommitSchema | DryRunSchema>(`${commitPath(project, sha)}/cherry_pick`, { branch: request.branch, dry_run: request.dryRun })).body;
  }

  async revert(project: ProjectKey, sha: string, request: ChangeRequest): Promise<CommitSchema | DryRunSchema> {
    return (await this.rest.post<CommitSchema | DryRunSchema>(`${commitPath(project, sha)}/revert`, { branch: request.branch, dry_run: request.dryRun })).body;
  }

  diff(project: ProjectKey, sha: string, page: PageRequest): Promise<Page<DiffSchema>> {
    return this.rest.getPage<DiffSchema>(`${commitPath(project, sha)}/diff`, page);
  }

  comments(project: ProjectKey, sha: string, page: PageRequest): Promise<Page<CommitCommentSchema>> {
    return this.rest.getPage<CommitCommentSchema>(`${commitPath(project, sha)}/comments`, page);
  }

  async createComment(project: ProjectKey, sha: string, body: CommitCommentBody): Promise<CommitCommentSchema> {
    return (await this.rest.post<CommitCommentSchema>(`${commitPath(project, sha)}/comments`, body)).body;
  }

  discussions(project: ProjectKey, sha: string, page: PageRequest): Promise<Page<DiscussionSchema>> {
    return this.rest.getPage<DiscussionSchema>(`${commitPath(project, sha)}/discussions`, page);
  }

  async sequence(project: ProjectKey, sha: string, firstParent: boolean): Promise<number> {
    return (await this.rest.get<{ count: number }>(`${commitPath(project, sha)}/sequence`, { first_parent: firstParent })).count;
  }

  mergeRequests(project: ProjectKey, sha: string, page: PageRequest): Promise<Page<MergeRequestSchema>> {
    return this.rest.getPage<MergeRequestSchema>(`${commitPath(project, sha)}/merge_requests`, page);
  }

  /** Branches in name order; `search` is REST's (`^` and `$` anchor it, no case). */
  branches(project: ProjectKey, search: string | undefined, page: PageRequest): Promise<Page<BranchSchema>> {
    return this.rest.getPage<BranchSchema>(restPath`/projects/${project}/repository/branches`, page, { search });
  }

  /** Tags, newest first (REST's default order). */
  tags(project: ProjectKey, page: PageRequest): Promise<Page<TagSchema>> {
    return this.rest.getPage<TagSchema>(restPath`/projects/${project}/repository/tags`, page);
  }

  /** One page of a directory's entries (directories, then files, then submodules), or with `recursive` of every entry below it. */
  tree(key: TreeListingKey, page: PageRequest): Promise<Page<TreeObjectSchema>> {
    return this.rest.getPage<TreeObjectSchema>(restPath`/projects/${key.project}/repository/tree`, page, {
      ref: key.ref,
      path: key.path === '' ? undefined : key.path,
      recursive: key.recursive ? true : undefined,
    });
  }

  /** A blob by its SHA, with its content. */
  blob(project: ProjectKey, sha: string): Promise<BlobSchema> {
    return this.rest.get<BlobSchema>(restPath`/projects/${project}/repository/blobs/${sha}`);
  }

  /** A file at a ref with its content; 404 for an unknown ref or a path that is no file. */
  file(key: RepositoryFileKey): Promise<RepositoryFileSchema> {
    return this.rest.get<RepositoryFileSchema>(restPath`/projects/${key.project}/repository/files/${key.path}`, { ref: key.ref });
  }

  /** One branch with the caller's `can_push`; 404 when there is no branch of that name. */
  branch(project: ProjectKey, name: string): Promise<BranchSchema> {
    return this.rest.get<BranchSchema>(restPath`/projects/${project}/repository/branches/${name}`);
  }

  /** 404 for an unsigned commit. The X.509 serial number keeps every digit (exact-json.ts). */
  signature(project: ProjectKey, sha: string): Promise<CommitSignatureSchema> {
    return this.rest.getParsedWith<CommitSignatureSchema>(`${commitPath(project, sha)}/signature`, parseJsonKeepingBigIntegers);
  }
}

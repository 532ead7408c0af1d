/**
 * What a REST record holds, as far as the cost estimate needs to know. A field the gateway reads
 * from a record that lacks it fetches the full record (record-fields.ts), so whether a field costs
 * a REST call depends on which form of the record its parent is: a list item, an embedded summary,
 * or the full record from the type's loader.
 *
 * Each shape lists only keys that every example of that form in the REST documentation carries
 * (test/fixtures/gitlab-docs; test/cost/shapes.test.ts holds each shape to its examples). A key
 * left out costs the estimate a call it may not need; a key put in wrongly would let the estimate
 * fall short, so in doubt a key stays out.
 */
export interface RecordShape {
  /** REST keys every record of this form carries (their values may be null). */
  readonly keys: ReadonlySet<string>;
  /**
   * The record came through its type's per-request loader (fetched or primed), so with batching on
   * a field it lacks is answered from the loader's cache, with no REST call.
   */
  readonly cached?: boolean;
  /** The type's full-record loader answers from the record itself (issue records with `_links`). */
  readonly complete?: boolean;
}

function shape(keys: readonly string[], flags: { cached?: boolean; complete?: boolean } = {}): RecordShape {
  return { keys: new Set(keys), ...flags };
}

function cached(base: RecordShape): RecordShape {
  return { ...base, cached: true };
}

/** An object the gateway built from an id alone (an issue's project, a milestone's project). */
export const ID_ONLY = shape(['id']);

// Users (rest-v4-api.md "User summary"; issue, board, to-do and merge request examples).
export const USER_SUMMARY = shape(['id', 'username', 'name', 'state', 'avatar_url', 'web_url']);
/** Authors of commit comments, statuses and discussion notes: some examples lack the URLs. */
export const USER_AUTHOR = shape(['id', 'username', 'name', 'state']);
/** A runner job's `user` (fixtures/runners/list-runner-jobs.json), and `GET /users/:id` for non-administrators. */
export const USER_PUBLIC = shape([
  ...USER_SUMMARY.keys,
  'created_at',
  'bio',
  'location',
  'public_email',
  'linkedin',
  'twitter',
  'website_url',
  'organization',
]);
/** An SSH key's `user` (fixtures/keys/*.json): the administrators' full record. */
export const USER_FULL = shape([
  ...USER_PUBLIC.keys,
  'last_sign_in_at',
  'confirmed_at',
  'last_activity_on',
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
  'external',
  'private_profile',
]);
/** A user through the user loader (`GET /users/:id`, or `GET /user` primed). */
export const USER_LOADED = cached(USER_PUBLIC);

// Runners (fixtures/runners/*.json). `job_execution_status` is recent (INDEX.md), so it stays out.
export const RUNNER_SUMMARY = shape(['id', 'description', 'ip_address', 'active', 'is_shared', 'runner_type', 'name', 'online', 'status']);
/** `GET /runners/:id` and `PUT /runners/:id` (their examples lack `paused`, `locked` and `run_untagged`). */
export const RUNNER_DETAIL = shape([
  ...RUNNER_SUMMARY.keys,
  'tag_list',
  'maximum_timeout',
  'access_level',
  'version',
  'revision',
  'platform',
  'architecture',
  'contacted_at',
  'maintenance_note',
  'projects',
]);
export const RUNNER_LOADED = cached(RUNNER_DETAIL);
/** The pipeline a job or a commit embeds (fixtures/runners/list-runner-jobs.json, commits/get-commit.json). */
export const PIPELINE_OF_JOB = shape(['id', 'sha', 'ref', 'status']);
/** A merge request as lists, commits and `closed_by` give it (MergeRequestBasic): no pipeline. */
export const MERGE_REQUEST_LISTED = shape(['id', 'iid', 'project_id', 'target_project_id', 'sha', 'source_branch']);
/** A merge request's whole record (`related_merge_requests`; GitLab's MergeRequest entity), with its pipelines. */
export const MERGE_REQUEST_RECORD = shape([
  ...MERGE_REQUEST_LISTED.keys,
  'pipeline',
  'head_pipeline',
  'squash',
  'task_completion_status',
  'changes_count',
  'latest_build_started_at',
  'latest_build_finished_at',
  'first_deployed_to_production_at',
  'diff_refs',
  'merge_error',
  'user',
]);
/** A merge request's `head_pipeline` (Entities::Ci::Pipeline; fixtures/issues/list-issue-related-merge-requests.json). */
export const PIPELINE_OF_MERGE_REQUEST = shape([
  ...PIPELINE_OF_JOB.keys,
  'web_url',
  'before_sha',
  'tag',
  'yaml_errors',
  'user',
  'created_at',
  'updated_at',
  'started_at',
  'finished_at',
  'committed_at',
  'duration',
  'coverage',
]);
/** A pipeline of GET /projects/:id/pipelines (Entities::Ci::PipelineBasic; no documentation example). */
export const PIPELINE_LISTED = shape(['id', 'iid', 'project_id', 'sha', 'ref', 'status', 'source', 'created_at', 'updated_at', 'web_url']);
/** A job of a runner's job list (fixtures/runners/list-runner-jobs.json). */
export const RUNNER_JOB = shape(['id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'created_at', 'started_at', 'finished_at', 'duration', 'queued_duration', 'user', 'commit', 'pipeline', 'project']);
/** A job of a project's job list: the record `GET /projects/:id/jobs/:job_id` answers (lib/api/ci/jobs.rb). */
export const PROJECT_JOB = shape(['id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'allow_failure', 'created_at', 'started_at', 'finished_at', 'erased_at', 'duration', 'queued_duration', 'user', 'commit', 'pipeline', 'web_url', 'artifacts', 'artifacts_file', 'artifacts_expire_at', 'runner', 'archived', 'tag_list']);
/** The job record `POST .../artifacts/keep` answers (fixtures/job_artifacts/keep-job-artifacts.json). */
export const JOB_KEPT = shape(['id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'created_at', 'started_at', 'finished_at', 'duration', 'user', 'commit', 'allow_failure', 'artifacts', 'runner', 'web_url']);

// Projects.
/** A runner detail's `projects` and a to-do's `project`. */
export const PROJECT_REFERENCE = shape(['id', 'name', 'name_with_namespace', 'path', 'path_with_namespace']);
/** A runner job's `project`. */
export const PROJECT_OF_JOB = shape([...PROJECT_REFERENCE.keys, 'description', 'created_at']);
/** A board's `project`. */
export const PROJECT_OF_BOARD = shape([...PROJECT_REFERENCE.keys, 'http_url_to_repo', 'web_url']);
/** The full record of group project lists (rest-v4-api.md "Project record"), as far as every example carries it. */
const PROJECT_RECORD_KEYS = [
  'id',
  'description',
  'default_branch',
  'tag_list',
  'topics',
  'archived',
  'visibility',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'created_at',
  'last_activity_at',
  'namespace',
  'avatar_url',
  'star_count',
  'forks_count',
  'open_issues_count',
  'creator_id',
  'public_jobs',
  'shared_with_groups',
  'issues_enabled',
  'merge_requests_enabled',
  'wiki_enabled',
  'jobs_enabled',
  'snippets_enabled',
  'shared_runners_enabled',
] as const;
/** The projects embedded in a group's detail (`embeddedProjects`): not through the project loader. */
export const PROJECT_IN_GROUP_DETAIL = shape(PROJECT_RECORD_KEYS);
/**
 * Group project lists prime the project loader with their full records, and `GET /projects/:id`
 * goes through it. (A list asked with `simple=true` is not primed, but it is asked so only when
 * every selected field is one the short record holds.)
 */
export const PROJECT_LOADED = cached(shape([...PROJECT_RECORD_KEYS, 'request_access_enabled']));

// Groups (fixtures/groups/*.json).
/** `GET /groups`, subgroups and descendant groups. */
export const GROUP_RECORD = shape([
  'id',
  'name',
  'path',
  'description',
  'visibility',
  'share_with_group_lock',
  'require_two_factor_authentication',
  'two_factor_grace_period',
  'project_creation_level',
  'auto_devops_enabled',
  'subgroup_creation_level',
  'emails_disabled',
  'emails_enabled',
  'mentions_disabled',
  'lfs_enabled',
  'default_branch',
  'default_branch_protection',
  'default_branch_protection_defaults',
  'avatar_url',
  'web_url',
  'request_access_enabled',
  'full_name',
  'full_path',
  'file_template_project_id',
  'parent_id',
  'created_at',
]);
/** `GET /groups/:id` through the group loader (its examples are sparse; the loader's cache is what counts). */
export const GROUP_LOADED = cached(
  shape(['id', 'name', 'path', 'description', 'visibility', 'avatar_url', 'web_url', 'request_access_enabled', 'full_name', 'full_path', 'file_template_project_id', 'parent_id']),
);
/** `Project.group`, built from the project's `namespace` (id, name, path and full path). */
export const GROUP_OF_NAMESPACE = shape(['id', 'full_path', 'name', 'path']);
/** `SharedWithGroup.group`, built from a share (group_id, group_name, group_full_path). */
export const GROUP_OF_SHARE = shape(['id', 'name', 'full_path']);

// Issues (fixtures/issues/*.json): list and single reads are whole records with `_links`.
export const ISSUE_RECORD = shape(
  [
    'id',
    'iid',
    'title',
    'description',
    'state',
    'created_at',
    'updated_at',
    'closed_at',
    'closed_by',
    'author',
    'assignees',
    'assignee',
    'milestone',
    'labels',
    'type',
    'issue_type',
    'upvotes',
    'downvotes',
    'merge_requests_count',
    'user_notes_count',
    'due_date',
    'web_url',
    'references',
    'time_stats',
    'task_completion_status',
    'confidential',
    'discussion_locked',
    '_links',
  ],
  { complete: true },
);
/** A to-do's `target`: an embedded issue without `_links` or `time_stats`. */
export const ISSUE_AS_TO_DO_TARGET = shape([
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'author',
  'assignees',
  'assignee',
  'milestone',
  'labels',
  'type',
  'issue_type',
  'upvotes',
  'downvotes',
  'merge_requests_count',
  'user_notes_count',
  'due_date',
  'web_url',
  'references',
  'task_completion_status',
  'confidential',
  'discussion_locked',
  'subscribed',
]);

// Commits (fixtures/commits/*.json): `stats`, `status` and `last_pipeline` come with the single read.
const COMMIT_KEYS = ['id', 'short_id', 'title', 'message', 'author_name', 'author_email', 'committer_name', 'committer_email', 'created_at', 'parent_ids'] as const;
export const COMMIT_OF_JOB = shape(['id', 'short_id', 'title', 'message', 'author_name', 'author_email', 'created_at']);
export const COMMIT_LISTED = shape([...COMMIT_KEYS, 'web_url']);
export const COMMIT_LISTED_WITH_STATS = shape([...COMMIT_KEYS, 'web_url', 'stats']);
/** Cherry-pick and revert answers. */
export const COMMIT_CHANGED = shape([...COMMIT_KEYS, 'web_url', 'authored_date', 'committed_date']);
/** The submodule update answer. */
export const COMMIT_OF_SUBMODULE = shape([...COMMIT_KEYS, 'authored_date', 'committed_date', 'status']);
/** `GET .../commits/:sha` through the commit loader, and the create answer it is primed with. */
export const COMMIT_LOADED = cached(shape([...COMMIT_KEYS, 'web_url', 'authored_date', 'committed_date', 'stats', 'status']));

/** Boards (fixtures/boards/*.json) embed their lists. */
export const BOARD = shape(['id', 'name', 'project', 'milestone', 'lists']);
/**
 * A board's scope labels and a list's label (GitLab's LabelBasic). GitLab sends its id too, but the
 * documentation's examples omit it, so the estimate counts the look-up an id-less label needs.
 */
export const LABEL_OF_BOARD = shape(['name', 'color', 'description']);
/** A label of `GET /projects/:id/labels` or `GET /groups/:id/labels`. */
export const LABEL_LISTED = shape(['id', 'name', 'color', 'description', 'description_html', 'text_color']);
/**
 * A label an issue names (REST lists issues' labels by name unless `with_labels_details`): its
 * other fields come from the project's labels.
 */
export const LABEL_NAMED = shape(['name', 'project_id']);
/** Wiki pages listed without `with_content` have no `content`. */
export const WIKI_PAGE_LISTED = shape(['slug', 'title', 'format']);
export const WIKI_PAGE = shape(['slug', 'title', 'format', 'content', 'encoding']);

// The simulator's in-memory data model. camelCase domain records; the REST shapes (snake_case)
// are built from them by simulator/entities/. Tests may read and modify these records directly
// through `Simulator.state`.

export type Visibility = 'public' | 'internal' | 'private';

/** rest-v4-api.md "Access levels". */
export const AccessLevel = {
  NO_ACCESS: 0,
  MINIMAL: 5,
  GUEST: 10,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
} as const;

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  state: 'active' | 'blocked';
  isAdmin: boolean;
  createdAt: string;
  bio: string;
  location: string;
  publicEmail: string;
  websiteUrl: string;
  organization: string;
  jobTitle: string;
  lastSignInAt: string | null;
  lastActivityOn: string | null;
  /** Id of the user's personal namespace (distinct from group ids, as in GitLab). */
  namespaceId: number;
  /** What the user set as their status (`GET /users/:id/status`); absent when never set. */
  status?: UserStatus;
}

/** A user's status: an emoji, a message and whether they are busy (GitLab's UserStatus). */
export interface UserStatus {
  emoji: string | null;
  message: string | null;
  availability: 'not_set' | 'busy';
  /** When GitLab clears the status by itself, or null. */
  clearStatusAt: string | null;
}

export type TokenScope = 'api' | 'read_api' | 'read_user' | 'sudo'
  // Repository and registry scopes: the credentials inventory's tokens carry them; no route checks them.
  | 'read_repository' | 'write_repository' | 'read_registry' | 'write_registry';

export interface PersonalAccessToken {
  token: string;
  userId: number;
  name: string;
  scopes: TokenScope[];
  revoked: boolean;
  /** YYYY-MM-DD or null; a date before the simulator's clock makes the token expired. */
  expiresAt: string | null;
  /**
   * What the token lists show (the credentials inventory, issue 3): tokens seeded for it or rotated
   * have all four; the fixed demo tokens of seed/users.ts have none and are never listed.
   */
  id?: number;
  description?: string;
  createdAt?: string;
  lastUsedAt?: string | null;
}

export interface Membership {
  userId: number;
  /** Direct membership of a group or a project. */
  source: { kind: 'group'; groupId: number } | { kind: 'project'; projectId: number };
  accessLevel: number;
  expiresAt: string | null;
}

/** A group (or a project) shared with another group, capped at `accessLevel`. */
export interface GroupShare {
  groupId: number;
  accessLevel: number;
  expiresAt: string | null;
}

/** A key/value pair administrators attach to a group or project (`with_custom_attributes`). */
export interface CustomAttribute {
  key: string;
  value: string;
}

export interface Group {
  id: number;
  name: string;
  path: string;
  parentId: number | null;
  description: string;
  /** The uploaded avatar's file name, served under /uploads; absent until one is uploaded. */
  avatarFilename?: string;
  visibility: Visibility;
  createdAt: string;
  runnersToken: string;
  sharedWithGroups: GroupShare[];
  requestAccessEnabled: boolean;
  shareWithGroupLock: boolean;
  requireTwoFactorAuthentication: boolean;
  twoFactorGracePeriod: number;
  projectCreationLevel: 'noone' | 'maintainer' | 'developer';
  subgroupCreationLevel: 'owner' | 'maintainer';
  autoDevopsEnabled: boolean | null;
  emailsDisabled: boolean | null;
  mentionsDisabled: boolean | null;
  lfsEnabled: boolean;
  defaultBranchProtection: 0 | 1 | 2;
  fileTemplateProjectId: number | null;
  /** Visible to administrators only (`with_custom_attributes`, `custom_attributes[key]=value`). */
  customAttributes?: CustomAttribute[];
  /** (STARTER) Whether projects may add members outside the group's membership. */
  membershipLock?: boolean;
  /** `enabled`, `disabled_and_overridable`, `disabled_and_unoverridable` or `disabled_with_override`. */
  sharedRunnersSetting?: string;
  /** (PREMIUM) */
  preventForkingOutsideGroup?: boolean | null;
  /** (PREMIUM SELF) null inherits the instance quota, 0 is unlimited. */
  sharedRunnersMinutesLimit?: number | null;
  /** (PREMIUM SELF) */
  extraSharedRunnersMinutesLimit?: number | null;
}

export type ProjectNamespace = { kind: 'group'; groupId: number } | { kind: 'user'; userId: number };

export interface Project {
  id: number;
  name: string;
  path: string;
  namespace: ProjectNamespace;
  description: string | null;
  visibility: Visibility;
  defaultBranch: string;
  topics: string[];
  archived: boolean;
  createdAt: string;
  lastActivityAt: string;
  creatorId: number;
  starCount: number;
  forksCount: number;
  /** The project this one is a fork of (GitLab's fork network); absent for a project that is no fork. */
  forkedFromProjectId?: number;
  openIssuesCount: number;
  sharedRunnersEnabled: boolean;
  runnersToken: string;
  sharedWithGroups: GroupShare[];
  issuesEnabled: boolean;
  mergeRequestsEnabled: boolean;
  wikiEnabled: boolean;
  jobsEnabled: boolean;
  snippetsEnabled: boolean;
  emptyRepo: boolean;
  publicJobs: boolean;
  buildTimeout: number;
  requestAccessEnabled: boolean;
  /**
   * Whether the project limits where its jobs' CI_JOB_TOKEN may go (ProjectCiCdSetting's outbound
   * `job_token_scope_enabled`, a job record's `project.ci_job_token_scope_enabled`); off when absent,
   * GitLab's default.
   */
  ciJobTokenScopeEnabled?: boolean;
  /** Visible to administrators only (`with_custom_attributes`). */
  customAttributes?: CustomAttribute[];
}

/** A user's star on a project (the `starred` filter of project lists). */
export interface ProjectStar {
  userId: number;
  projectId: number;
}

/**
 * A pending invitation by e-mail to a group or a project: in GitLab, a member record with an
 * `invite_email` and no user yet (rest-v4-api.md "Invitation").
 */
export interface Invitation {
  id: number;
  source: Membership['source'];
  email: string;
  accessLevel: number;
  /** ISO 8601 timestamp, or null for no expiry. */
  expiresAt: string | null;
  createdAt: string;
  createdById: number;
}

export type RunnerType = 'instance_type' | 'group_type' | 'project_type';

/**
 * How the runner last talked to the server. The REST `status` is this, except that a paused
 * runner reports `paused` (see entities/runners.ts).
 */
export type RunnerConnectivity = 'online' | 'offline' | 'stale' | 'never_contacted' | 'not_connected';

export type RunnerAccessLevel = 'not_protected' | 'ref_protected';

export interface Runner {
  id: number;
  runnerType: RunnerType;
  /** group_type only: the owning group. */
  groupId: number | null;
  /** project_type only: the projects it is enabled in; the first is the owner project. */
  projectIds: number[];
  description: string;
  name: string | null;
  active: boolean;
  connectivity: RunnerConnectivity;
  contactedAt: string | null;
  createdAt: string;
  ipAddress: string;
  tagList: string[];
  runUntagged: boolean;
  locked: boolean;
  accessLevel: RunnerAccessLevel;
  maximumTimeout: number | null;
  maintenanceNote: string | null;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  /** Runner authentication token (`glrt-...`). Never part of a runner response body. */
  token: string;
  tokenExpiresAt: string | null;
}

export type JobStatus = 'running' | 'success' | 'failed' | 'canceled';

export interface JobCommit {
  id: string;
  shortId: string;
  title: string;
  message: string;
  createdAt: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
}

export interface Job {
  id: number;
  runnerId: number;
  projectId: number;
  userId: number;
  status: JobStatus;
  stage: string;
  name: string;
  ref: string;
  tag: boolean;
  coverage: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  duration: number | null;
  queuedDuration: number | null;
  commit: JobCommit;
  pipeline: { id: number; sha: string; ref: string; status: string };
  /** Superseded by a newer try of the same job (Ci::Build#retried?): REST lists it only with `include_retried`. */
  retried?: boolean;
  /** Why a failed job failed (CommitStatus#failure_reason); a script failure unless set. */
  failureReason?: string;
}

/** rest-v4-api.md "Wiki page": the markup a page is written in. */
export type WikiFormat = 'markdown' | 'rdoc' | 'asciidoc' | 'org';

/** A project wiki page; `slug` is its path in the wiki repository (`dir/page-name`). */
export interface WikiPage {
  projectId: number;
  slug: string;
  title: string;
  format: WikiFormat;
  content: string;
}

/** A file uploaded to a project wiki (`POST /projects/:id/wikis/attachments`). */
export interface WikiAttachment {
  projectId: number;
  /** `uploads/<32 hex>/<file name>`, relative to the wiki repository. */
  filePath: string;
  fileName: string;
  branch: string;
  contentType: string;
  bytes: Buffer;
}

/** A personal snippet (`projectId` null) or a project snippet, with the storage shard of its repository. */
export interface Snippet {
  id: number;
  title: string;
  description: string | null;
  visibility: Visibility;
  projectId: number | null;
  authorId: number;
  createdAt: string;
  updatedAt: string;
  repositoryStorage: string;
}

/** rest-v4-api.md "States and transitions": snippet storage move states, as REST spells them. */
export type StorageMoveState = 'initial' | 'scheduled' | 'started' | 'finished' | 'failed' | 'replicated' | 'cleanup failed';

export interface SnippetStorageMove {
  id: number;
  snippetId: number;
  state: StorageMoveState;
  sourceStorageName: string;
  destinationStorageName: string;
  createdAt: string;
  /** Wall-clock time (ms) the move was scheduled through the API; null for seeded, settled moves. */
  scheduledAtMs: number | null;
}

/** `auth`, `signing` or `auth_and_signing` (REST `usage_type`). */
export type SshKeyUsage = 'auth' | 'signing' | 'auth_and_signing';

/** A user's SSH key or a deploy key (GitLab's `Key` and its `DeployKey` subclass share ids). */
export interface SshKey {
  id: number;
  kind: 'ssh' | 'deploy';
  title: string;
  /** The public key line, `<type> <base64 blob> [comment]`; fingerprints are computed from the blob. */
  key: string;
  /** Owner of an SSH key; creator of a deploy key. */
  userId: number;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  usageType: SshKeyUsage;
}

/** A deploy key enabled in a project (REST `deploy_keys_projects`). */
export interface DeployKeysProject {
  id: number;
  deployKeyId: number;
  projectId: number;
  canPush: boolean;
  createdAt: string;
  updatedAt: string;
}

/** One file inside a job's artifacts archive. */
export interface ArtifactFile {
  /** Path inside the archive, `/`-separated, no leading slash. */
  path: string;
  bytes: Buffer;
}

/** The artifacts a job uploaded: the files of its zip archive, its expiry and whether it is kept. */
export interface JobArtifacts {
  jobId: number;
  files: ArtifactFile[];
  /** ISO timestamp after which the archive is gone; null when it never expires (or was kept). */
  expireAt: string | null;
  /** Set by `POST .../artifacts/keep`: the archive survives its expiry. */
  locked: boolean;
}

// ---- Issues, milestones, labels, merge requests, to-dos, metric images and boards (issue 4) ----

/** A project label (rest-v4-api.md: board `labels`, issue `labels` with `with_labels_details`). */
export interface Label {
  id: number;
  projectId: number;
  name: string;
  /** `#RRGGBB`. */
  color: string;
  description: string | null;
  /** Lower sorts first for `order_by=label_priority`; null for unprioritized labels. */
  priority: number | null;
}

export interface Milestone {
  id: number;
  /** Project-internal id. */
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'active' | 'closed';
  createdAt: string;
  updatedAt: string;
  dueDate: string | null;
  startDate: string | null;
  closedAt: string | null;
}

/** A group label, which every project of the group and of its subgroups may use. Ids are shared with project labels. */
export interface GroupLabel {
  id: number;
  groupId: number;
  name: string;
  /** `#RRGGBB`. */
  color: string;
  description: string | null;
}

/** A group milestone, which the projects of the group and its subgroups may use. Ids are shared with project milestones. */
export interface GroupMilestone extends Omit<Milestone, 'projectId'> {
  groupId: number;
}

/** (PREMIUM) A group's epic; issues may belong to one, and `/promote` turns an issue into one. */
export interface Epic {
  id: number;
  iid: number;
  groupId: number;
  title: string;
  description: string;
  createdAt: string;
  /** The issue this epic was promoted from, if any. */
  promotedFromIssueId: number | null;
}

/** (PREMIUM) A group's iteration (sprint); `state` is the integer REST shows (1 upcoming, 2 current, 3 closed). */
export interface Iteration {
  id: number;
  iid: number;
  sequence: number;
  groupId: number;
  title: string | null;
  state: 1 | 2 | 3;
  createdAt: string;
  startDate: string;
  dueDate: string;
}

export type IssueType = 'issue' | 'incident' | 'test_case';

/** An emoji reaction on an issue or a note; `thumbsup` and `thumbsdown` are the up- and downvotes. */
export interface AwardEmoji {
  id: number;
  userId: number;
  name: string;
  createdAt: string;
}

/** Who filed an issue through the web, for spam checks (administrators only). */
export interface UserAgentDetail {
  userAgent: string;
  ipAddress: string;
  submitted: boolean;
}

export interface Issue {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  issueType: IssueType;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedById: number | null;
  authorId: number;
  assigneeIds: number[];
  milestoneId: number | null;
  /** Label names, as REST lists them. */
  labels: string[];
  awards: AwardEmoji[];
  dueDate: string | null;
  confidential: boolean;
  discussionLocked: boolean;
  /** (PREMIUM) 0 to 9, or null. */
  weight: number | null;
  /** (PREMIUM) */
  epicId: number | null;
  /** (PREMIUM) */
  iterationId: number | null;
  /** (ULTIMATE) `on_track`, `needs_attention`, `at_risk`, or null. */
  healthStatus: string | null;
  /** Incidents only: `CRITICAL`, `HIGH`, `MEDIUM`, `LOW` or `UNKNOWN`. */
  severity: string;
  relativePosition: number;
  /** Seconds. */
  timeEstimate: number;
  /** Seconds, the sum of the time logged. */
  totalTimeSpent: number;
  tasks: { count: number; completed: number };
  /** Users subscribed to notifications of the issue (the `subscribed` field of a single issue). */
  subscriberIds: number[];
  userAgentDetail: UserAgentDetail | null;
  /** Set when `/promote` turned the issue into an epic. */
  promotedToEpicId: number | null;
  /** Set when `POST .../move` moved the issue: the id of its copy in the other project. */
  movedToId?: number | null;
}

/** A comment on an issue (the notes and discussions resources). */
export interface Note extends NoteContent {
  issueId: number;
}

/**
 * A comment on a merge request. Its threads' notes are resolvable (GitLab's DiscussionNote on a
 * merge request); a plain comment is not. Ids come from the same sequence as issues' notes.
 */
export interface MergeRequestNote extends NoteContent {
  mergeRequestId: number;
  resolvable: boolean;
  /** Who resolved the note and when; absent while it is unresolved. */
  resolvedById?: number;
  resolvedAt?: string;
}

/** What every note has, whatever it is on. */
export interface NoteContent {
  id: number;
  authorId: number;
  body: string;
  system: boolean;
  /** An internal note (REST `internal`, formerly `confidential`): Reporters and above see it. */
  confidential: boolean;
  createdAt: string;
  /** Set when the body was edited; the creation time otherwise. */
  updatedAt?: string;
  /**
   * The 40-hex discussion the note belongs to; absent for a note of its own (a plain comment),
   * whose discussion id is derived from the note's id.
   */
  discussionId?: string;
  /** Emoji reactions on the note, oldest first; absent until the first. */
  awards?: AwardEmoji[];
}

/** A merge request, as far as the issue endpoints show it (rest-v4-api.md "Merge request summary"). */
export interface MergeRequest {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  createdAt: string;
  updatedAt: string;
  mergedAt: string | null;
  closedAt: string | null;
  closedById: number | null;
  /** Who merged it (MergeRequest::Metrics#merged_by); null unless merged. */
  mergedById: number | null;
  authorId: number;
  assigneeId: number | null;
  /** Users asked to review it. */
  reviewerIds: number[];
  /** Users who get its notifications (Subscribable: the participants, until they unsubscribe). */
  subscriberIds: number[];
  sourceBranch: string;
  targetBranch: string;
  labels: string[];
  milestoneId: number | null;
  /** Whether only project members may comment (REST `discussion_locked`); null until first set, as GitLab stores it. */
  discussionLocked: boolean | null;
  /** The estimate, in seconds (REST `time_stats.time_estimate`). */
  timeEstimate: number;
  draft: boolean;
  sha: string;
  mergeCommitSha: string | null;
  mergeStatus: 'can_be_merged' | 'cannot_be_merged' | 'unchecked';
  userNotesCount: number;
  changesCount: number;
  /** Issues its description closes when merged (`Closes #12`). */
  closesIssueIds: number[];
  /** Issues it mentions without closing them. */
  mentionsIssueIds: number[];
}

export interface Todo {
  id: number;
  userId: number;
  authorId: number;
  /** What the to-do is about: an issue or a merge request, by its id. */
  targetType: 'Issue' | 'MergeRequest';
  targetId: number;
  actionName: 'marked' | 'assigned' | 'mentioned';
  state: 'pending' | 'done';
  body: string;
  createdAt: string;
}

/** An image attached to an incident (rest-v4-api.md "Metric image"). */
export interface MetricImage {
  id: number;
  issueId: number;
  filename: string;
  contentType: string;
  size: number;
  url: string | null;
  urlText: string | null;
  createdAt: string;
}

/**
 * An issue board of a project or (GitLab's group boards) of a group: exactly one of `projectId` and
 * `groupId` is set. The scope fields (milestone, assignee, labels, weight) are PREMIUM.
 */
export interface Board {
  id: number;
  projectId: number | null;
  groupId: number | null;
  name: string;
  /** GitLab's board settings: hide the Open (backlog) list, hide the Closed list. */
  hideBacklogList: boolean;
  hideClosedList: boolean;
  milestoneId: number | null;
  assigneeId: number | null;
  labelIds: number[];
  weight: number | null;
}

/** A list of a board: issues with one label, one assignee (PREMIUM) or one milestone (PREMIUM). */
export interface BoardList {
  id: number;
  boardId: number;
  labelId: number | null;
  assigneeId: number | null;
  milestoneId: number | null;
  /** 0-based order among the board's lists. */
  position: number;
  maxIssueCount: number;
  maxIssueWeight: number;
  limitMetric: string | null;
}

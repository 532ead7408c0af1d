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
}

export type TokenScope = 'api' | 'read_api' | 'read_user' | 'sudo';

export interface PersonalAccessToken {
  token: string;
  userId: number;
  name: string;
  scopes: TokenScope[];
  revoked: boolean;
  /** YYYY-MM-DD or null; a date before the simulator's clock makes the token expired. */
  expiresAt: string | null;
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
}

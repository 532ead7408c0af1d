// Who may read and write a project's repository, and finding commits in it. Reading follows the
// project's visibility (404 for what the caller may not see, rest-conventions §7); pushing takes
// Developer, and Maintainer on a fully protected default branch (rest-v4-api.md
// "default_branch_protection values"); an archived project takes no pushes.
import { projectAccessLevel } from '../../data/access.js';
import { AccessLevel, type Project, type User } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import type { Person } from '../../repository/objects.js';
import type { GitCommit, Repository } from '../../repository/repository.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { RequestContext } from '../../http/router.js';
import { visibleProject } from '../lookup.js';

export interface ProjectRepository {
  project: Project;
  repository: Repository;
}

export function readableRepository(ctx: RequestContext<unknown>, id: string): ProjectRepository {
  const project = visibleProject(ctx, id);
  const repository = ctx.state.repositories.get(project.id);
  if (!repository) throw notFound('Repository');
  return { project, repository };
}

export function existingCommit(repository: Repository, revision: string): GitCommit {
  const commit = repository.resolve(revision);
  if (!commit) throw notFound('Commit');
  return commit;
}

function level(state: SimulatorState, user: User | null, project: Project): number {
  return user?.isAdmin ? AccessLevel.OWNER : projectAccessLevel(state, user, project);
}

/** The protection of the default branch: the group's setting, full protection for personal projects. */
function defaultBranchProtection(state: SimulatorState, project: Project): number {
  return state.projectGroup(project)?.defaultBranchProtection ?? 2;
}

export function canPushToBranch(state: SimulatorState, user: User | null, project: Project, branch: string): boolean {
  if (project.archived) return false;
  const access = level(state, user, project);
  if (access < AccessLevel.DEVELOPER) return false;
  const protectedBranch = branch === project.defaultBranch && defaultBranchProtection(state, project) === 2;
  return !protectedBranch || access >= AccessLevel.MAINTAINER;
}

/** `authorize_push_to_branch!`: 403 "You are not allowed to push into this branch". */
export function requirePush(ctx: RequestContext<unknown>, project: Project, branch: string): void {
  if (!canPushToBranch(ctx.state, ctx.user, project, branch)) throw forbidden('You are not allowed to push into this branch');
}

/** Reading pipelines and statuses of a private project takes Reporter (guests see none). */
export function requireStatusReader(ctx: RequestContext<unknown>, project: Project): void {
  if (project.visibility === 'private' && level(ctx.state, ctx.user, project) < AccessLevel.REPORTER) throw forbidden();
}

/** Posting a commit status takes Developer (`create_commit_status`). */
export function requireDeveloper(ctx: RequestContext<unknown>, project: Project): void {
  if (level(ctx.state, ctx.user, project) < AccessLevel.DEVELOPER) throw forbidden();
}

/** The caller as the committer (or author) of a commit made now. */
export function personOf(user: User, time: number, name?: string, email?: string): Person {
  return { name: name ?? user.name, email: email ?? user.email, time, offsetMinutes: 0 };
}

/** A new id above every id in the collection and never below `floor`. */
export function nextIdIn(collection: ReadonlyMap<number, unknown>, floor: number): number {
  let max = floor - 1;
  for (const id of collection.keys()) if (id > max) max = id;
  return max + 1;
}

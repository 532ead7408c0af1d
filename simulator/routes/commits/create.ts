// `POST /projects/:id/repository/commits` (rest-v4-api.md "Commit creation body"): the actions are
// applied as one batch to the start point (the branch, or start_branch / start_sha), with the
// checks of GitLab's lib/api/commits.rb and Commits::CreateService, and their messages.
import type { ParamHash, ParamValue } from '../../http/query.js';
import { commitDetail } from '../../entities/commits.js';
import { badRequest, forbidden, messageError } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { created } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { applyFileActions, ChangeRefused, type FileAction, type FileActionKind } from '../../repository/changes.js';
import type { GitCommit, Repository } from '../../repository/repository.js';
import { visibleProject } from '../lookup.js';
import { personOf, readableRepository, requirePush } from './access.js';

const ACTIONS: readonly FileActionKind[] = ['create', 'delete', 'move', 'update', 'chmod'];

function text(value: ParamValue | undefined): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

function bool(value: ParamValue | undefined): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** One action, checked as `validate_commit_action!` does; content decoded from base64 when asked. */
function readAction(raw: ParamHash, index: number): FileAction {
  const name = `actions[${index}]`;
  const action = text(raw['action']);
  const filePath = text(raw['file_path']);
  if (!action) throw badRequest(`${name}[action] is required`);
  if (!filePath) throw badRequest(`${name}[file_path] is required`);
  if (!ACTIONS.includes(action as FileActionKind)) throw badRequest(`${name}[action] must be one of: create, update, move, delete, chmod`);
  const encoding = raw['encoding'] === undefined ? 'text' : text(raw['encoding']);
  if (encoding !== 'text' && encoding !== 'base64') throw badRequest(`${name}[encoding] must be text or base64`);
  const content = text(raw['content']);
  if (action === 'update' && content === undefined) throw badRequest(`${name}[content] is required for update action`);
  const previousPath = text(raw['previous_path']);
  if (action === 'move' && !previousPath) throw badRequest(`${name}[previous_path] is required for move action`);
  const executeFilemode = bool(raw['execute_filemode']);
  if (action === 'chmod' && raw['execute_filemode'] === undefined) throw badRequest(`${name}[execute_filemode] is required for chmod action`);
  if (action === 'chmod' && executeFilemode === undefined) throw badRequest(`${name}[execute_filemode] must be a boolean`);
  return {
    action: action as FileActionKind,
    filePath,
    previousPath,
    content: content === undefined ? undefined : Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8'),
    lastCommitId: text(raw['last_commit_id']),
    executeFilemode,
  };
}

/** git's ref-name rules, as far as a branch name goes (`Branches::ValidateNewService`). */
function validBranchName(name: string): boolean {
  return !/(^[./-])|(\.\.)|([\s~^:?*[\\\x00-\x1f\x7f])|(\/\/)|(\/$)|(\.lock$)|(\.$)|(@\{)/.test(name) && name !== '@';
}

interface StartPoint {
  commit: GitCommit | undefined;
}

/** Commits::CreateService#validate!: the start point exists and a new branch does not. */
function startPoint(repository: Repository, branch: string, startBranch: string | undefined, startSha: string | undefined, force: boolean): StartPoint {
  const refuse = (message: string) => messageError(400, message);
  if (startSha !== undefined) {
    if (!/^[0-9a-f]{40}$/.test(startSha)) throw refuse(`Invalid start_sha '${startSha}'`);
    const commit = repository.commits.get(startSha);
    if (!commit) throw refuse(`Cannot find start_sha '${startSha}'`);
  }
  const from = startSha ?? startBranch ?? branch;
  if (startSha === undefined && !repository.isEmpty() && !repository.branches.has(from)) {
    throw refuse('You can only create or edit files when you are on a branch');
  }
  const differentBranch = startSha !== undefined || from !== branch;
  if (!repository.isEmpty() && differentBranch && repository.branches.has(branch) && !force) {
    throw refuse(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (differentBranch && !validBranchName(branch)) throw refuse(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
  return { commit: startSha !== undefined ? repository.commits.get(startSha) : repository.branchHead(from) };
}

function createParams() {
  return {
    id: p.string().required(),
    branch: p.string(),
    commit_message: p.string(),
    start_branch: p.string(),
    start_sha: p.string(),
    start_project: p.string(),
    actions: p.hashArray(),
    author_email: p.string(),
    author_name: p.string(),
    stats: p.boolean().default(true),
    force: p.boolean().default(false),
  };
}

export function registerCommitCreateRoute(router: Router): void {
  router.post('/projects/:id/repository/commits', { auth: 'required', params: createParams() }, (ctx) => {
    const { project, repository } = readableRepository(ctx, ctx.params.id);
    const branch = ctx.params.branch;
    if (!branch?.trim()) throw badRequest('branch is required');
    requirePush(ctx, project, branch);
    if (!ctx.params.commit_message?.trim()) throw badRequest('commit_message is required');
    const rawActions = ctx.params.actions ?? [];
    if (rawActions.length === 0) throw badRequest('Provide at least one action, or set allow_empty to true');
    if (ctx.params.start_branch !== undefined && ctx.params.start_sha !== undefined) throw badRequest('start_branch, start_sha are mutually exclusive');
    const actions = rawActions.map((raw, index) => readAction(raw, index));
    if (ctx.params.start_project !== undefined) {
      const startProject = visibleProject(ctx, ctx.params.start_project);
      // The demo data has no forks: a start project can only be the project itself.
      if (startProject.id !== project.id) throw forbidden(`Project is not included in the fork network for ${ctx.state.projectNamespaceName(startProject)} / ${startProject.name}`);
    }

    const start = startPoint(repository, branch, ctx.params.start_branch, ctx.params.start_sha, ctx.params.force);
    let tree;
    try {
      tree = applyFileActions(repository, start.commit, actions);
    } catch (error) {
      if (error instanceof ChangeRefused) throw messageError(400, error.message);
      throw error;
    }
    const time = repository.nextCommitTime(ctx.state.now);
    const user = ctx.user!;
    const commit = repository.writeCommit({
      tree,
      parents: start.commit ? [start.commit.sha] : [],
      author: personOf(user, time, ctx.params.author_name, ctx.params.author_email),
      committer: personOf(user, time),
      message: ctx.params.commit_message,
    });
    repository.branches.set(branch, commit.sha);
    return created(commitDetail(ctx, project, repository, commit, { stats: ctx.params.stats }));
  });
}

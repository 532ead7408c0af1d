import type { CommitAction, CommitActionMode, CommitCherryPickInput, CommitCreateInput, CommitRevertInput, MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, oneCall } from '../../cost/field-cost.js';
import type { DataSources } from '../../datasources/index.js';
import type { CommitActionBody, CommitCreationBody, CommitSchema, DryRunSchema } from '../../datasources/commits.js';
import { RestError } from '../../datasources/rest-error.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { commitRecord } from '../../records/commits.js';
import { idFromGlobalId } from '../global-id.js';
import { refusalReasons } from '../refusals.js';
import { checkFullPath } from '../projects/Query.js';
import { COMMIT_CHANGED, COMMIT_LOADED, COMMIT_OF_SUBMODULE } from '../../cost/shapes.js';
import { recordField } from '../../fields/patterns.js';

const FULL_SHA = /^[0-9a-f]{40}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function required(value: string, argumentName: string): string {
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must not be blank.`, argumentName);
  return value;
}

function fullSha(value: string, argumentName: string): string {
  if (!FULL_SHA.test(value)) throw badUserInput(`\`${argumentName}\` must be a full 40-character SHA; got "${value.slice(0, 50)}".`, argumentName);
  return value;
}

/** Which fields each action takes (rest-v4-api.md "Action object"). */
const ACTION_FIELDS: Record<CommitActionMode, { content: 'required' | 'optional' | 'refused'; previousPath: boolean; lastCommitId: boolean; executeFilemode: boolean }> = {
  create: { content: 'required', previousPath: false, lastCommitId: false, executeFilemode: false },
  update: { content: 'required', previousPath: false, lastCommitId: true, executeFilemode: false },
  move: { content: 'optional', previousPath: true, lastCommitId: true, executeFilemode: false },
  delete: { content: 'refused', previousPath: false, lastCommitId: true, executeFilemode: false },
  chmod: { content: 'refused', previousPath: false, lastCommitId: false, executeFilemode: true },
};

/** One action, checked against the interface's rules before any REST call. */
function actionBody(action: CommitAction, index: number): CommitActionBody {
  const refuse = (message: string) => badUserInput(`actions[${index}]: ${message}`, 'actions');
  const rules = ACTION_FIELDS[action.action];
  const name = action.action.toUpperCase();
  const content = action.content ?? undefined;
  const previousPath = action.previousPath ?? undefined;
  const lastCommitId = action.lastCommitId ?? undefined;
  const executeFilemode = action.executeFilemode ?? undefined;
  if (!action.filePath.trim()) throw refuse('`filePath` must not be blank.');
  if (rules.content === 'required' && content === undefined) throw refuse(`${name} needs \`content\`.`);
  if (rules.content === 'refused' && content !== undefined) throw refuse(`${name} takes no \`content\`.`);
  if (rules.previousPath !== (previousPath !== undefined)) throw refuse(rules.previousPath ? `${name} needs \`previousPath\`.` : '`previousPath` is for MOVE only.');
  if (previousPath !== undefined && !previousPath.trim()) throw refuse('`previousPath` must not be blank.');
  if (rules.executeFilemode !== (executeFilemode !== undefined)) throw refuse(rules.executeFilemode ? `${name} needs \`executeFilemode\`.` : '`executeFilemode` is for CHMOD only.');
  if (lastCommitId !== undefined && !rules.lastCommitId) throw refuse('`lastCommitId` is for UPDATE, MOVE and DELETE only.');
  if (lastCommitId !== undefined && !FULL_SHA.test(lastCommitId)) throw refuse('`lastCommitId` must be a full 40-character SHA.');
  if (action.encoding === 'base64' && content !== undefined) {
    const compact = content.replace(/\s+/g, '');
    if (compact.length % 4 !== 0 || !BASE64.test(compact)) throw refuse('`content` is not valid base64.');
  }
  const body: CommitActionBody = { action: action.action, file_path: action.filePath };
  if (previousPath !== undefined) body.previous_path = previousPath;
  if (content !== undefined) body.content = content;
  if (action.encoding) body.encoding = action.encoding;
  if (lastCommitId !== undefined) body.last_commit_id = lastCommitId;
  if (executeFilemode !== undefined) body.execute_filemode = executeFilemode;
  return body;
}

function creationBody(input: CommitCreateInput): CommitCreationBody {
  if (input.actions.length === 0) throw badUserInput('`actions` must hold at least one action.', 'actions');
  if (input.startBranch && input.startSha) throw badUserInput('Give `startBranch` or `startSha`, not both.', 'startSha');
  const body: CommitCreationBody = {
    branch: required(input.branch, 'branch'),
    commit_message: required(input.message, 'message'),
    actions: input.actions.map(actionBody),
  };
  if (input.startBranch) body.start_branch = required(input.startBranch, 'startBranch');
  if (input.startSha) body.start_sha = fullSha(input.startSha, 'startSha');
  if (input.startProject) body.start_project = /^\d+$/.test(input.startProject) ? Number(input.startProject) : checkFullPath(input.startProject, 'startProject');
  if (input.authorEmail) body.author_email = input.authorEmail;
  if (input.authorName) body.author_name = input.authorName;
  if (input.force !== null && input.force !== undefined) body.force = input.force;
  return body;
}

function isDryRun(result: CommitSchema | DryRunSchema): result is DryRunSchema {
  return (result as DryRunSchema).dry_run === 'success';
}

/** `empty` and `conflict` (rest-v4-api.md "Errors") as the payload's data; anything else stays an error. */
function changeFailure(error: unknown): { errors: string[]; errorCode: 'empty' | 'conflict' } | null {
  if (!(error instanceof RestError) || (error.errorCode !== 'empty' && error.errorCode !== 'conflict')) return null;
  return { errors: [error.reason], errorCode: error.errorCode };
}

type Change = 'cherryPick' | 'revert';

/**
 * Cherry-pick or revert. A dry run that would apply answers `dryRun` with no commit; `empty` and
 * `conflict` come back as data, with REST's message, for a dry run as for a real one.
 */
async function applyChange(change: Change, input: CommitCherryPickInput | CommitRevertInput, api: DataSources) {
  const project = checkFullPath(input.projectPath, 'projectPath');
  const sha = required(input.sha, 'sha');
  const request = { branch: required(input.branch, 'branch'), dryRun: input.dryRun ?? false };
  const clientMutationId = input.clientMutationId ?? null;
  try {
    const result = change === 'cherryPick' ? await api.commits.cherryPick(project, sha, request) : await api.commits.revert(project, sha, request);
    if (isDryRun(result)) return { clientMutationId, errors: [], errorCode: null, dryRun: true, commit: null };
    return { clientMutationId, errors: [], errorCode: null, dryRun: request.dryRun, commit: commitRecord(result, project) };
  } catch (error) {
    const failure = changeFailure(error);
    if (failure) return { clientMutationId, ...failure, dryRun: request.dryRun, commit: null };
    throw error;
  }
}

const commitMutations: Pick<MutationResolvers, 'commitCreate' | 'commitCherryPick' | 'commitRevert' | 'commitStatusCreate' | 'commitCommentCreate' | 'submoduleUpdate'> = {
  commitCreate: declared({ ...oneCall(), rest: ['POST /projects/:id/repository/commits'] }, async (_parent, { input }, { api, loaders }) => {
    const project = checkFullPath(input.projectPath, 'projectPath');
    const body = creationBody(input);
    const clientMutationId = input.clientMutationId ?? null;
    try {
      const commit = commitRecord(await api.commits.create(project, body), project);
      // The answer is the full single-commit record (stats, status, last pipeline).
      loaders.commit.prime({ project: commit.project_ref ?? project, sha: commit.id }, commit);
      return { clientMutationId, errors: [], commit };
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, commit: null };
      throw error;
    }
  }),

  commitCherryPick: declared({ ...oneCall(), rest: ['POST /projects/:id/repository/commits/:sha/cherry_pick'] }, (_parent, { input }, { api }) =>
    applyChange('cherryPick', input, api),
  ),
  commitRevert: declared({ ...oneCall(), rest: ['POST /projects/:id/repository/commits/:sha/revert'] }, (_parent, { input }, { api }) =>
    applyChange('revert', input, api),
  ),

  commitStatusCreate: declared({ ...oneCall(), rest: ['POST /projects/:id/statuses/:sha'] }, async (_parent, { input }, { api }) => {
    const project = checkFullPath(input.projectPath, 'projectPath');
    const sha = required(input.sha, 'sha');
    const body = {
      state: input.state,
      ...(input.ref ? { ref: required(input.ref, 'ref') } : {}),
      ...(input.name ? { name: input.name } : {}),
      ...(input.context ? { context: input.context } : {}),
      ...(input.targetUrl ? { target_url: input.targetUrl } : {}),
      ...(input.description !== null && input.description !== undefined ? { description: input.description } : {}),
      ...(input.coverage !== null && input.coverage !== undefined ? { coverage: input.coverage } : {}),
      ...(input.pipelineId ? { pipeline_id: idFromGlobalId(input.pipelineId, 'Ci::Pipeline', 'pipelineId') } : {}),
    };
    const clientMutationId = input.clientMutationId ?? null;
    try {
      return { clientMutationId, errors: [], commitStatus: await api.commitStatuses.create(project, sha, body) };
    } catch (error) {
      // A move the state machine refuses (400 "Cannot transition status via ...") is an outcome.
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, commitStatus: null };
      throw error;
    }
  }),

  commitCommentCreate: declared({ ...oneCall(), rest: ['POST /projects/:id/repository/commits/:sha/comments'] }, async (_parent, { input }, { api }) => {
    const project = checkFullPath(input.projectPath, 'projectPath');
    const sha = required(input.sha, 'sha');
    const note = required(input.note, 'note');
    const hasPath = input.path !== null && input.path !== undefined;
    const hasLine = input.line !== null && input.line !== undefined;
    if (hasPath !== hasLine) throw badUserInput('Give `path` and `line` together, or neither.', hasPath ? 'line' : 'path');
    if (!hasPath && input.lineType) throw badUserInput('`lineType` needs `path` and `line`.', 'lineType');
    if (hasLine && input.line! < 1) throw badUserInput('`line` must be 1 or more.', 'line');
    const body = hasPath ? { note, path: required(input.path!, 'path'), line: input.line!, line_type: input.lineType ?? 'new' } : { note };
    return { clientMutationId: input.clientMutationId ?? null, errors: [], comment: await api.commits.createComment(project, sha, body) };
  }),

  submoduleUpdate: declared({ ...oneCall(), rest: ['PUT /projects/:id/repository/submodules/:submodule'] }, async (_parent, { input }, { api }) => {
    const project = checkFullPath(input.projectPath, 'projectPath');
    const submodule = checkFullPath(input.submodule.replace(/\/+$/, ''), 'submodule');
    const body = {
      branch: required(input.branch, 'branch'),
      commit_sha: fullSha(input.commitSha, 'commitSha'),
      ...(input.commitMessage ? { commit_message: input.commitMessage } : {}),
    };
    const clientMutationId = input.clientMutationId ?? null;
    try {
      return { clientMutationId, errors: [], commit: commitRecord(await api.submodules.update(project, submodule, body), project) };
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, commit: null };
      throw error;
    }
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: commitMutations, CommitCreatePayload: { commit: recordField(embedded(COMMIT_LOADED)) }, CommitCherryPickPayload: { commit: recordField(embedded(COMMIT_CHANGED)) }, CommitRevertPayload: { commit: recordField(embedded(COMMIT_CHANGED)) }, SubmoduleUpdatePayload: { commit: recordField(embedded(COMMIT_OF_SUBMODULE)) } };

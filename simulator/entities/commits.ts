// Commit shapes (rest-v4-api.md "Commit", "Commit status", "Other commit sub-resources"; checked
// against fixtures/gitlab-docs/commits/): the commit of lists (GitLab's Entities::Commit), with
// stats (CommitWithStats), the detail (CommitDetail with status and last pipeline), diff entries,
// refs, comments, discussions, statuses and signatures.
import type { CommitNote, CommitPipeline, CommitStatus } from '../data/commits.js';
import type { JobCommit, Project } from '../data/model.js';
import { commitDiff, commitStats } from '../repository/commit-diff.js';
import { formatGitTime } from '../repository/objects.js';
import type { CommitSignature, GitCommit, Repository } from '../repository/repository.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';
import { userSummary } from './users.js';

/** GitLab's `Commit#title`: the first line, cut at 100 characters. */
function title(message: string): string {
  const first = message.split('\n', 1)[0] ?? '';
  return first.length > 100 ? `${first.slice(0, 79)}…` : first;
}

/** Trailers of the message's last paragraph (`Key: value` lines), as `trailers=true` reads them. */
function trailers(message: string): { trailers: Record<string, string>; extended: Record<string, string[]> } {
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  const last = paragraphs.length > 1 ? paragraphs[paragraphs.length - 1]! : '';
  const lines = last.split('\n').filter((line) => line.trim() !== '');
  const parsed = lines.map((line) => /^([A-Za-z0-9][A-Za-z0-9-]*):\s+(.+)$/.exec(line));
  const result = { trailers: {} as Record<string, string>, extended: {} as Record<string, string[]> };
  if (parsed.length === 0 || parsed.some((match) => match === null)) return result;
  for (const match of parsed) {
    const [, key, value] = match!;
    result.trailers[key!] = value!;
    (result.extended[key!] ??= []).push(value!);
  }
  return result;
}

export function commitWebUrl(ctx: PresentContext, project: Project, sha: string): string {
  return `${ctx.origin}/${ctx.state.projectFullPath(project)}/-/commit/${sha}`;
}

export interface CommitPresentOptions {
  /** Parse trailers (`trailers=true` of the list); otherwise both trailer fields are empty. */
  trailers?: boolean;
}

/** A repository commit as a job keeps its commit (JobCommit): the fields Entities::Commit shows. */
function commitFields(commit: GitCommit): JobCommit {
  return {
    id: commit.sha,
    shortId: commit.sha.slice(0, 11),
    title: title(commit.message),
    message: commit.message,
    createdAt: formatGitTime(commit.committer),
    parentIds: [...commit.parents],
    authorName: commit.author.name,
    authorEmail: commit.author.email,
    authoredDate: formatGitTime(commit.author),
    committerName: commit.committer.name,
    committerEmail: commit.committer.email,
    committedDate: formatGitTime(commit.committer),
  };
}

/**
 * Entities::Commit, whether the commit comes from a repository or from a job's record of it (the
 * `commit` of Entities::Ci::JobBasic is this same entity, web_url and all).
 */
export function commitRecordEntity(ctx: PresentContext, project: Project, commit: JobCommit, parsed: ReturnType<typeof trailers> = { trailers: {}, extended: {} }) {
  return {
    id: commit.id,
    short_id: commit.shortId,
    created_at: commit.createdAt,
    parent_ids: [...commit.parentIds],
    title: commit.title,
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: commit.authoredDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: commit.committedDate,
    trailers: parsed.trailers,
    extended_trailers: parsed.extended,
    web_url: commitWebUrl(ctx, project, commit.id),
  };
}

/** A commit as lists and cherry-pick and revert answers show it (fixtures list-repository-commits.json). */
export function commitEntity(ctx: PresentContext, project: Project, commit: GitCommit, options: CommitPresentOptions = {}) {
  return commitRecordEntity(ctx, project, commitFields(commit), options.trailers ? trailers(commit.message) : undefined);
}

export function commitWithStats(ctx: PresentContext, project: Project, repository: Repository, commit: GitCommit, options: CommitPresentOptions = {}) {
  return extend(commitEntity(ctx, project, commit, options), { stats: commitStats(repository, commit) });
}

/**
 * The composite status of a pipeline from its latest statuses, in the spirit of GitLab's
 * Ci::HasStatus: anything running (or pending beside finished work) is running, then pending,
 * then a failure that is not allowed to fail, then canceled, then success.
 */
export function pipelineStatus(statuses: readonly CommitStatus[]): string {
  const latest = statuses.filter((status) => !status.retried);
  if (latest.length === 0) return 'created';
  const has = (state: CommitStatus['status']) => latest.some((status) => status.status === state);
  const started = latest.some((status) => ['success', 'failed', 'canceled', 'running'].includes(status.status));
  if (has('running') || ((has('pending') || has('created')) && started)) return 'running';
  if (has('pending')) return 'pending';
  if (latest.every((status) => status.status === 'created')) return 'created';
  if (latest.some((status) => status.status === 'failed' && !status.allowFailure)) return 'failed';
  if (has('canceled')) return 'canceled';
  if (latest.every((status) => status.status === 'skipped')) return 'skipped';
  return 'success';
}

export function statusesOfPipeline(ctx: PresentContext, pipeline: CommitPipeline): CommitStatus[] {
  return [...ctx.state.commitStatuses.values()].filter((status) => status.pipelineId === pipeline.id);
}

/** GitLab's Ci::PipelineBasic, as `last_pipeline` shows it. */
export function pipelineBasic(ctx: PresentContext, project: Project, pipeline: CommitPipeline) {
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: pipeline.projectId,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipelineStatus(statusesOfPipeline(ctx, pipeline)),
    source: pipeline.source,
    created_at: pipeline.createdAt,
    updated_at: pipeline.updatedAt,
    web_url: `${ctx.origin}/${ctx.state.projectFullPath(project)}/-/pipelines/${pipeline.id}`,
  };
}

/** The newest pipeline of a commit (GitLab's `Commit#latest_pipeline`), if any. */
export function latestPipeline(ctx: PresentContext, project: Project, sha: string): CommitPipeline | undefined {
  let latest: CommitPipeline | undefined;
  for (const pipeline of ctx.state.commitPipelines.values()) {
    if (pipeline.projectId === project.id && pipeline.sha === sha && (!latest || pipeline.id > latest.id)) latest = pipeline;
  }
  return latest;
}

/** `GET .../commits/:sha`, create and submodule answers: the commit with its status and last pipeline. */
export function commitDetail(ctx: PresentContext, project: Project, repository: Repository, commit: GitCommit, options: { stats: boolean }) {
  const pipeline = latestPipeline(ctx, project, commit.sha);
  const last = pipeline ? pipelineBasic(ctx, project, pipeline) : null;
  return extend(commitEntity(ctx, project, commit), {
    ...(options.stats ? { stats: commitStats(repository, commit) } : {}),
    status: last?.status ?? null,
    project_id: project.id,
    last_pipeline: last,
  });
}

/** `GET .../commits/:sha/diff`: one entry per changed file (fixtures get-commit-diff.json). */
export function diffEntities(repository: Repository, commit: GitCommit) {
  return commitDiff(repository, commit).map(({ change, diff }) => ({
    diff: diff.text,
    collapsed: false,
    too_large: false,
    new_path: change.newPath,
    old_path: change.oldPath,
    a_mode: change.oldEntry?.mode ?? '0',
    b_mode: change.newEntry?.mode ?? '0',
    new_file: change.newFile,
    renamed_file: change.renamedFile,
    deleted_file: change.deletedFile,
    generated_file: null,
  }));
}

function authorOf(ctx: PresentContext, authorId: number) {
  const author = ctx.state.users.get(authorId);
  return author ? userSummary(ctx, author) : null;
}

/** A commit comment (fixtures create-commit-comment.json): path, line and type only when placed on a line. */
export function commentEntity(ctx: PresentContext, note: CommitNote) {
  return {
    note: note.note,
    path: note.path,
    line: note.line,
    line_type: note.lineType,
    author: authorOf(ctx, note.authorId),
    created_at: note.createdAt,
  };
}

/** A note of a commit discussion (fixtures list-commit-discussions.json). */
function discussionNote(ctx: PresentContext, note: CommitNote) {
  return {
    id: note.id,
    type: note.lineCode ? 'LegacyDiffNote' : null,
    body: note.note,
    attachment: null,
    author: authorOf(ctx, note.authorId),
    created_at: note.createdAt,
    updated_at: note.createdAt,
    system: false,
    noteable_id: null,
    noteable_type: 'Commit',
    project_id: note.projectId,
    commit_id: note.sha,
    resolvable: false,
    confidential: false,
    internal: false,
    noteable_iid: null,
    commands_changes: {},
  };
}

/** A discussion: the notes on one diff line together, or a comment on the whole commit alone. */
export function discussionEntity(ctx: PresentContext, id: string, notes: readonly CommitNote[]) {
  return { id, individual_note: notes[0]?.lineCode === null, notes: notes.map((note) => discussionNote(ctx, note)) };
}

/** Entities::CommitStatus (fixtures list-commit-statuses.json, set-commit-status.json). */
export function commitStatusEntity(ctx: PresentContext, status: CommitStatus) {
  return {
    id: status.id,
    sha: status.sha,
    ref: status.ref,
    status: status.status,
    name: status.name,
    target_url: status.targetUrl,
    description: status.description,
    created_at: status.createdAt,
    started_at: status.startedAt,
    finished_at: status.finishedAt,
    allow_failure: status.allowFailure,
    coverage: status.coverage,
    pipeline_id: status.pipelineId,
    author: authorOf(ctx, status.authorId),
  };
}

/** Entities::CommitSignature for each kind (fixtures get-commit-signature-*.json). */
export function signatureEntity(signature: CommitSignature) {
  const common = { signature_type: signature.type, verification_status: signature.verificationStatus };
  switch (signature.type) {
    case 'PGP':
      return {
        ...common,
        gpg_key_id: signature.gpgKeyId,
        gpg_key_primary_keyid: signature.gpgKeyPrimaryKeyid,
        gpg_key_user_name: signature.gpgKeyUserName,
        gpg_key_user_email: signature.gpgKeyUserEmail,
        gpg_key_subkey_id: signature.gpgKeySubkeyId,
        commit_source: 'gitaly',
      };
    case 'X509': {
      const { certificate } = signature;
      return {
        ...common,
        x509_certificate: {
          id: certificate.id,
          subject: certificate.subject,
          subject_key_identifier: certificate.subjectKeyIdentifier,
          email: certificate.email,
          // A JSON number of 39 digits, as GitLab sends it: see jsonWithBigIntegers.
          serial_number: certificate.serialNumber,
          certificate_status: certificate.certificateStatus,
          x509_issuer: {
            id: certificate.issuer.id,
            subject: certificate.issuer.subject,
            subject_key_identifier: certificate.issuer.subjectKeyIdentifier,
            crl_url: certificate.issuer.crlUrl,
          },
        },
        commit_source: 'gitaly',
      };
    }
    case 'SSH':
      return {
        ...common,
        key: {
          id: signature.key.id,
          title: signature.key.title,
          created_at: signature.key.createdAt,
          expires_at: signature.key.expiresAt,
          key: signature.key.key,
          usage_type: signature.key.usageType,
        },
        commit_source: 'gitaly',
      };
  }
}

/**
 * JSON text in which bigints are written as the integer literals they are (JSON.stringify refuses
 * bigints, and a Number would round them): GitLab sends X.509 serial numbers this way.
 */
export function jsonWithBigIntegers(value: unknown): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${marker}${item.toString()}` : item));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

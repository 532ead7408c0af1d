// `GET /projects/:id/repository/files/:file_path` (GitLab's REST "Get file from repository",
// lib/api/files.rb) and `GET /projects/:id/repository/branches/:branch` (lib/api/branches.rb).
// A file answers with its name and path, its size and base64 content with the content's SHA-256,
// the blob's id, the commit the ref names and the last commit that changed the file, and whether
// it is executable. `ref` is required (400 "ref is missing"); an unknown ref is 404 "Commit Not
// Found" (`not_found!('Commit')`), a path that is no file of that commit 404 "File Not Found".
// The branch answers `can_push` for the caller, which GitLab's web pages read as
// `user_access.can_push_to_branch?`.
import { createHash } from 'node:crypto';
import { notFound } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { ok } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { lastCommitTouching } from '../../repository/log.js';
import { GITLINK_MODE } from '../../repository/objects.js';
import { branchRecord } from './branches.js';
import { readableRepository } from './access.js';

export function registerRepositoryFileRoutes(router: Router): void {
  router.get(
    '/projects/:id/repository/files/:file_path',
    { auth: 'optional', params: { id: p.string().required(), file_path: p.string().required(), ref: p.string().required() } },
    (ctx) => {
      const { repository } = readableRepository(ctx, ctx.params.id);
      const commit = repository.resolve(ctx.params.ref);
      if (!commit) throw notFound('Commit');
      const path = ctx.params.file_path;
      const entry = commit.tree.get(path);
      // A gitlink is no blob of this repository; a directory is no entry of the flat tree.
      if (!entry || entry.mode === GITLINK_MODE || !repository.hasBlob(entry.oid)) throw notFound('File');
      const content = repository.blob(entry.oid);
      return ok({
        file_name: path.slice(path.lastIndexOf('/') + 1),
        file_path: path,
        size: content.length,
        encoding: 'base64',
        content: content.toString('base64'),
        content_sha256: createHash('sha256').update(content).digest('hex'),
        ref: ctx.params.ref,
        blob_id: entry.oid,
        commit_id: commit.sha,
        last_commit_id: lastCommitTouching(repository, commit.sha, path)?.sha ?? commit.sha,
        execute_filemode: entry.mode === '100755',
      });
    },
  );

  router.get('/projects/:id/repository/branches/:branch', { auth: 'optional', params: { id: p.string().required(), branch: p.string().required() } }, (ctx) => {
    const { project, repository } = readableRepository(ctx, ctx.params.id);
    return ok(branchRecord(ctx, project, repository, ctx.params.branch));
  });
}

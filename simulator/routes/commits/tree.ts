// `GET /projects/:id/repository/tree` (GitLab's REST "List repository tree", lib/api/repositories.rb):
// the entries of a directory at a ref (the default branch when none is given), or with `recursive`
// every entry below it, in offset pages with every header of rest-conventions §3. An unknown ref
// answers 404 "Tree Not Found" (`not_found!("Tree")` when the commit does not exist); a path that
// is no directory of that commit answers Gitaly's NotFound, "invalid revision or path". Keyset
// pagination came to this endpoint in GitLab 17.1; like the GitLab this server models, it answers
// that keyset is not available (405).
import { messageError, notFound } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { ok } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { listTree } from '../../repository/tree-listing.js';
import { readableRepository } from './access.js';

/** A blob's content as GitLab's REST answers it (`GET .../repository/blobs/:sha`): base64, with its size. */
function blobEntity(sha: string, content: Buffer) {
  return { size: content.length, encoding: 'base64', content: content.toString('base64'), sha };
}

export function registerRepositoryTreeRoute(router: Router): void {
  // `GET /projects/:id/repository/blobs/:sha` (lib/api/repositories.rb): 404 "Blob Not Found" for
  // an object the repository does not hold as a blob.
  router.get('/projects/:id/repository/blobs/:sha', { auth: 'optional', params: { id: p.string().required(), sha: p.string().required() } }, (ctx) => {
    const { repository } = readableRepository(ctx, ctx.params.id);
    const content = repository.hasBlob(ctx.params.sha) ? repository.blob(ctx.params.sha) : null;
    if (!content) throw notFound('Blob');
    return ok(blobEntity(ctx.params.sha, content));
  });

  router.get(
    '/projects/:id/repository/tree',
    { auth: 'optional', paginated: true, params: { id: p.string().required(), ref: p.string(), path: p.string(), recursive: p.boolean().default(false) } },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      const ref = ctx.params.ref || project.defaultBranch;
      const commit = repository.resolve(ref);
      if (!commit) throw notFound('Tree');
      const entries = listTree(commit.tree, ctx.params.path ?? '', ctx.params.recursive);
      if (!entries) throw messageError(404, '404 invalid revision or path Not Found');
      return paginate(ctx, entries, (entry) => entry);
    },
  );
}

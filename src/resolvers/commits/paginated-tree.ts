// `Repository.paginatedTree` as GitLab's PaginatedTreeResolver answers it: a connection with one
// `Tree` node whose `trees`, `blobs` and `submodules` hold one page of the directory's entries (of
// every type, in REST's order), and the page's cursors in `pageInfo`. GitLab pages with Gitaly's
// entry cursors; here the page is a window over the REST listing the tree's connections read
// anyway (one listing per tree and request), with the gateway's offset cursors.
import type { RepositoryResolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import { MAX_PER_PAGE } from '../../datasources/pagination.js';
import { declared } from '../../fields/declaration.js';
import { treeRecord } from './references.js';
import { selectsField } from './selection.js';
import { directoryEntries, TREE_LISTING_PAGES } from './tree-entries.js';

export const paginatedTreeFields: Pick<RepositoryResolvers, 'paginatedTree'> = {
  // The project's record (an empty repository answers null) and every page of the tree listing,
  // which the page's tree shares with its connections.
  paginatedTree: declared(
    { calls: TREE_LISTING_PAGES + 1, rest: ['GET /projects/:id', 'GET /projects/:id/repository/tree'] },
    async (repository, args, context, info) => {
      // GitLab answers null for an empty repository (REST's project record says so).
      const project = await context.loaders.project.load(repository.project);
      if (project.empty_repo === true) return null;
      const flatPaths = selectsField(info, 'flatPath');
      const tree = { ...treeRecord(repository.project, args), flatPaths };
      const entries = await directoryEntries(tree, flatPaths, context);
      // A page of 100 entries when no size is asked, GitLab's limit.
      const paging = { first: args.first ?? (args.last === null || args.last === undefined ? MAX_PER_PAGE : undefined), after: args.after, last: args.last, before: args.before };
      const page = arrayConnection(paging, entries.map((_entry, index) => index));
      const start = page.nodes[0] ?? 0;
      const node = { ...tree, page: { start, end: page.nodes.length === 0 ? start : start + page.nodes.length } };
      return { count: null, nodes: [node], edges: [{ cursor: page.pageInfo.endCursor ?? '', node }], pageInfo: page.pageInfo };
    },
  ),
};

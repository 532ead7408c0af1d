// Snippet storage move shapes (fixtures/gitlab-docs/snippet_storage_moves/).
import type { Snippet, SnippetStorageMove } from '../data/model.js';
import { sshHost, type PresentContext } from './context.js';

/** `snippet` of a storage move: URLs under the project for project snippets, under `/-/snippets` otherwise. */
export function snippetEntity(ctx: PresentContext, snippet: Snippet) {
  const project = snippet.projectId === null ? undefined : ctx.state.projects.get(snippet.projectId);
  const projectPath = project ? ctx.state.projectFullPath(project) : undefined;
  const webUrl = projectPath ? `${ctx.origin}/${projectPath}/-/snippets/${snippet.id}` : `${ctx.origin}/-/snippets/${snippet.id}`;
  const repoPath = projectPath ? `${projectPath}/snippets/${snippet.id}.git` : `snippets/${snippet.id}.git`;
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    updated_at: snippet.updatedAt,
    created_at: snippet.createdAt,
    project_id: snippet.projectId,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    ssh_url_to_repo: `ssh://git@${sshHost(ctx.origin)}/${repoPath}`,
    http_url_to_repo: `${ctx.origin}/${repoPath}`,
  };
}

export function snippetStorageMoveEntity(ctx: PresentContext, move: SnippetStorageMove) {
  const snippet = ctx.state.snippets.get(move.snippetId);
  return {
    id: move.id,
    created_at: move.createdAt,
    state: move.state,
    source_storage_name: move.sourceStorageName,
    destination_storage_name: move.destinationStorageName,
    snippet: snippet ? snippetEntity(ctx, snippet) : null,
  };
}

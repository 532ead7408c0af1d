import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** rest-v4-api.md "States and transitions": as REST spells them (`cleanup failed` has a space). */
export type StorageMoveState = 'initial' | 'scheduled' | 'started' | 'finished' | 'failed' | 'replicated' | 'cleanup failed';

/** The snippet a storage move embeds; `project_id` is null for a personal snippet. */
export interface SnippetSchema {
  id: number;
  title?: string;
  description?: string | null;
  visibility?: 'private' | 'internal' | 'public';
  updated_at?: string;
  created_at?: string;
  project_id?: number | null;
  web_url?: string;
  raw_url?: string;
  ssh_url_to_repo?: string;
  http_url_to_repo?: string;
}

export interface SnippetRepositoryStorageMoveSchema {
  id: number;
  created_at?: string;
  state: StorageMoveState;
  source_storage_name?: string;
  destination_storage_name?: string;
  snippet?: SnippetSchema | null;
}

/** REST `/snippet_repository_storage_moves` and `/snippets/:id/repository_storage_moves` (administrators). */
export class SnippetsApi {
  constructor(private readonly rest: RestSession) {}

  allStorageMoves(page: PageRequest): Promise<Page<SnippetRepositoryStorageMoveSchema>> {
    return this.rest.getPage<SnippetRepositoryStorageMoveSchema>(restPath`/snippet_repository_storage_moves`, page);
  }

  storageMoves(snippetId: number, page: PageRequest): Promise<Page<SnippetRepositoryStorageMoveSchema>> {
    return this.rest.getPage<SnippetRepositoryStorageMoveSchema>(restPath`/snippets/${snippetId}/repository_storage_moves`, page);
  }

  showStorageMove(id: number): Promise<SnippetRepositoryStorageMoveSchema> {
    return this.rest.get<SnippetRepositoryStorageMoveSchema>(restPath`/snippet_repository_storage_moves/${id}`);
  }

  showSnippetStorageMove(snippetId: number, id: number): Promise<SnippetRepositoryStorageMoveSchema> {
    return this.rest.get<SnippetRepositoryStorageMoveSchema>(restPath`/snippets/${snippetId}/repository_storage_moves/${id}`);
  }

  /** Schedules a move of one snippet's repository; without a destination REST picks one by storage weights. */
  async createStorageMove(snippetId: number, destinationStorageName?: string): Promise<SnippetRepositoryStorageMoveSchema> {
    const response = await this.rest.post<SnippetRepositoryStorageMoveSchema>(restPath`/snippets/${snippetId}/repository_storage_moves`, {
      destination_storage_name: destinationStorageName,
    });
    return response.body;
  }

  /** Schedules moves for every snippet on a storage; REST answers 202 with `{"message": "202 Accepted"}`. */
  async scheduleAllStorageMoves(
    sourceStorageName: string,
    destinationStorageName?: string,
  ): Promise<{ status: number; message: string | null }> {
    const response = await this.rest.post<{ message?: unknown } | null>(restPath`/snippet_repository_storage_moves`, {
      source_storage_name: sourceStorageName,
      destination_storage_name: destinationStorageName,
    });
    const message = response.body?.message;
    return { status: response.status, message: typeof message === 'string' ? message : null };
  }
}

// Snippet repository storage moves (rest-v4-api.md "Snippet repository storage moves"; GitLab's
// lib/api/snippet_repository_storage_moves.rb). Administrators only. A move scheduled through the
// API goes on by itself, as GitLab's background worker would take it: scheduled -> started ->
// replicated -> finished (or failed on a storage that takes no repositories), one state per
// `state.storageMoveStepMs` of wall-clock time. The snippet is on its new storage once finished.
import type { Snippet, SnippetStorageMove, StorageMoveState } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { snippetStorageMoveEntity } from '../entities/snippets.js';
import { forbidden, grapeError, messageError, notFound, validationError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { created, type ApiResponse } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';

const HAPPY_PATH: readonly StorageMoveState[] = ['scheduled', 'started', 'replicated', 'finished'];
const FAILING_PATH: readonly StorageMoveState[] = ['scheduled', 'started', 'failed'];
/** States after which a move's snippet is writable again. */
const SETTLED: ReadonlySet<StorageMoveState> = new Set(['finished', 'failed', 'cleanup failed']);

/** The simulated worker: moves every API-scheduled move on to where wall-clock time says it is. */
function advanceMoves(state: SimulatorState): void {
  const now = Date.now();
  for (const move of state.snippetStorageMoves.values()) {
    if (move.scheduledAtMs === null || SETTLED.has(move.state)) continue;
    // A storage with no weight takes no new repositories: the move fails there.
    const path = (state.repositoryStorages.get(move.destinationStorageName) ?? 0) > 0 ? HAPPY_PATH : FAILING_PATH;
    const steps = state.storageMoveStepMs <= 0 ? Infinity : Math.floor((now - move.scheduledAtMs) / state.storageMoveStepMs);
    move.state = path[Math.min(steps, path.length - 1)] ?? move.state;
    if (move.state === 'finished') {
      const snippet = state.snippets.get(move.snippetId);
      if (snippet) snippet.repositoryStorage = move.destinationStorageName;
    }
  }
}

/** `authenticated_as_admin!`, then the worker catches up before anything is read or written. */
function asAdmin(ctx: RequestContext<unknown>): void {
  if (!ctx.user?.isAdmin) throw forbidden();
  advanceMoves(ctx.state);
}

function existingSnippet(ctx: RequestContext<unknown>, id: number): Snippet {
  const snippet = ctx.state.snippets.get(id);
  if (!snippet) throw notFound('Snippet');
  return snippet;
}

/** `find` of an unknown id: ActiveRecord::RecordNotFound's body (rest-conventions §6.1). */
function recordNotFound(): never {
  throw messageError(404, '404 Not found');
}

/** Newest first, as GitLab orders storage moves (`order_created_at_desc`). */
function newestFirst(moves: Iterable<SnippetStorageMove>): SnippetStorageMove[] {
  return [...moves].sort((a, b) => b.id - a.id);
}

/** The heaviest storage other than the source, as `pick_repository_storage` would usually pick. */
function storageByWeight(state: SimulatorState, source: string): string | undefined {
  return [...state.repositoryStorages.entries()]
    .filter(([name, weight]) => name !== source && weight > 0)
    .sort((a, b) => b[1] - a[1])[0]?.[0];
}

function inProgress(state: SimulatorState, snippet: Snippet): boolean {
  return [...state.snippetStorageMoves.values()].some((move) => move.snippetId === snippet.id && !SETTLED.has(move.state));
}

/** Schedules a move, or says why the model refuses it (a 400 with field errors, §6.3). */
function schedule(
  state: SimulatorState,
  snippet: Snippet,
  destination: string | undefined,
): { move: SnippetStorageMove } | { refusal: Record<string, string[]> } {
  const target = destination ?? storageByWeight(state, snippet.repositoryStorage);
  if (target === undefined || !state.repositoryStorages.has(target))
    return { refusal: { destination_storage_name: ['is not included in the list'] } };
  if (target === snippet.repositoryStorage) return { refusal: { destination_storage_name: ['must differ from the source storage'] } };
  // RepositoryStorageMovable#container_repository_writable: one move at a time per repository.
  if (inProgress(state, snippet)) return { refusal: { snippet: ['is read-only'] } };
  const move: SnippetStorageMove = {
    id: state.nextId('snippetStorageMoves'),
    snippetId: snippet.id,
    state: 'scheduled',
    sourceStorageName: snippet.repositoryStorage,
    destinationStorageName: target,
    createdAt: state.now.toISOString(),
    scheduledAtMs: Date.now(),
  };
  state.snippetStorageMoves.set(move.id, move);
  return { move };
}

export function registerSnippetStorageMoveRoutes(router: Router): void {
  router.get('/snippet_repository_storage_moves', { auth: 'required', paginated: true }, (ctx) => {
    asAdmin(ctx);
    return paginate(ctx, newestFirst(ctx.state.snippetStorageMoves.values()), (move) => snippetStorageMoveEntity(ctx, move));
  });

  router.get(
    '/snippet_repository_storage_moves/:repository_storage_id',
    { auth: 'required', params: { repository_storage_id: p.integer().required() } },
    (ctx) => {
      asAdmin(ctx);
      const move = ctx.state.snippetStorageMoves.get(ctx.params.repository_storage_id) ?? recordNotFound();
      return { status: 200, json: snippetStorageMoveEntity(ctx, move) };
    },
  );

  router.get(
    '/snippets/:snippet_id/repository_storage_moves',
    { auth: 'required', paginated: true, params: { snippet_id: p.integer().required() } },
    (ctx) => {
      asAdmin(ctx);
      const snippet = existingSnippet(ctx, ctx.params.snippet_id);
      const moves = newestFirst([...ctx.state.snippetStorageMoves.values()].filter((move) => move.snippetId === snippet.id));
      return paginate(ctx, moves, (move) => snippetStorageMoveEntity(ctx, move));
    },
  );

  router.get(
    '/snippets/:snippet_id/repository_storage_moves/:repository_storage_id',
    { auth: 'required', params: { snippet_id: p.integer().required(), repository_storage_id: p.integer().required() } },
    (ctx) => {
      asAdmin(ctx);
      const snippet = existingSnippet(ctx, ctx.params.snippet_id);
      const move = ctx.state.snippetStorageMoves.get(ctx.params.repository_storage_id);
      if (!move || move.snippetId !== snippet.id) recordNotFound();
      return { status: 200, json: snippetStorageMoveEntity(ctx, move) };
    },
  );

  router.post(
    '/snippets/:snippet_id/repository_storage_moves',
    { auth: 'required', params: { snippet_id: p.integer().required(), destination_storage_name: p.string() } },
    (ctx) => {
      asAdmin(ctx);
      const snippet = existingSnippet(ctx, ctx.params.snippet_id);
      const outcome = schedule(ctx.state, snippet, ctx.params.destination_storage_name);
      if ('refusal' in outcome) throw validationError(outcome.refusal);
      return created(snippetStorageMoveEntity(ctx, outcome.move));
    },
  );

  router.post(
    '/snippet_repository_storage_moves',
    { auth: 'required', params: { source_storage_name: p.string().required(), destination_storage_name: p.string() } },
    (ctx): ApiResponse => {
      asAdmin(ctx);
      const storages = [...ctx.state.repositoryStorages.keys()];
      const { source_storage_name: source, destination_storage_name: destination } = ctx.params;
      // `values: -> { Gitlab.config.repositories.storages.keys }` in Grape.
      if (!storages.includes(source)) throw grapeError(400, 'source_storage_name does not have a valid value');
      if (destination !== undefined && !storages.includes(destination))
        throw grapeError(400, 'destination_storage_name does not have a valid value');
      // ScheduleBulkRepositoryShardMovesService: every snippet on the source that can move now.
      for (const snippet of ctx.state.snippets.values()) {
        if (snippet.repositoryStorage === source && !inProgress(ctx.state, snippet)) schedule(ctx.state, snippet, destination);
      }
      return { status: 202, json: { message: '202 Accepted' } };
    },
  );
}

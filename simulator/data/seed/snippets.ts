import type { Snippet, SnippetStorageMove, StorageMoveState, Visibility } from '../model.js';
import { minutesBefore } from '../rng.js';
import type { SimulatorState } from '../state.js';
import { USER_IDS } from './users.js';

/**
 * Repository storage shards and their weights for new repositories. A move without a destination
 * goes to the heaviest shard other than its source (rest-v4-api.md: "chosen by storage weights").
 */
export const REPOSITORY_STORAGES: ReadonlyArray<[name: string, weight: number]> = [
  ['default', 100],
  ['storage2', 60],
  ['storage3', 0],
];

type SnippetSeed = [title: string, projectId: number | null, authorId: number, visibility: Visibility, storage: string];

const SNIPPETS: SnippetSeed[] = [
  ['Test Snippet', null, USER_IDS.root, 'internal', 'default'],
  ['Runner config.toml', null, USER_IDS.maintainer, 'public', 'default'],
  ['Rake task to clean caches', 1, USER_IDS.maintainer, 'public', 'default'],
  ['Local dev setup', 6, USER_IDS.developer, 'internal', 'storage2'],
  ['psql one-liners', null, USER_IDS.developer, 'private', 'default'],
  ['Security checklist', 5, USER_IDS.root, 'private', 'storage2'],
  ['nginx snippet', null, USER_IDS.alice, 'public', 'default'],
  ['Release script', 23, USER_IDS.maintainer, 'public', 'default'],
  ['Bash aliases', null, USER_IDS.bob, 'internal', 'storage2'],
  ['Terraform module', 20, USER_IDS.dave, 'private', 'default'],
];

/** Moves that happened before the demo's "now"; none of them is still running. */
const MOVES: Array<[snippetIndex: number, state: StorageMoveState, source: string, destination: string, daysAgo: number]> = [
  [0, 'finished', 'storage2', 'default', 60],
  [3, 'finished', 'default', 'storage2', 45],
  [5, 'finished', 'default', 'storage2', 30],
  [1, 'failed', 'default', 'storage3', 20],
  [8, 'finished', 'default', 'storage2', 12],
  [2, 'cleanup failed', 'storage2', 'default', 5],
];

export function seedSnippets(state: SimulatorState): void {
  for (const [name, weight] of REPOSITORY_STORAGES) state.repositoryStorages.set(name, weight);
  SNIPPETS.forEach(([title, projectId, authorId, visibility, storage], index) => {
    const id = index + 1;
    const created = minutesBefore(state.now, (400 - index * 30) * 24 * 60);
    const snippet: Snippet = {
      id,
      title,
      description: index % 3 === 0 ? null : `${title}: demo snippet ${id}.`,
      visibility,
      projectId,
      authorId,
      createdAt: created,
      updatedAt: created,
      repositoryStorage: storage,
    };
    state.snippets.set(id, snippet);
  });
  MOVES.forEach(([snippetIndex, moveState, source, destination, daysAgo], index) => {
    const move: SnippetStorageMove = {
      id: index + 1,
      snippetId: snippetIndex + 1,
      state: moveState,
      sourceStorageName: source,
      destinationStorageName: destination,
      createdAt: minutesBefore(state.now, daysAgo * 24 * 60),
      scheduledAtMs: null,
    };
    state.snippetStorageMoves.set(move.id, move);
  });
}

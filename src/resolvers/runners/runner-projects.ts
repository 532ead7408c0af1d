// `CiRunner.projects(search, sort)` over the projects a runner's REST detail embeds (`id`, `name`,
// `path`, ...): GitLab's project search and orders, applied in the gateway since REST takes no
// arguments there.
import type { ProjectSchema } from '../../datasources/projects.js';
import { badUserInput } from '../../errors/graphql-errors.js';

type Key = 'id' | 'name' | 'path';

const SORTS: Readonly<Record<string, { key: Key; descending: boolean }>> = {
  id_asc: { key: 'id', descending: false },
  id_desc: { key: 'id', descending: true },
  name_asc: { key: 'name', descending: false },
  name_desc: { key: 'name', descending: true },
  path_asc: { key: 'path', descending: false },
  path_desc: { key: 'path', descending: true },
};

/** Refuses an order the embedded records cannot give, before any REST call. */
export function checkProjectSort(sort: string | null | undefined): void {
  if (sort && !SORTS[sort]) throw badUserInput(`\`sort\` must be one of ${Object.keys(SORTS).join(', ')}; got "${sort.slice(0, 40)}".`, 'sort');
}

export function searchAndSortProjects(projects: ReadonlyArray<ProjectSchema>, search: string | null | undefined, sort: string | null | undefined): ProjectSchema[] {
  const text = search?.trim().toLowerCase();
  const found = text ? projects.filter((project) => [project.name, project.path].some((value) => value?.toLowerCase().includes(text))) : [...projects];
  const order = SORTS[sort ?? 'id_asc'] ?? SORTS['id_asc']!;
  const value = (project: ProjectSchema) => project[order.key] ?? '';
  found.sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const compared = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)) || a.id - b.id;
    return order.descending ? -compared : compared;
  });
  return found;
}

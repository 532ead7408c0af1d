import { AccessLevel, type Project, type ProjectNamespace, type Visibility } from '../model.js';
import type { Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';
import { USER_IDS } from './users.js';

type ProjectSeed = [
  id: number,
  namespace: ProjectNamespace,
  path: string,
  name: string,
  visibility: Visibility,
  extra?: Partial<Project>,
];

const g = (groupId: number): ProjectNamespace => ({ kind: 'group', groupId });
const u = (userId: number): ProjectNamespace => ({ kind: 'user', userId });

const PROJECTS: ProjectSeed[] = [
  [
    1,
    g(1),
    'gitlab',
    'GitLab',
    'public',
    {
      description: 'GitLab is an open source end-to-end software development platform.',
      topics: ['ruby', 'rails', 'devops'],
      customAttributes: [{ key: 'tier', value: 'critical' }],
    },
  ],
  [2, g(1), 'gitlab-runner', 'GitLab Runner', 'public', { topics: ['go', 'ci'] }],
  [3, g(1), 'gitaly', 'Gitaly', 'public', { topics: ['go', 'git'] }],
  [4, g(1), 'omnibus-gitlab', 'Omnibus GitLab', 'internal'],
  [5, g(1), 'security-fixes', 'Security Fixes', 'private'],
  [6, g(2), 'web-ui', 'Web UI', 'public', { topics: ['vue', 'javascript'] }],
  [7, g(2), 'design-system', 'Design System', 'public', { topics: ['css'] }],
  [8, g(2), 'docs-site', 'Docs Site', 'internal'],
  [9, g(3), 'api', 'API', 'internal'],
  [10, g(3), 'workers', 'Workers', 'internal'],
  [11, g(4), 'auth', 'Auth Service', 'internal'],
  [12, g(4), 'search', 'Search Service', 'private'],
  [13, g(4), 'notifications', 'Notifications', 'internal', { sharedRunnersEnabled: false }],
  [14, g(5), 'invoices', 'Invoices', 'private'],
  [15, g(5), 'payments', 'Payments', 'private'],
  [16, g(6), 'website', 'Website', 'private'],
  [17, g(6), 'crm', 'CRM', 'private'],
  [18, g(7), 'portal', 'Portal', 'private'],
  [19, g(7), 'gateway', 'Gateway', 'private'],
  [20, g(8), 'terraform', 'Terraform', 'private', { sharedRunnersEnabled: false }],
  [21, g(8), 'ansible', 'Ansible', 'private'],
  [22, g(8), 'k8s-manifests', 'K8s Manifests', 'private'],
  [23, g(9), 'awesome-lib', 'Awesome Lib', 'public', { starCount: 1280, forksCount: 211, customAttributes: [{ key: 'tier', value: 'community' }] }],
  [24, g(9), 'cli', 'CLI', 'public'],
  [25, g(9), 'website', 'Website', 'public'],
  [26, g(10), 'linter', 'Linter', 'public', { mergeRequestsEnabled: false }],
  [27, g(10), 'formatter', 'Formatter', 'public'],
  [28, g(10), 'benchmarks', 'Benchmarks', 'internal', { issuesEnabled: false }],
  [29, g(11), 'brand-assets', 'Brand Assets', 'internal', { jobsEnabled: false }],
  [30, g(11), 'icons', 'Icons', 'public'],
  [31, g(12), 'prototype', 'Prototype', 'private'],
  [32, g(12), 'research', 'Research', 'private', { sharedRunnersEnabled: false }],
  [33, u(USER_IDS.maintainer), 'dotfiles', 'dotfiles', 'public'],
  [34, u(USER_IDS.alice), 'notes', 'Notes', 'private'],
  [35, u(USER_IDS.bob), 'experiments', 'Experiments', 'internal'],
  [36, g(1), 'gitlab-foss', 'GitLab FOSS', 'public', { archived: true, description: 'Archived: the FOSS mirror of GitLab.' }],
];

export function seedProjects(state: SimulatorState, rng: Rng): void {
  for (const [id, namespace, path, name, visibility, extra] of PROJECTS) {
    const created = new Date(Date.UTC(2023, 3, id, 7, 47, 25, 578));
    const project: Project = {
      id,
      name,
      path,
      namespace,
      description: `${name}: demo project ${id}.`,
      visibility,
      defaultBranch: 'main',
      topics: [],
      archived: false,
      createdAt: created.toISOString(),
      lastActivityAt: new Date(Date.UTC(2025, 4, 1 + (id % 28), 16, 52, 8, 432)).toISOString(),
      creatorId: namespace.kind === 'user' ? namespace.userId : USER_IDS.root,
      starCount: rng.int(0, 40),
      forksCount: rng.int(0, 8),
      openIssuesCount: rng.int(0, 25),
      sharedRunnersEnabled: true,
      runnersToken: `GR1348941-demo-project-${id}`,
      sharedWithGroups: [],
      issuesEnabled: true,
      mergeRequestsEnabled: true,
      wikiEnabled: true,
      jobsEnabled: true,
      snippetsEnabled: id % 3 !== 0,
      emptyRepo: false,
      publicJobs: true,
      buildTimeout: 3600,
      requestAccessEnabled: visibility !== 'private',
      ...extra,
    };
    state.projects.set(id, project);
  }
  // Project sharing: design members get (at most) Reporter in acme/platform/portal.
  state.projects.get(18)?.sharedWithGroups.push({ groupId: 11, accessLevel: AccessLevel.REPORTER, expiresAt: null });

  // The developer user is Maintainer of exactly one project, so its runners differ from the maintainer's.
  state.memberships.push({ userId: USER_IDS.developer, source: { kind: 'project', projectId: 6 }, accessLevel: AccessLevel.MAINTAINER, expiresAt: null });
  // The outsider is a member of nothing; erin and frank get a direct project role each.
  state.memberships.push({ userId: USER_IDS.erin, source: { kind: 'project', projectId: 14 }, accessLevel: AccessLevel.MAINTAINER, expiresAt: null });
  state.memberships.push({ userId: USER_IDS.frank, source: { kind: 'project', projectId: 31 }, accessLevel: AccessLevel.REPORTER, expiresAt: '2026-06-30' });

  // Stars, for the `starred` filter of project lists.
  const stars: [userId: number, projectIds: number[]][] = [
    [USER_IDS.maintainer, [1, 6, 23, 26]],
    [USER_IDS.developer, [1, 9, 24]],
    [USER_IDS.guest, [2]],
    [USER_IDS.root, [3, 27]],
  ];
  for (const [userId, projectIds] of stars) for (const projectId of projectIds) state.stars.push({ userId, projectId });
}

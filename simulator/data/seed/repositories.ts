// Demo git histories, one repository per project, the same on every start: real files in four
// languages, a main line of commits by the project's developers, the branches of the project's
// merge requests (merged ones with their merge commits), tags, signed commits (PGP, X.509, SSH)
// and a submodule. Seeded after the merge requests, whose `sha` and `merge_commit_sha` it makes
// real commits of these histories.
import { projectAccessLevel } from '../access.js';
import { AccessLevel, type MergeRequest, type Project, type User } from '../model.js';
import type { Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';
import { GITLINK_MODE, type FileMode, type Person, type TreeEntry } from '../../repository/objects.js';
import { Repository, type CommitSignature, type GitCommit } from '../../repository/repository.js';
import { USER_IDS } from './users.js';

const DAY = 86_400;
const HOUR = 3_600;

/** Each demo user's UTC offset in minutes, so commit dates come in several zones. */
const OFFSETS: Record<number, number> = { 1: 0, 2: 60, 3: 120, 4: -240, 6: -300, 7: 600, 8: -420, 9: 60, 10: 120, 11: 120 };

/** Projects whose repository holds a submodule of another demo project: [project, path, submodule project]. */
export const DEMO_SUBMODULES: ReadonlyArray<readonly [projectId: number, path: string, submoduleProjectId: number]> = [[1, 'vendor/gitaly', 3]];

/** Main-line commits of the busiest repository (gitlab-org/gitlab), so commit lists page for real. */
const BUSY_PROJECT_COMMITS: Record<number, number> = { 1: 120 };

interface Language {
  ext: string;
  render(module: string, functions: readonly SourceFunction[]): string;
}

interface SourceFunction {
  name: string;
  label: string;
}

const camel = (name: string) => name.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());
const pascal = (name: string) => camel(name).replace(/^\w/, (letter) => letter.toUpperCase());

const LANGUAGES: readonly Language[] = [
  {
    ext: 'rb',
    render: (module, functions) =>
      `# frozen_string_literal: true\n\nmodule ${pascal(module)}\n${functions.map((f) => `  def self.${f.name}(input)\n    "${f.label}: #{input}"\n  end\n`).join('\n')}end\n`,
  },
  {
    ext: 'go',
    render: (module, functions) => `package ${module}\n\n${functions.map((f) => `func ${pascal(f.name)}(input string) string {\n\treturn "${f.label}: " + input\n}\n`).join('\n')}`,
  },
  {
    ext: 'ts',
    render: (_module, functions) => functions.map((f) => `export function ${camel(f.name)}(input: string): string {\n  return \`${f.label}: \${input}\`;\n}\n`).join('\n'),
  },
  {
    ext: 'py',
    render: (_module, functions) => `"""Helpers."""\n\n\n${functions.map((f) => `def ${f.name}(input):\n    return f"${f.label}: {input}"\n`).join('\n\n')}`,
  },
];

const NAMES = ['normalize', 'render_title', 'parse_ref', 'format_date', 'slugify', 'load_config', 'retry_later', 'escape_html', 'merge_options', 'check_access', 'build_url', 'truncate'];
const LABELS = ['normalized', 'rendered', 'parsed', 'formatted', 'slug', 'config', 'retried', 'escaped', 'merged', 'allowed', 'url', 'short'];
const TOPICS = ['installation', 'configuration', 'upgrading', 'troubleshooting', 'the API', 'backups', 'monitoring', 'security'];
const CI_IMAGES = ['ruby:3.2', 'ruby:3.3', 'golang:1.22', 'node:20', 'node:22', 'python:3.12', 'golang:1.23'];

/** The working copy of one line of history: files by path, rendered into a tree at each commit. */
class WorkingCopy {
  files = new Map<string, { mode: FileMode; text: string }>();
  sources = new Map<string, SourceFunction[]>();
  /** Submodules: path -> commit SHA. */
  gitlinks = new Map<string, string>();
  /** Blob ids by content, so an unchanged file is not hashed again at every commit. */
  private blobs = new Map<string, string>();

  constructor(
    readonly language: Language,
    readonly modules: readonly string[],
  ) {}

  clone(): WorkingCopy {
    const copy = new WorkingCopy(this.language, this.modules);
    copy.files = new Map(this.files);
    copy.sources = new Map([...this.sources].map(([path, functions]) => [path, [...functions]]));
    copy.gitlinks = new Map(this.gitlinks);
    copy.blobs = this.blobs;
    return copy;
  }

  sourcePath(module: string): string {
    return `src/${module}.${this.language.ext}`;
  }

  setSource(module: string, functions: SourceFunction[]): void {
    const path = this.sourcePath(module);
    this.sources.set(path, functions);
    this.files.set(path, { mode: '100644', text: this.language.render(module, functions) });
  }

  tree(repository: Repository): Map<string, TreeEntry> {
    const tree = new Map<string, TreeEntry>();
    for (const [path, file] of this.files) {
      let oid = this.blobs.get(file.text);
      if (oid === undefined) {
        oid = repository.writeBlob(Buffer.from(file.text));
        this.blobs.set(file.text, oid);
      }
      tree.set(path, { mode: file.mode, oid });
    }
    for (const [path, sha] of this.gitlinks) tree.set(path, { mode: GITLINK_MODE, oid: sha });
    return tree;
  }
}

function person(user: User, time: number): Person {
  return { name: user.name, email: user.email, time, offsetMinutes: OFFSETS[user.id] ?? 0 };
}

function authorsOf(state: SimulatorState, project: Project): User[] {
  const authors = [...state.users.values()].filter(
    (user) => user.state === 'active' && !user.isAdmin && projectAccessLevel(state, user, project) >= AccessLevel.DEVELOPER,
  );
  return authors.length > 0 ? authors : [state.users.get(USER_IDS.root)!];
}

/** The demo signatures: verified PGP and SSH by the maintainer, and the X.509 certificate of the REST docs. */
function demoSignature(state: SimulatorState, kind: CommitSignature['type']): CommitSignature {
  const maintainer = state.users.get(USER_IDS.maintainer)!;
  switch (kind) {
    case 'PGP':
      return { type: 'PGP', verificationStatus: 'verified', gpgKeyId: 1, gpgKeyPrimaryKeyid: '8254AAB3FBD54AC9', gpgKeyUserName: maintainer.name, gpgKeyUserEmail: maintainer.email, gpgKeySubkeyId: null };
    case 'X509':
      return {
        type: 'X509',
        verificationStatus: 'unverified',
        certificate: {
          id: 1,
          subject: 'CN=gitlab@example.org,OU=Example,O=World',
          subjectKeyIdentifier: 'BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC',
          email: 'gitlab@example.org',
          serialNumber: 278969561018901340486471282831158785578n,
          certificateStatus: 'good',
          issuer: { id: 1, subject: 'CN=PKI,OU=Example,O=World', subjectKeyIdentifier: 'AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB', crlUrl: 'http://example.com/pki.crl' },
        },
      };
    case 'SSH':
      return {
        type: 'SSH',
        verificationStatus: 'verified',
        key: {
          id: 11,
          title: 'Signing key',
          createdAt: '2024-05-08T09:12:38.503Z',
          expiresAt: null,
          key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILZzYDq6DhLp3aX84DGIV3F6Vf+Ae4yCTTz7RnqMJOlR maintainer@example.com',
          usageType: 'auth_and_signing',
        },
      };
  }
}

/** A change on the main line: edits the working copy and says what it did. */
function mainChange(rng: Rng, copy: WorkingCopy, index: number): string {
  const choice = rng.int(0, 9);
  const module = rng.pick(copy.modules);
  const functions = [...(copy.sources.get(copy.sourcePath(module)) ?? [])];
  if (choice <= 2) {
    const name = NAMES.find((candidate) => !functions.some((f) => f.name === candidate)) ?? `helper_${index}`;
    functions.push({ name, label: rng.pick(LABELS) });
    copy.setSource(module, functions);
    return `Add ${name} to ${module}`;
  }
  if (choice <= 5 && functions.length > 0) {
    const target = rng.pick(functions);
    functions[functions.indexOf(target)] = { ...target, label: `${target.label} v${index}` };
    copy.setSource(module, functions);
    return `Fix the output of ${target.name}`;
  }
  if (choice === 6 && functions.length > 2) {
    const removed = functions.splice(rng.int(0, functions.length - 1), 1)[0]!;
    copy.setSource(module, functions);
    return `Remove unused ${removed.name}`;
  }
  if (choice === 7) {
    const ci = copy.files.get('.gitlab-ci.yml')!;
    const image = rng.pick(CI_IMAGES);
    copy.files.set('.gitlab-ci.yml', { ...ci, text: ci.text.replace(/^image: .*$/m, `image: ${image}`) });
    return `Use the ${image} image in CI`;
  }
  const topic = rng.pick(TOPICS);
  const docs = copy.files.get('docs/index.md')!;
  copy.files.set('docs/index.md', { ...docs, text: `${docs.text}\n## ${topic.replace(/^\w/, (l) => l.toUpperCase())}\n\nHow ${topic} works, step ${index}.\n` });
  return `Document ${topic}`;
}

function changelogEntry(copy: WorkingCopy, title: string): void {
  const changelog = copy.files.get('CHANGELOG.md')!;
  copy.files.set('CHANGELOG.md', { ...changelog, text: changelog.text.replace('# Changelog\n\n', `# Changelog\n\n- ${title}\n`) });
}

function initialCopy(project: Project, language: Language, rng: Rng): WorkingCopy {
  const modules = [project.path.replace(/[^a-z0-9]/g, '_'), 'util'];
  const copy = new WorkingCopy(language, modules);
  copy.files.set('README.md', { mode: '100644', text: `# ${project.name}\n\n${project.description ?? ''}\n\n## Getting started\n\nRun \`bin/setup\`, then read docs/index.md.\n` });
  copy.files.set('CHANGELOG.md', { mode: '100644', text: '# Changelog\n\n' });
  copy.files.set('LICENSE', { mode: '100644', text: 'MIT License\n\nCopyright (c) 2024 The demo authors\n' });
  copy.files.set('.gitlab-ci.yml', { mode: '100644', text: `image: ${rng.pick(CI_IMAGES)}\n\nstages:\n  - build\n  - test\n\ntest:\n  stage: test\n  script:\n    - bin/setup\n    - make test\n` });
  copy.files.set('bin/setup', { mode: '100755', text: '#!/bin/sh\nset -e\necho "Setting up"\n' });
  copy.files.set('docs/index.md', { mode: '100644', text: `# ${project.name} documentation\n` });
  for (const module of modules) {
    copy.setSource(module, [
      { name: NAMES[rng.int(0, 3)]!, label: rng.pick(LABELS) },
      { name: NAMES[rng.int(4, 7)]!, label: rng.pick(LABELS) },
    ]);
  }
  return copy;
}

type Event =
  | { time: number; kind: 'main'; index: number }
  | { time: number; kind: 'branch'; mergeRequest: MergeRequest; step: number; steps: number }
  | { time: number; kind: 'merge'; mergeRequest: MergeRequest };

/** What one project's history needs from the others: the repositories of its submodules. */
function seedRepository(state: SimulatorState, rng: Rng, project: Project): Repository {
  const repository = new Repository(project.defaultBranch);
  const language = LANGUAGES[project.id % LANGUAGES.length]!;
  const authors = authorsOf(state, project);
  const now = Math.floor(state.now.getTime() / 1000);
  const start = now - 240 * DAY;
  const mainCount = BUSY_PROJECT_COMMITS[project.id] ?? rng.int(10, 16);
  const mergeRequests = [...state.mergeRequests.values()].filter((mr) => mr.projectId === project.id);

  const events: Event[] = [];
  for (let index = 1; index <= mainCount; index++) {
    events.push({ time: start + Math.floor(((now - 2 * HOUR - start) * index) / mainCount) - rng.int(0, 6 * HOUR), kind: 'main', index });
  }
  for (const mr of mergeRequests) {
    const created = Math.floor(Date.parse(mr.createdAt) / 1000);
    const steps = rng.int(1, 3);
    for (let step = 1; step <= steps; step++) events.push({ time: created - (steps - step + 1) * HOUR, kind: 'branch', mergeRequest: mr, step, steps });
    if (mr.state === 'merged' && mr.mergedAt) events.push({ time: Math.max(created, Math.floor(Date.parse(mr.mergedAt) / 1000)), kind: 'merge', mergeRequest: mr });
  }
  events.sort((a, b) => a.time - b.time);

  const submodules = DEMO_SUBMODULES.filter(([projectId]) => projectId === project.id);
  const main = initialCopy(project, language, rng);
  const initialAuthor = person(rng.pick(authors), start - DAY);
  let head = repository.writeCommit({ tree: main.tree(repository), parents: [], author: initialAuthor, committer: initialAuthor, message: 'Initial commit\n' });
  const branches = new Map<number, { copy: WorkingCopy; head: GitCommit }>();
  const signed: Record<number, CommitSignature['type']> = project.id === 1 ? { 105: 'PGP', 109: 'X509', 113: 'SSH' } : {};

  for (const event of events) {
    if (event.kind === 'main') {
      let title = mainChange(rng, main, event.index);
      const [submodule] = submodules;
      if (submodule && (event.index === 3 || event.index === 20)) {
        // Point the gitlink at the submodule project's newest commit of the moment.
        const [, path, sourceId] = submodule;
        const source = state.repositories.get(sourceId);
        const target = source ? [...source.commits.values()].filter((c) => c.committer.time <= event.time).sort((a, b) => b.committer.time - a.committer.time)[0] : undefined;
        if (target) {
          title = event.index === 3 ? `Add ${path} as a submodule` : `Update submodule ${path}`;
          main.gitlinks.set(path, target.sha);
          main.files.set('.gitmodules', { mode: '100644', text: `[submodule "${path}"]\n\tpath = ${path}\n\turl = ../${state.projectFullPath(state.projects.get(sourceId)!).split('/').pop()}.git\n` });
        }
      }
      changelogEntry(main, title);
      const kind = signed[event.index];
      const user = kind ? state.users.get(USER_IDS.maintainer)! : rng.pick(authors);
      const who = person(user, event.time);
      head = repository.writeCommit({
        tree: main.tree(repository),
        parents: [head.sha],
        author: who,
        committer: who,
        // A body line now and then, and always a `Changelog` trailer, as GitLab's own commits have.
        message: `${title}\n\n${rng.chance(0.3) ? `Closes #${rng.int(1, 40)}\n\n` : ''}Changelog: ${rng.pick(['added', 'fixed', 'changed'])}\n`,
        signature: kind ? demoSignature(state, kind) : null,
      });
    } else if (event.kind === 'branch') {
      const mr = event.mergeRequest;
      const branch = branches.get(mr.id) ?? { copy: main.clone(), head };
      const slug = mr.sourceBranch.split('/').pop()!.replace(/[^a-z0-9]/gi, '_');
      const feature = `src/features/${slug}.${language.ext}`;
      let title: string;
      if (event.step === 1) {
        branch.copy.files.set(feature, { mode: '100644', text: language.render(slug, [{ name: 'apply', label: mr.title }]) });
        title = mr.title;
      } else if (event.step === 2) {
        branch.copy.files.set(`test/${slug}_test.${language.ext}`, { mode: '100644', text: `# Tests for ${mr.title}\n\nassert apply("x") == "${mr.title}: x"\n` });
        title = `Cover ${slug} with tests`;
      } else {
        branch.copy.files.set(feature, { mode: '100644', text: language.render(slug, [{ name: 'apply', label: `${mr.title} (reviewed)` }]) });
        title = 'Address review comments';
      }
      const who = person(state.users.get(mr.authorId) ?? rng.pick(authors), event.time);
      const commit = repository.writeCommit({ tree: branch.copy.tree(repository), parents: [branch.head.sha], author: who, committer: who, message: `${title}\n` });
      branches.set(mr.id, { copy: branch.copy, head: commit });
      repository.branches.set(mr.sourceBranch, commit.sha);
      mr.sha = commit.sha;
    } else {
      const mr = event.mergeRequest;
      const branch = branches.get(mr.id);
      if (!branch) continue;
      // The branch only added files of its own, so the merge takes them over the main line.
      for (const [path, file] of branch.copy.files) if (!main.files.has(path)) main.files.set(path, file);
      const who = person(state.users.get(mr.assigneeId ?? mr.authorId) ?? rng.pick(authors), event.time);
      const fullPath = state.projectFullPath(project);
      head = repository.writeCommit({
        tree: main.tree(repository),
        parents: [head.sha, branch.head.sha],
        author: who,
        committer: who,
        message: `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\nSee merge request ${fullPath}!${mr.iid}`,
      });
      mr.mergeCommitSha = head.sha;
      repository.branches.delete(mr.sourceBranch);
    }
    repository.branches.set(project.defaultBranch, head.sha);
  }

  const mainLine = [...repository.ancestors([head.sha], true)];
  const tagAt = (name: string, fraction: number, message: string | null) => {
    const target = mainLine[Math.floor(mainLine.length * (1 - fraction))];
    if (target) repository.tags.set(name, { name, target, message });
  };
  tagAt('v1.0.0', 1 / 3, 'Version 1.0.0');
  tagAt('v1.1.0', 2 / 3, 'Version 1.1.0');
  tagAt('v2.0.0-rc1', 0.9, null);
  return repository;
}

export function seedRepositories(state: SimulatorState, rng: Rng): void {
  const sources = new Set(DEMO_SUBMODULES.map(([, , sourceId]) => sourceId));
  // A submodule's project first, so the superproject can point at its commits.
  const projects = [...state.projects.values()].sort((a, b) => Number(sources.has(b.id)) - Number(sources.has(a.id)) || a.id - b.id);
  for (const project of projects) state.repositories.set(project.id, seedRepository(state, rng, project));
}

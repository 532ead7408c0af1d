// A submodule's `webUrl` and `treeUrl` as GitLab's SubmoduleHelper#submodule_links_for_url derives
// them from its URL in `.gitmodules`: a project of this instance (by its URL, its SSH URL, or a
// path relative to the project) links to its page and its tree at the submodule's commit;
// github.com, gist.github.com and gitlab.com projects to theirs; any other http(s), git or ssh URL
// is the web URL as it is, with no tree URL. The instance's URL and SSH prefix (GitLab's
// `Gitlab.config.gitlab.url` and `ssh_path_prefix`) are read off the project's own `web_url` and
// `ssh_url_to_repo`.
import { posix } from 'node:path';
import type { ProjectSchema } from '../../datasources/projects.js';
import type { SubmoduleLinks } from '../../records/commits.js';

const NO_LINKS: SubmoduleLinks = { webUrl: null, treeUrl: null };
const VALID_SUBMODULE_PROTOCOLS = new Set(['http:', 'https:', 'git:', 'ssh:']);

interface Instance {
  /** `https://gitlab.example.com` (with a relative URL root, if any). */
  url: string;
  /** `git@gitlab.example.com:`; null when REST does not say. */
  sshPrefix: string | null;
  /** The project's full path, `group/project`. */
  projectPath: string;
}

function instanceOf(project: Pick<ProjectSchema, 'web_url' | 'ssh_url_to_repo' | 'path_with_namespace'>): Instance | null {
  const projectPath = project.path_with_namespace;
  if (!project.web_url || !projectPath || !project.web_url.endsWith(`/${projectPath}`)) return null;
  const ssh = project.ssh_url_to_repo;
  const sshSuffix = `${projectPath}.git`;
  return {
    url: project.web_url.slice(0, -(projectPath.length + 1)),
    sshPrefix: ssh && ssh.endsWith(sshSuffix) ? ssh.slice(0, -sshSuffix.length) : null,
    projectPath,
  };
}

/** Ruby's String#rpartition by one separator: [before, after]; ['', text] when absent. */
function lastSplit(text: string, separator: RegExp): [string, string] {
  let index = -1;
  let length = 0;
  for (const match of text.matchAll(new RegExp(separator.source, 'g'))) {
    index = match.index;
    length = match[0].length;
  }
  return index === -1 ? ['', text] : [text.slice(0, index), text.slice(index + length)];
}

/** SubmoduleHelper#extract_namespace_project. */
function namespaceAndProject(url: string, instance: Instance): [string, string] | null {
  const [fragment, lastSegment] = lastSplit(url, /\//);
  let project = lastSegment;
  let namespace = lastSplit(fragment, /[:/]/)[1];
  if (project === '' || namespace === '') return null;
  const host = [instance.url, instance.sshPrefix].find((prefix) => prefix && url.startsWith(prefix));
  if (host) [namespace, project] = lastSplit(url.slice(host.length), /\//);
  namespace = namespace.replace(/^\//, '');
  project = project.trimEnd().replace(/\.git$/, '');
  return namespace === '' || project === '' ? null : [namespace, project];
}

/** SubmoduleHelper#sanitize_submodule_url: the URL itself when it is one of the valid protocols. */
function sanitized(url: string): string | null {
  if (!URL.canParse(url)) return null;
  return VALID_SUBMODULE_PROTOCOLS.has(new URL(url).protocol) ? url : null;
}

function instanceLinks(instance: Instance, namespace: string, project: string, sha: string): SubmoduleLinks {
  const base = `${new URL(instance.url).pathname.replace(/\/$/, '')}/${namespace}/${project}`;
  return { webUrl: base, treeUrl: `${base}/-/tree/${sha}` };
}

/** SubmoduleHelper#relative_self_links: `../p2.git` from `/g1/p1` is `/g1/p2`. */
function relativeLinks(relativePath: string, instance: Instance, sha: string): SubmoduleLinks {
  const projectPath = `/${instance.projectPath}`;
  const target = posix.resolve(projectPath, relativePath.trimEnd());
  const namespace = posix.dirname(target);
  if (namespace === '/' || namespace.startsWith(projectPath)) return NO_LINKS;
  return instanceLinks(instance, namespace.slice(1), posix.basename(target, '.git'), sha);
}

/** The links of a submodule at commit `sha` whose `.gitmodules` URL is `url` (undefined: none there). */
export function submoduleLinks(
  url: string | undefined,
  sha: string,
  project: Pick<ProjectSchema, 'web_url' | 'ssh_url_to_repo' | 'path_with_namespace'>,
): SubmoduleLinks {
  const instance = instanceOf(project);
  if (url === undefined || !instance) return NO_LINKS;
  const absolute = url === '.' || url === './' ? `${instance.url}/${instance.projectPath}` : url;
  const names = namespaceAndProject(absolute, instance);
  if (!names) return { webUrl: sanitized(absolute), treeUrl: null };
  const [namespace, project_] = names;
  const withoutGit = absolute.replace(/\.git$/, '');
  if (withoutGit === `${instance.url}/${namespace}/${project_}` || (instance.sshPrefix !== null && `${withoutGit}.git` === `${instance.sshPrefix}${namespace}/${project_}.git`)) {
    return instanceLinks(instance, namespace, project_, sha);
  }
  if (absolute.startsWith('../') || absolute.startsWith('./')) return relativeLinks(absolute, instance, sha);
  if (/gist\.github\.com[/:][^/]+\/[^/]+$/.test(absolute)) {
    const base = `https://gist.github.com/${namespace}/${project_}`;
    return { webUrl: base, treeUrl: `${base}/${sha}` };
  }
  if (/github\.com[/:][^/]+\/[^/]+$/.test(absolute)) {
    const base = `https://github.com/${namespace}/${project_}`;
    return { webUrl: base, treeUrl: `${base}/tree/${sha}` };
  }
  if (/gitlab\.com[/:][^/]+\/[^/]+$/.test(absolute)) {
    const base = `https://gitlab.com/${namespace}/${project_}`;
    return { webUrl: base, treeUrl: `${base}/-/tree/${sha}` };
  }
  return { webUrl: sanitized(absolute), treeUrl: null };
}

import type { WikiFormat, WikiPage } from '../model.js';
import type { SimulatorState } from '../state.js';

/**
 * GitLab's slug of a page title: spaces become hyphens, case and everything else stay, and a `/`
 * puts the page in a directory (`docs/Getting started` -> `docs/Getting-started`).
 */
export function wikiSlug(title: string): string {
  return title.trim().replace(/\s+/g, '-');
}

/** The title GitLab shows for a page: the last part of what was given, without its directory. */
export function wikiDisplayTitle(title: string): string {
  return title.trim().split('/').pop() ?? '';
}

type PageSeed = [projectId: number, title: string, format: WikiFormat, content: string];

const PAGES: PageSeed[] = [
  [1, 'home', 'markdown', '*  [Deploy](deploy)\n*  [Development](development)\n*  [Getting started](docs/Getting-started)'],
  [1, 'deploy', 'markdown', 'Here is an instruction how to deploy this project.'],
  [1, 'development', 'markdown', 'Our development process is described here.'],
  [1, 'docs/Getting started', 'markdown', '# Getting started\n\nClone the repository and run `bin/setup`.'],
  [1, 'docs/FAQ', 'asciidoc', '= FAQ\n\nWhy is the sky blue? Rayleigh scattering.'],
  [1, 'Release notes 18.0', 'markdown', 'GitLab 18.0 brings a faster runner fleet.'],
  [5, 'home', 'markdown', 'Security fixes are tracked here; keep this wiki private.'],
  [6, 'home', 'markdown', 'The web UI of GitLab.'],
  [6, 'Style guide', 'org', '* Style guide\n  Use the design system tokens.'],
  [23, 'home', 'rdoc', '= Awesome Lib\n\nA library that is awesome.'],
];

export function seedWikis(state: SimulatorState): void {
  for (const [projectId, title, format, content] of PAGES) {
    const page: WikiPage = { projectId, slug: wikiSlug(title), title: wikiDisplayTitle(title), format, content };
    state.wikiPages.push(page);
  }
}

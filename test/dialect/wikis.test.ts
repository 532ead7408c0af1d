// A wiki page as a frontend written in GitLab's style reads and edits it: named operations, a
// fragment, variables. GitLab's GraphQL (16.2) has no wiki fields of its own, so these are the
// gateway's REST-backed extensions, named as GitLab names its neighbours (`wikiPageUpdate`,
// `WikiPageUpdateInput`, a payload with `errors`); every document validates against the schema and
// runs over HTTP against the embedded v4 server, checked against REST.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const WIKI_PAGE_FRAGMENT = `fragment WikiPageParts on WikiPage {
  slug
  title
  format
  content
}`;

const WIKI_PAGE_QUERY = `query wikiPage($fullPath: ID!, $slug: String!) {
  project(fullPath: $fullPath) {
    id
    fullPath
    wikiPage(slug: $slug) {
      ...WikiPageParts
    }
  }
}
${WIKI_PAGE_FRAGMENT}`;

const WIKI_PAGE_UPDATE = `mutation updateWikiPage($input: WikiPageUpdateInput!) {
  wikiPageUpdate(input: $input) {
    errors
    wikiPage {
      ...WikiPageParts
    }
  }
}
${WIKI_PAGE_FRAGMENT}`;

interface RestWikiPage {
  slug: string;
  title: string;
  format: string;
  content: string;
}
interface WikiPageData {
  project: { id: string; fullPath: string; wikiPage: { slug: string; title: string; format: string; content: string } | null };
}

const PROJECT = 'gitlab-org/gitlab';
const { developer } = DEMO_TOKENS;
const asNode = (page: RestWikiPage) => ({ slug: page.slug, title: page.title, format: page.format.toUpperCase(), content: page.content });

describe('a wiki page in GitLab style', () => {
  const harness = gatewayOverSimulator();

  it('validates every document against the schema', () => {
    const schema = createExecutableSchema();
    for (const document of [WIKI_PAGE_QUERY, WIKI_PAGE_UPDATE]) expect(validate(schema, parse(document))).toEqual([]);
  });

  it('reads a page as REST holds it: the project, then its page', async () => {
    const pages = await harness.oracle.get<RestWikiPage[]>('/projects/1/wikis', developer);
    const slug = pages[0]!.slug;
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<WikiPageData>(WIKI_PAGE_QUERY, { fullPath: PROJECT, slug }, developer);
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    const expected = await harness.oracle.get<RestWikiPage>(`/projects/1/wikis/${encodeURIComponent(slug)}`, developer);
    expect(result.data!.project.wikiPage).toEqual(asNode(expected));
    // The project by full path, then its page by the project's id: two calls, nothing per field.
    expect(calls).toEqual(['GET /projects/gitlab-org%2Fgitlab', `GET /projects/1/wikis/${encodeURIComponent(slug)}`]);
  });

  it('answers null for a page that does not exist', async () => {
    const result = await harness.gateway.query<WikiPageData>(WIKI_PAGE_QUERY, { fullPath: PROJECT, slug: 'no-such-page' }, developer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.wikiPage).toBeNull();
  });

  it('edits a page, and REST then holds the edit', async () => {
    const pages = await harness.oracle.get<RestWikiPage[]>('/projects/1/wikis', developer);
    const slug = pages[0]!.slug;
    const content = `Edited in GitLab's style at ${slug}.`;
    const result = await harness.gateway.query<{ wikiPageUpdate: { errors: string[]; wikiPage: ReturnType<typeof asNode> } }>(
      WIKI_PAGE_UPDATE,
      { input: { projectPath: PROJECT, slug, content } },
      developer,
    );
    expect(result.errors).toBeUndefined();
    const stored = await harness.oracle.get<RestWikiPage>(`/projects/1/wikis/${encodeURIComponent(slug)}`, developer);
    expect(stored.content).toBe(content);
    expect(result.data!.wikiPageUpdate).toEqual({ errors: [], wikiPage: asNode(stored) });
  });
});

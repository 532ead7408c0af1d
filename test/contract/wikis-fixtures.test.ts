import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream } from '../support/stub-upstream.js';
import { postUpload } from '../support/uploads.js';

/**
 * Every wikis fixture of the REST documentation, served by a stub upstream, maps through the
 * schema without error, with its values where the schema says they go.
 */
const fixture = (name: string) => readFixture(`wikis/${name}.json`) as Record<string, unknown>;
const PROJECT = { id: 2, path_with_namespace: 'group/project', name: 'project', path: 'project' };
const PAGE_FIELDS = 'slug title format content encoding';

const asNode = (page: Record<string, unknown>) => ({
  slug: page['slug'],
  title: page['title'],
  format: String(page['format']).toUpperCase(),
  content: page['content'],
  encoding: page['encoding'],
});

describe('wikis fixtures from the REST documentation', () => {
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;
  const token = 'glpat-contract';

  const CASES: Record<string, () => Promise<unknown>> = {
    'list-wiki-pages.json': async () => {
      const result = await gateway.query(
        `{ project(fullPath: "group/project") { wikiPages(withContent: true) { count nodes { ${PAGE_FIELDS} } } } }`,
        {},
        token,
      );
      const pages = readFixture('wikis/list-wiki-pages.json') as Array<Record<string, unknown>>;
      return { result, expected: { project: { wikiPages: { count: 3, nodes: pages.map(asNode) } } } };
    },
    'get-wiki-page.json': async () => {
      const result = await gateway.query(`{ project(fullPath: "group/project") { wikiPage(slug: "home") { ${PAGE_FIELDS} } } }`, {}, token);
      return { result, expected: { project: { wikiPage: asNode(fixture('get-wiki-page')) } } };
    },
    'create-wiki-page.json': async () => {
      const result = await gateway.query(
        `mutation { wikiPageCreate(input: { projectPath: "group/project", title: "Hello", content: "Hello world", format: RDOC }) { errors wikiPage { ${PAGE_FIELDS} } } }`,
        {},
        token,
      );
      return { result, expected: { wikiPageCreate: { errors: [], wikiPage: asNode(fixture('create-wiki-page')) } } };
    },
    'edit-wiki-page.json': async () => {
      const result = await gateway.query(
        `mutation { wikiPageUpdate(input: { projectPath: "group/project", slug: "Docs", content: "documentation" }) { errors wikiPage { ${PAGE_FIELDS} } } }`,
        {},
        token,
      );
      return { result, expected: { wikiPageUpdate: { errors: [], wikiPage: asNode(fixture('edit-wiki-page')) } } };
    },
    'upload-wiki-attachment.json': async () => {
      const query =
        'mutation($file: Upload!) { wikiAttachmentUpload(input: { projectPath: "group/project", file: $file }) { errors attachment { fileName filePath branch url markdown } } }';
      const file = new File([new Uint8Array([1, 2, 3])], 'dk.png', { type: 'image/png' });
      const response = await postUpload(gateway.url, query, {}, { file }, token);
      const attachment = fixture('upload-wiki-attachment');
      const link = attachment['link'] as Record<string, string>;
      return {
        result: await response.json(),
        expected: {
          wikiAttachmentUpload: {
            errors: [],
            attachment: {
              fileName: attachment['file_name'],
              filePath: attachment['file_path'],
              branch: attachment['branch'],
              url: link['url'],
              markdown: link['markdown'],
            },
          },
        },
      };
    },
  };

  beforeAll(async () => {
    stub = await startStubUpstream([
      { method: 'GET', path: '/projects/group%2Fproject', body: PROJECT },
      { method: 'GET', path: '/projects/2/wikis', body: readFixture('wikis/list-wiki-pages.json') },
      { method: 'GET', path: '/projects/2/wikis/home', body: fixture('get-wiki-page') },
      { method: 'POST', path: '/projects/group%2Fproject/wikis', status: 201, body: fixture('create-wiki-page') },
      { method: 'PUT', path: '/projects/group%2Fproject/wikis/Docs', body: fixture('edit-wiki-page') },
      { method: 'POST', path: '/projects/group%2Fproject/wikis/attachments', status: 201, body: fixture('upload-wiki-attachment') },
    ]);
    gateway = await startTestGateway(stub.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('covers every file of fixtures/gitlab-docs/wikis/', () => {
    const files = readdirSync(new URL('wikis/', FIXTURES_DIR)).filter((name) => name.endsWith('.json'));
    expect(Object.keys(CASES).sort()).toEqual(files.sort());
  });

  it.each(Object.keys(CASES))('%s maps through the schema', async (name) => {
    const { result, expected } = (await CASES[name]!()) as { result: { errors?: unknown; data?: unknown }; expected: unknown };
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual(expected);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const slugs = (items: Record<string, unknown>[]) => items.map((item) => item['slug']);

describe('GET /projects/:id/wikis', () => {
  it('lists every page, without content unless with_content is set (fixtures/wikis/list-wiki-pages.json)', async () => {
    const plain = list(await call(sim, '/projects/gitlab-org%2Fgitlab/wikis', { token: guest }));
    expect(slugs(plain)).toEqual(['deploy', 'development', 'docs/FAQ', 'docs/Getting-started', 'home', 'Release-notes-18.0']);
    expect(plain[0]).toEqual({ format: 'markdown', slug: 'deploy', title: 'deploy', encoding: 'UTF-8' });
    const full = list(await call(sim, '/projects/1/wikis?with_content=1'));
    expect(full[0]).toEqual({
      content: 'Here is an instruction how to deploy this project.',
      format: 'markdown',
      slug: 'deploy',
      title: 'deploy',
      encoding: 'UTF-8',
    });
    // Not paginated in GitLab.
    expect((await call(sim, '/projects/1/wikis')).headers.get('x-total')).toBeNull();
  });

  it("hides a private project's wiki (404) and refuses a disabled wiki (403)", async () => {
    expect(record(await call(sim, '/projects/5/wikis', { token: outsider }))).toEqual({ message: '404 Project Not Found' });
    expect((await call(sim, '/projects/5/wikis', { token: guest })).status).toBe(200);
    sim.state.projects.get(2)!.wikiEnabled = false;
    try {
      expect((await call(sim, '/projects/2/wikis', { token: admin })).status).toBe(403);
    } finally {
      sim.state.projects.get(2)!.wikiEnabled = true;
    }
  });
});

describe('GET /projects/:id/wikis/:slug', () => {
  it('reads a page in a directory by its encoded slug', async () => {
    expect(record(await call(sim, '/projects/1/wikis/docs%2FGetting-started'))).toEqual({
      content: '# Getting started\n\nClone the repository and run `bin/setup`.',
      format: 'markdown',
      slug: 'docs/Getting-started',
      title: 'Getting started',
      encoding: 'UTF-8',
    });
  });

  it('keeps an encoded slug inside the wiki: dots and slashes never reach another route', async () => {
    const escaped = await call(sim, '/projects/1/wikis/%2E%2E%2F%2E%2E%2Fusers%2F1');
    expect(escaped.status).toBe(404);
    expect(escaped.body).toEqual({ message: '404 Wiki Page Not Found' });
    // A raw `/` is another route (unknown here), as in GitLab: slugs must be encoded.
    expect(record(await call(sim, '/projects/1/wikis/docs/Getting-started'))).toEqual({ error: '404 Not Found' });
  });
});

describe('writing pages', () => {
  it('creates a page: Developer and above, slug from the title, duplicates refused', async () => {
    const created = await call(sim, '/projects/1/wikis', {
      method: 'POST',
      token: developer,
      json: { title: 'guides/How to release', content: 'Tag it.', format: 'asciidoc' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      content: 'Tag it.',
      format: 'asciidoc',
      slug: 'guides/How-to-release',
      title: 'How to release',
      encoding: 'UTF-8',
    });
    const again = await call(sim, '/projects/1/wikis', {
      method: 'POST',
      token: developer,
      json: { title: 'guides/How to release', content: 'x' },
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { base: ['Duplicate page: A page with that title already exists'] } });
    expect((await call(sim, '/projects/1/wikis', { method: 'POST', token: guest, json: { title: 'x', content: 'x' } })).status).toBe(403);
    expect((await call(sim, '/projects/1/wikis', { method: 'POST', json: { title: 'x', content: 'x' } })).status).toBe(401);
    expect(record(await call(sim, '/projects/1/wikis', { method: 'POST', token: developer, json: { title: 'x' } }))).toEqual({
      error: 'content is missing',
    });
    expect(
      record(
        await call(sim, '/projects/1/wikis', { method: 'POST', token: developer, json: { title: 'x', content: 'x', format: 'html' } }),
      ),
    ).toEqual({
      error: 'format does not have a valid value',
    });
  });

  it('renames a page within its directory, or to the root with a leading slash', async () => {
    await call(sim, '/projects/6/wikis', { method: 'POST', token: developer, json: { title: 'drafts/Plan', content: 'v1' } });
    const renamed = record(
      await call(sim, '/projects/6/wikis/drafts%2FPlan', { method: 'PUT', token: developer, json: { title: 'Plan B', content: 'v2' } }),
    );
    expect(renamed).toMatchObject({ slug: 'drafts/Plan-B', title: 'Plan B', content: 'v2' });
    const moved = record(
      await call(sim, '/projects/6/wikis/drafts%2FPlan-B', { method: 'PUT', token: developer, json: { title: '/Plan C' } }),
    );
    expect(moved).toMatchObject({ slug: 'Plan-C', content: 'v2' });
    expect(record(await call(sim, '/projects/6/wikis/Plan-C', { method: 'PUT', token: developer, json: {} }))).toEqual({
      error: 'content, title, format are missing, at least one parameter must be provided',
    });
    expect(record(await call(sim, '/projects/6/wikis/Plan-C', { method: 'PUT', token: developer, json: { title: 'home' } }))).toEqual({
      message: { base: ['The page could not be saved because it already exists.'] },
    });
  });

  it('deletes a page with 204, then it is gone', async () => {
    await call(sim, '/projects/6/wikis', { method: 'POST', token: maintainer, json: { title: 'Scratch', content: '-' } });
    const deleted = await call(sim, '/projects/6/wikis/Scratch', { method: 'DELETE', token: maintainer });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await call(sim, '/projects/6/wikis/Scratch')).status).toBe(404);
  });
});

describe('POST /projects/:id/wikis/attachments', () => {
  const upload = (form: FormData, token: string = developer) =>
    fetch(`${sim.url}/projects/1/wikis/attachments`, { method: 'POST', headers: { 'private-token': token }, body: form });

  it('stores a multipart file and answers its path and Markdown (fixtures/wikis/upload-wiki-attachment.json)', async () => {
    const form = new FormData();
    form.append('file', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'dk.png', { type: 'image/png' }));
    form.append('branch', 'wiki-assets');
    const response = await upload(form);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { file_path: string };
    expect(body).toEqual({
      file_name: 'dk.png',
      file_path: expect.stringMatching(/^uploads\/[0-9a-f]{32}\/dk\.png$/) as unknown,
      branch: 'wiki-assets',
      link: { url: body.file_path, markdown: `![dk](${body.file_path})` },
    });
    const stored = sim.state.wikiAttachments.find((attachment) => attachment.filePath === body.file_path);
    expect(stored?.bytes).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('defaults to the default branch, links other files, sanitises names, and needs a file', async () => {
    const form = new FormData();
    form.append('file', new File(['notes'], '../my notes.txt', { type: 'text/plain' }));
    const body = (await (await upload(form)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      file_name: 'my_notes.txt',
      branch: 'main',
      link: { markdown: `[my_notes.txt](${String(body['file_path'])})` },
    });
    const empty = new FormData();
    empty.append('branch', 'main');
    const missing = await upload(empty);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'file is missing' });
    expect((await upload(form, guest)).status).toBe(403);
  });
});

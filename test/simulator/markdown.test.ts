import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, record } from './helpers.js';

let sim: Simulator;
const { maintainer, developer, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const render = (json: Record<string, unknown>, token: string | null = developer) => call(sim, '/markdown', { method: 'POST', json, ...(token ? { token } : {}) });

describe('POST /markdown', () => {
  it('renders paragraphs, headings, emphasis, code and links, and answers 201 with the html', async () => {
    const result = await render({ text: '# Title\n\nSome **bold** and *soft* `code`, a [link](https://example.com).\nNext line' });
    expect(result.status).toBe(201);
    expect(record(result)).toEqual({
      html:
        '<h1 dir="auto">Title</h1>\n' +
        '<p dir="auto">Some <strong>bold</strong> and <em>soft</em> <code>code</code>, a <a href="https://example.com" rel="nofollow noreferrer noopener" target="_blank">link</a>.<br>\nNext line</p>',
    });
  });

  it('escapes HTML in the text', async () => {
    expect(record(await render({ text: '<script>alert("x")</script> & more' }))['html']).toBe('<p dir="auto">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more</p>');
  });

  it("links issue references to the project's issues only with gfm and a project", async () => {
    const linked = record(await render({ text: 'Fixes #12', gfm: true, project: 'gitlab-org/gitlab' }))['html'];
    expect(linked).toBe(`<p dir="auto">Fixes <a href="${new URL(sim.url).origin}/gitlab-org/gitlab/-/issues/12" data-reference-type="issue" class="gfm gfm-issue">#12</a></p>`);
    expect(record(await render({ text: 'Fixes #12', gfm: false, project: 'gitlab-org/gitlab' }))['html']).toBe('<p dir="auto">Fixes #12</p>');
    expect(record(await render({ text: 'Fixes #12', gfm: true }))['html']).toBe('<p dir="auto">Fixes #12</p>');
  });

  it('takes the parameters as a form too', async () => {
    const result = await call(sim, '/markdown', { method: 'POST', token: developer, form: 'text=%2A%2Ahi%2A%2A&gfm=true' });
    expect([result.status, result.body]).toEqual([201, { html: '<p dir="auto"><strong>hi</strong></p>' }]);
  });

  it('finds the project by its full path only, and answers 404 for one the caller may not read', async () => {
    for (const project of ['1', 'gitlab-org/nothing-here', 'gitlab-org/security-fixes']) {
      const result = await render({ text: 'x', gfm: true, project }, outsider);
      expect([project, result.status, result.body]).toEqual([project, 404, { message: '404 Project Not Found' }]);
    }
    expect((await render({ text: 'x', gfm: true, project: 'gitlab-org/security-fixes' }, maintainer)).status).toBe(201);
  });

  it('authenticates every call, as GitLab does by default (authenticate_markdown_api)', async () => {
    const result = await render({ text: 'hello' }, null);
    expect([result.status, result.body]).toEqual([401, { message: '401 Unauthorized' }]);
  });

  it('answers a missing text with a Grape error', async () => {
    const result = await render({ gfm: true });
    expect([result.status, result.body]).toEqual([400, { error: 'text is missing' }]);
  });
});

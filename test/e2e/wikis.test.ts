import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { postUpload } from '../support/uploads.js';

interface RestWikiPage {
  slug: string;
  title: string;
  format: string;
  content?: string;
  encoding: string;
}
interface WikiPageNode {
  slug: string;
  title: string;
  format: string;
  content?: string | null;
  encoding: string;
}

const { admin, maintainer, developer, guest } = DEMO_TOKENS;
const PAGE_FIELDS = 'slug title format content encoding';
const MAX_UPLOAD_BYTES = 64 * 1024;

const asNode = (page: RestWikiPage): WikiPageNode => ({ ...page, format: page.format.toUpperCase(), content: page.content ?? null });

describe('project wikis over real HTTP', () => {
  const harness = gatewayOverSimulator({ maxUploadBytes: MAX_UPLOAD_BYTES });
  const query = <T>(text: string, variables: Record<string, unknown> = {}, token: string = developer) =>
    harness.gateway.query<T>(text, variables, token);

  describe('reading pages', () => {
    it('lists every page with its content in one REST call when asked withContent', async () => {
      const result = await query<{ project: { wikiPages: { count: number; nodes: WikiPageNode[]; pageInfo: { hasNextPage: boolean } } } }>(
        `{ project(fullPath: "gitlab-org/gitlab") { wikiPages(withContent: true, first: 4) { count nodes { ${PAGE_FIELDS} } pageInfo { hasNextPage } } } }`,
      );
      expect(result.errors).toBeUndefined();
      const expected = await harness.oracle.get<RestWikiPage[]>('/projects/1/wikis?with_content=true', developer);
      expect(result.data!.project.wikiPages).toEqual({
        count: expected.length,
        nodes: expected.slice(0, 4).map(asNode),
        pageInfo: { hasNextPage: true },
      });
      expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/wikis']);
      expect(harness.simulator.requests[1]!.query).toMatchObject({ with_content: 'true' });
    });

    it('fetches the content of a page listed without it only when asked, one call per page', async () => {
      const result = await query<{ project: { wikiPages: { nodes: Array<{ slug: string; content: string }> } } }>(
        `{ project(fullPath: "gitlab-org/frontend/web-ui") { wikiPages { nodes { slug content } } } }`,
      );
      expect(result.errors).toBeUndefined();
      const pages = await harness.oracle.get<RestWikiPage[]>('/projects/6/wikis?with_content=true', developer);
      expect(result.data!.project.wikiPages.nodes).toEqual(pages.map((page) => ({ slug: page.slug, content: page.content })));
      expect(restCalls(harness.simulator).sort()).toEqual(
        [
          'GET /projects/6/wikis',
          'GET /projects/gitlab-org%2Ffrontend%2Fweb-ui',
          ...pages.map((page) => `GET /projects/6/wikis/${encodeURIComponent(page.slug).replace(/\./g, '%2E')}`),
        ].sort(),
      );
    });

    it('reads one page by a slug with `/`, sent as one encoded segment', async () => {
      const result = await query<{ project: { wikiPage: WikiPageNode } }>(
        `{ project(fullPath: "gitlab-org/gitlab") { wikiPage(slug: "docs/Getting-started") { ${PAGE_FIELDS} } } }`,
      );
      expect(result.data!.project.wikiPage).toEqual(
        asNode(await harness.oracle.get<RestWikiPage>('/projects/1/wikis/docs%2FGetting-started')),
      );
      expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/wikis/docs%2FGetting-started']);
    });

    it('keeps path-escape attempts inside the wiki route: encoded, and null', async () => {
      const result = await query<{ project: { a: unknown; b: unknown; c: unknown } }>(
        `{ project(fullPath: "gitlab-org/gitlab") { a: wikiPage(slug: "../../../users/1") { slug } b: wikiPage(slug: "%2e%2e/%2e%2e/keys") { slug } c: wikiPage(slug: "home?private_token=x#") { slug } } }`,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.project).toEqual({ a: null, b: null, c: null });
      expect(restCalls(harness.simulator).slice(1).sort()).toEqual([
        'GET /projects/1/wikis/%252e%252e%2F%252e%252e%2Fkeys',
        'GET /projects/1/wikis/%2E%2E%2F%2E%2E%2F%2E%2E%2Fusers%2F1',
        'GET /projects/1/wikis/home%3Fprivate_token%3Dx%23',
      ]);
    });

    it("refuses a blank slug before any REST call, and hides a private project's wiki", async () => {
      const blank = await query(`{ project(fullPath: "gitlab-org/gitlab") { wikiPage(slug: "  ") { slug } } }`);
      expect(blank.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'slug' });
      expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab']);
      const hidden = await query<{ project: unknown }>(
        `{ project(fullPath: "gitlab-org/security-fixes") { wikiPages { count } } }`,
        {},
        DEMO_TOKENS.outsider,
      );
      expect(hidden.data!.project).toBeNull();
    });
  });

  describe('writing pages', () => {
    const CREATE = `mutation($input: WikiPageCreateInput!) { wikiPageCreate(input: $input) { clientMutationId errors wikiPage { ${PAGE_FIELDS} } } }`;
    const UPDATE = `mutation($input: WikiPageUpdateInput!) { wikiPageUpdate(input: $input) { errors wikiPage { ${PAGE_FIELDS} } } }`;

    it('creates a page in a directory, and reports a duplicate title in `errors`', async () => {
      const input = {
        clientMutationId: 'w1',
        projectPath: 'gitlab-org/gitlab',
        title: 'runbooks/On call',
        content: 'Page the SRE.',
        format: 'ORG',
      };
      const created = await query<{ wikiPageCreate: { clientMutationId: string; errors: string[]; wikiPage: WikiPageNode } }>(CREATE, {
        input,
      });
      expect(created.data!.wikiPageCreate).toEqual({
        clientMutationId: 'w1',
        errors: [],
        wikiPage: asNode(await harness.oracle.get<RestWikiPage>('/projects/1/wikis/runbooks%2FOn-call')),
      });
      expect(restCalls(harness.simulator)).toEqual(['POST /projects/gitlab-org%2Fgitlab/wikis']);
      const duplicate = await query<{ wikiPageCreate: { errors: string[]; wikiPage: null } }>(CREATE, { input });
      expect(duplicate.errors).toBeUndefined();
      expect(duplicate.data!.wikiPageCreate).toMatchObject({
        errors: ['Duplicate page: A page with that title already exists'],
        wikiPage: null,
      });
    });

    it('fails with FORBIDDEN for a Guest and refuses a blank title before any REST call', async () => {
      const forbidden = await query(CREATE, { input: { projectPath: 'gitlab-org/gitlab', title: 'x', content: 'x' } }, guest);
      expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      harness.simulator.resetRequests();
      const blank = await query(CREATE, { input: { projectPath: 'gitlab-org/gitlab', title: ' ', content: 'x' } });
      expect(blank.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'title' });
      const badPath = await query(CREATE, { input: { projectPath: 'gitlab-org//gitlab', title: 'x', content: 'x' } });
      expect(badPath.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'projectPath' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('renames and rewrites a page; the slug follows the title', async () => {
      await query(CREATE, { input: { projectPath: 'gitlab-org/gitlab', title: 'drafts/Idea', content: 'v1' } });
      harness.simulator.resetRequests();
      const updated = await query<{ wikiPageUpdate: { errors: string[]; wikiPage: WikiPageNode } }>(UPDATE, {
        input: { projectPath: 'gitlab-org/gitlab', slug: 'drafts/Idea', title: 'Better idea', content: 'v2', format: 'RDOC' },
      });
      expect(updated.data!.wikiPageUpdate).toEqual({
        errors: [],
        wikiPage: { slug: 'drafts/Better-idea', title: 'Better idea', format: 'RDOC', content: 'v2', encoding: 'UTF-8' },
      });
      expect(restCalls(harness.simulator)).toEqual(['PUT /projects/gitlab-org%2Fgitlab/wikis/drafts%2FIdea']);
    });

    it('refuses an update without title or content before any REST call, and a missing page is NOT_FOUND', async () => {
      const empty = await query(UPDATE, { input: { projectPath: 'gitlab-org/gitlab', slug: 'home', format: 'MARKDOWN' } });
      expect(empty.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
      expect(restCalls(harness.simulator)).toEqual([]);
      const missing = await query(UPDATE, { input: { projectPath: 'gitlab-org/gitlab', slug: 'no/such page', content: 'x' } });
      expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', restStatus: 404, restMessage: '404 Wiki Page Not Found' });
      expect(restCalls(harness.simulator)).toEqual(['PUT /projects/gitlab-org%2Fgitlab/wikis/no%2Fsuch%20page']);
    });

    it('deletes a page', async () => {
      await query(CREATE, { input: { projectPath: 'gitlab-org/gitlab', title: 'Temporary', content: '-' } });
      harness.simulator.resetRequests();
      const deleted = await query<{ wikiPageDelete: { errors: string[] } }>(
        `mutation { wikiPageDelete(input: { projectPath: "gitlab-org/gitlab", slug: "Temporary" }) { errors } }`,
        {},
        maintainer,
      );
      expect(deleted.data!.wikiPageDelete).toEqual({ errors: [] });
      expect(restCalls(harness.simulator)).toEqual(['DELETE /projects/gitlab-org%2Fgitlab/wikis/Temporary']);
      expect((await harness.oracle.call('GET', '/projects/1/wikis/Temporary', admin)).status).toBe(404);
    });
  });

  describe('wikiAttachmentUpload', () => {
    const UPLOAD = `mutation($input: WikiAttachmentUploadInput!) { wikiAttachmentUpload(input: $input) { errors attachment { fileName filePath branch url markdown } } }`;

    const send = (input: Record<string, unknown>, file: File, token: string = developer) =>
      postUpload(harness.gateway.url, UPLOAD, { input }, { 'input.file': file }, token);

    it('sends the file as multipart to REST and answers where it is stored', async () => {
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]);
      const response = await send(
        { projectPath: 'gitlab-org/gitlab', branch: 'assets' },
        new File([bytes], 'diagram.png', { type: 'image/png' }),
      );
      const body = (await response.json()) as { data: { wikiAttachmentUpload: { errors: string[]; attachment: Record<string, string> } } };
      const { attachment } = body.data.wikiAttachmentUpload;
      expect(attachment).toEqual({
        fileName: 'diagram.png',
        filePath: expect.stringMatching(/^uploads\/[0-9a-f]{32}\/diagram\.png$/) as unknown,
        branch: 'assets',
        url: attachment['filePath'],
        markdown: `![diagram](${attachment['filePath']})`,
      });
      expect(restCalls(harness.simulator)).toEqual(['POST /projects/gitlab-org%2Fgitlab/wikis/attachments']);
      const stored = harness.simulator.state.wikiAttachments.find((candidate) => candidate.filePath === attachment['filePath']);
      expect(stored).toMatchObject({ contentType: 'image/png', branch: 'assets' });
      expect(new Uint8Array(stored!.bytes)).toEqual(bytes);
    });

    it("commits to the wiki's default branch when no branch is given", async () => {
      const response = await send({ projectPath: 'gitlab-org/gitlab' }, new File(['notes'], 'notes.txt', { type: 'text/plain' }));
      const body = (await response.json()) as {
        data: { wikiAttachmentUpload: { attachment: { branch: string; markdown: string; filePath: string } } };
      };
      expect(body.data.wikiAttachmentUpload.attachment).toMatchObject({
        branch: 'main',
        markdown: `[notes.txt](${body.data.wikiAttachmentUpload.attachment.filePath})`,
      });
    });

    it('refuses a file over the upload limit (413) and a blank branch, before any REST call', async () => {
      const tooBig = await send({ projectPath: 'gitlab-org/gitlab' }, new File([new Uint8Array(MAX_UPLOAD_BYTES + 1)], 'big.bin'));
      expect(tooBig.status).toBe(413);
      const blankBranch = (await (await send({ projectPath: 'gitlab-org/gitlab', branch: '' }, new File(['x'], 'x.txt'))).json()) as {
        errors: Array<{ extensions: Record<string, unknown> }>;
      };
      expect(blankBranch.errors[0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'branch' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('fails with FORBIDDEN for a Guest', async () => {
      const body = (await (await send({ projectPath: 'gitlab-org/gitlab' }, new File(['x'], 'x.txt'), guest)).json()) as {
        errors: Array<{ extensions: Record<string, unknown> }>;
      };
      expect(body.errors[0]!.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    });
  });
});

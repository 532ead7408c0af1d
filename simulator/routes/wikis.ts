// Project wikis (rest-v4-api.md "Wikis (project)"; GitLab's lib/api/wikis.rb). Reading needs a
// visible project with its wiki on; writing and uploading need Developer or higher
// (`create_wiki`), and an archived project is read-only. `:slug` arrives decoded, so
// `docs%2Fpage` is the page `docs/page`, and no slug can reach another route.
import { createHash } from 'node:crypto';
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type Project, type WikiFormat, type WikiPage } from '../data/model.js';
import { wikiDisplayTitle, wikiSlug } from '../data/seed/wikis.js';
import { wikiAttachmentEntity, wikiPageEntity } from '../entities/wikis.js';
import { forbidden, notFound, validationError } from '../http/errors.js';
import { p } from '../http/params.js';
import { created, noContent, ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleProject } from './lookup.js';

const FORMATS: readonly WikiFormat[] = ['markdown', 'rdoc', 'asciidoc', 'org'];

/** The project of the path, visible (404) and with its wiki on (403, as `authorize! :read_wiki`). */
function wikiProject(ctx: RequestContext<unknown>, id: string): Project {
  const project = visibleProject(ctx, id);
  if (!project.wikiEnabled) throw forbidden();
  return project;
}

/** `create_wiki`: Developer or higher (or an administrator), and not in an archived project. */
function writableWikiProject(ctx: RequestContext<unknown>, id: string): Project {
  const project = wikiProject(ctx, id);
  const allowed = ctx.user?.isAdmin === true || projectAccessLevel(ctx.state, ctx.user, project) >= AccessLevel.DEVELOPER;
  if (!allowed || project.archived) throw forbidden();
  return project;
}

function findPage(ctx: RequestContext<unknown>, project: Project, slug: string): WikiPage {
  const page = ctx.state.wikiPages.find((candidate) => candidate.projectId === project.id && candidate.slug === slug);
  if (!page) throw notFound('Wiki Page');
  return page;
}

function slugTaken(ctx: RequestContext<unknown>, project: Project, slug: string, except?: WikiPage): boolean {
  return ctx.state.wikiPages.some((page) => page.projectId === project.id && page.slug === slug && page !== except);
}

/**
 * WikiPage#process_title: a new title is relative to the page's directory unless it starts with
 * `/`, which makes it relative to the wiki's root.
 */
function titleInDirectory(page: WikiPage, title: string): string {
  const trimmed = title.trim();
  if (trimmed.startsWith('/')) return trimmed.slice(1);
  const directory = page.slug.includes('/') ? page.slug.slice(0, page.slug.lastIndexOf('/')) : '';
  return directory ? `${directory}/${trimmed}` : trimmed;
}

/** GitLab's upload name sanitising: anything but letters, digits, `.`, `-` and `_` becomes `_`. */
function sanitizedFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return clean || 'file';
}

export function registerWikiRoutes(router: Router): void {
  router.get('/projects/:id/wikis', { auth: 'optional', params: { id: p.string().required(), with_content: p.boolean() } }, (ctx) => {
    const project = wikiProject(ctx, ctx.params.id);
    // Not paginated in GitLab: every page of the wiki, ordered by slug like the wiki's own list.
    const pages = ctx.state.wikiPages.filter((page) => page.projectId === project.id).sort((a, b) => a.slug.localeCompare(b.slug));
    return ok(pages.map((page) => wikiPageEntity(page, ctx.params.with_content === true)));
  });

  router.get(
    '/projects/:id/wikis/:slug',
    { auth: 'optional', params: { id: p.string().required(), slug: p.string().required(), render_html: p.boolean(), version: p.string() } },
    (ctx) => {
      const project = wikiProject(ctx, ctx.params.id);
      return ok(wikiPageEntity(findPage(ctx, project, ctx.params.slug)));
    },
  );

  router.post(
    '/projects/:id/wikis',
    {
      auth: 'required',
      params: {
        id: p.string().required(),
        title: p.string().required(),
        content: p.string().required(),
        format: p.string().values(FORMATS).default('markdown'),
      },
    },
    (ctx) => {
      const project = writableWikiProject(ctx, ctx.params.id);
      if (!ctx.params.title.trim()) throw validationError({ title: ["can't be blank"] });
      const slug = wikiSlug(ctx.params.title);
      if (slugTaken(ctx, project, slug)) throw validationError({ base: ['Duplicate page: A page with that title already exists'] });
      const page: WikiPage = {
        projectId: project.id,
        slug,
        title: wikiDisplayTitle(ctx.params.title),
        format: ctx.params.format as WikiFormat,
        content: ctx.params.content,
      };
      ctx.state.wikiPages.push(page);
      return created(wikiPageEntity(page));
    },
  );

  router.put(
    '/projects/:id/wikis/:slug',
    {
      auth: 'required',
      params: {
        id: p.string().required(),
        slug: p.string().required(),
        title: p.string(),
        content: p.string(),
        format: p.string().values(FORMATS),
      },
      atLeastOneOf: ['content', 'title', 'format'],
    },
    (ctx) => {
      const project = writableWikiProject(ctx, ctx.params.id);
      const page = findPage(ctx, project, ctx.params.slug);
      if (ctx.params.title !== undefined) {
        if (!ctx.params.title.trim()) throw validationError({ title: ["can't be blank"] });
        const fullTitle = titleInDirectory(page, ctx.params.title);
        const slug = wikiSlug(fullTitle);
        if (slugTaken(ctx, project, slug, page))
          throw validationError({ base: ['The page could not be saved because it already exists.'] });
        page.slug = slug;
        page.title = wikiDisplayTitle(fullTitle);
      }
      if (ctx.params.content !== undefined) page.content = ctx.params.content;
      if (ctx.params.format !== undefined) page.format = ctx.params.format as WikiFormat;
      return ok(wikiPageEntity(page));
    },
  );

  router.delete(
    '/projects/:id/wikis/:slug',
    { auth: 'required', params: { id: p.string().required(), slug: p.string().required() } },
    (ctx) => {
      const project = writableWikiProject(ctx, ctx.params.id);
      const page = findPage(ctx, project, ctx.params.slug);
      ctx.state.wikiPages.splice(ctx.state.wikiPages.indexOf(page), 1);
      return noContent();
    },
  );

  router.post(
    '/projects/:id/wikis/attachments',
    { auth: 'required', params: { id: p.string().required(), file: p.file().required(), branch: p.string() } },
    (ctx) => {
      const project = writableWikiProject(ctx, ctx.params.id);
      const fileName = sanitizedFileName(ctx.params.file.filename);
      // Uploads live under a random directory in GitLab; a digest keeps the demo reproducible.
      const digest = createHash('md5')
        .update(`${project.id}:${ctx.state.wikiAttachments.length}:${fileName}`)
        .update(ctx.params.file.bytes)
        .digest('hex');
      const attachment = {
        projectId: project.id,
        fileName,
        filePath: `uploads/${digest}/${fileName}`,
        branch: ctx.params.branch ?? project.defaultBranch,
        contentType: ctx.params.file.contentType,
        bytes: ctx.params.file.bytes,
      };
      ctx.state.wikiAttachments.push(attachment);
      return created(wikiAttachmentEntity(attachment));
    },
  );
}

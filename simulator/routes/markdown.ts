// `POST /markdown` (GitLab REST "Markdown"): renders a text to HTML, as GitLab Flavored Markdown
// with `gfm`, and in a project's context with `project` (issue references become links to its
// issues). The simulator's renderer is small: paragraphs, headings, emphasis, inline code and
// links, with everything else escaped; GitLab's own HTML is richer, but it is the same kind of
// answer (`{"html": "..."}`) with the same errors. GitLab authenticates every call
// (`authenticate_markdown_api`, on by default) and finds `project` by its full path only
// (`Project.find_by_full_path`), answering "404 Project Not Found" for a path the caller may not read.
import { p } from '../http/params.js';
import { created } from '../http/response.js';
import type { Router } from '../http/router.js';
import { canReadProject } from '../data/access.js';
import { notFound } from '../http/errors.js';

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function inline(text: string, issueUrl: ((iid: string) => string) | null): string {
  let html = escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*]+)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2" rel="nofollow noreferrer noopener" target="_blank">$1</a>');
  if (issueUrl) {
    html = html.replace(/(^|[\s(])#(\d+)\b/g, (_match, before: string, iid: string) => `${before}<a href="${issueUrl(iid)}" data-reference-type="issue" class="gfm gfm-issue">#${iid}</a>`);
  }
  return html;
}

/** Blocks separated by blank lines: `#` headings, everything else a paragraph. */
export function renderMarkdown(text: string, issueUrl: ((iid: string) => string) | null): string {
  return text
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => {
      const heading = /^(#{1,6})\s+(.*)$/.exec(block);
      if (heading) return `<h${heading[1]!.length} dir="auto">${inline(heading[2]!, issueUrl)}</h${heading[1]!.length}>`;
      return `<p dir="auto">${block.split('\n').map((line) => inline(line, issueUrl)).join('<br>\n')}</p>`;
    })
    .join('\n');
}

export function registerMarkdownRoutes(router: Router): void {
  router.post('/markdown', { auth: 'required', params: { text: p.string().required(), gfm: p.boolean().default(false), project: p.string() } }, (ctx) => {
    const { text, gfm, project: projectPath } = ctx.params;
    // A full path always holds a `/`; a bare number is no path, so it names no project here.
    const project = projectPath === undefined || !projectPath.includes('/') ? undefined : ctx.state.findProject(projectPath);
    if (projectPath !== undefined && (!project || !canReadProject(ctx.state, ctx.user, project))) throw notFound('Project');
    // The project is only a context for GitLab Flavored Markdown's references.
    const issueUrl = gfm && project ? (iid: string) => `${ctx.origin}/${ctx.state.projectFullPath(project)}/-/issues/${iid}` : null;
    return created({ html: renderMarkdown(text, issueUrl) });
  });
}

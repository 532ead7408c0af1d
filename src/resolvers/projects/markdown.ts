import type { GatewayContext } from '../../server/context.js';

/**
 * GitLab Flavored Markdown rendered by REST (`POST /markdown`), once per distinct text and project
 * in a request (the markdown loader): REST renders one text per call, so the same description asked
 * twice costs one.
 * REST renders for signed-in callers only (`authenticate_markdown_api`, on by default), so an
 * anonymous caller gets null, without a call. `projectPath` must be a full path: REST finds the
 * context project by path alone.
 */
export function renderMarkdown(context: GatewayContext, text: string | null | undefined, projectPath?: string): Promise<string | null> {
  if (text === null || text === undefined || text === '' || !context.credential) return Promise.resolve(null);
  return context.loaders.markdown.load({ text, projectPath });
}

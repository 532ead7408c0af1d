import type { GatewayContext } from '../../server/context.js';

/**
 * GitLab Flavored Markdown rendered by REST (`POST /markdown`), once per distinct text and project
 * in a request: REST renders one text per call, so the same description asked twice costs one.
 * REST renders for signed-in callers only (`authenticate_markdown_api`, on by default), so an
 * anonymous caller gets null, without a call. `projectPath` must be a full path: REST finds the
 * context project by path alone.
 */
const rendered = new WeakMap<GatewayContext, Map<string, Promise<string>>>();

export function renderMarkdown(context: GatewayContext, text: string | null | undefined, projectPath?: string): Promise<string | null> {
  if (text === null || text === undefined || text === '' || !context.credential) return Promise.resolve(null);
  let byKey = rendered.get(context);
  if (!byKey) rendered.set(context, (byKey = new Map<string, Promise<string>>()));
  const key = JSON.stringify([projectPath ?? null, text]);
  let html = byKey.get(key);
  if (!html) byKey.set(key, (html = context.api.markdown.render(text, projectPath)));
  return html;
}

import type { GatewayContext } from '../../server/context.js';

/**
 * GitLab Flavored Markdown rendered by REST (`POST /markdown`), once per distinct text and project
 * in a request: REST renders one text per call, so the same description asked twice costs one.
 */
const rendered = new WeakMap<GatewayContext, Map<string, Promise<string>>>();

export function renderMarkdown(context: GatewayContext, text: string | null | undefined, projectPath?: string): Promise<string | null> {
  if (text === null || text === undefined || text === '') return Promise.resolve(null);
  let byKey = rendered.get(context);
  if (!byKey) rendered.set(context, (byKey = new Map<string, Promise<string>>()));
  const key = JSON.stringify([projectPath ?? null, text]);
  let html = byKey.get(key);
  if (!html) byKey.set(key, (html = context.api.markdown.render(text, projectPath)));
  return html;
}

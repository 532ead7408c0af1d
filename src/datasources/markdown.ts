import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** REST "Markdown": `POST /markdown` renders one text per call. */
export class MarkdownApi {
  constructor(private readonly rest: RestSession) {}

  /** GitLab Flavored Markdown, in a project's context when one is given (references link into it). */
  async render(text: string, project: string | undefined): Promise<string> {
    return (await this.rest.post<{ html: string }>(restPath`/markdown`, { text, gfm: true, ...(project ? { project } : {}) })).body.html;
  }
}

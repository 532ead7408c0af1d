import type { FileUpload } from './file-upload.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** The markup a wiki page is written in (rest-v4-api.md "Wiki page"). */
export type WikiFormat = 'markdown' | 'rdoc' | 'asciidoc' | 'org';

/** A wiki page; list records carry `content` only when asked `with_content`. */
export interface WikiPageSchema {
  slug: string;
  title: string;
  format?: WikiFormat;
  content?: string;
  encoding?: string;
}

/** The answer to an attachment upload (fixtures/wikis/upload-wiki-attachment.json). */
export interface WikiAttachmentSchema {
  file_name: string;
  file_path: string;
  branch: string;
  link: { url: string; markdown: string };
}

export interface WikiPageCreate {
  title: string;
  content: string;
  format?: WikiFormat;
}

/** `PUT /projects/:id/wikis/:slug` takes at least one of these. */
export interface WikiPageChanges {
  title?: string;
  content?: string;
  format?: WikiFormat;
}

/**
 * REST `/projects/:id/wikis` (rest-v4-api.md "Wikis (project)"). A slug is one path segment,
 * `/` and `.` included (`docs%2Fpage%2Emd`), so no slug can reach another REST route.
 */
export class WikisApi {
  constructor(private readonly rest: RestSession) {}

  /** Every page of the wiki; REST does not paginate this list. */
  all(project: number | string, withContent: boolean): Promise<WikiPageSchema[]> {
    return this.rest.getList<WikiPageSchema>(restPath`/projects/${project}/wikis`, {
      with_content: withContent ? true : undefined,
    });
  }

  show(project: number | string, slug: string): Promise<WikiPageSchema> {
    return this.rest.get<WikiPageSchema>(restPath`/projects/${project}/wikis/${slug}`);
  }

  async create(project: number | string, page: WikiPageCreate): Promise<WikiPageSchema> {
    return (await this.rest.post<WikiPageSchema>(restPath`/projects/${project}/wikis`, page)).body;
  }

  edit(project: number | string, slug: string, changes: WikiPageChanges): Promise<WikiPageSchema> {
    return this.rest.put<WikiPageSchema>(restPath`/projects/${project}/wikis/${slug}`, changes);
  }

  remove(project: number | string, slug: string): Promise<void> {
    return this.rest.delete(restPath`/projects/${project}/wikis/${slug}`);
  }

  /** `POST /projects/:id/wikis/attachments` (multipart); `branch` defaults to the wiki's default branch. */
  async uploadAttachment(project: number | string, file: FileUpload, branch?: string): Promise<WikiAttachmentSchema> {
    return (await this.rest.postMultipart<WikiAttachmentSchema>(restPath`/projects/${project}/wikis/attachments`, { file, branch })).body;
  }
}

import type { FileUpload } from './file-upload.js';
import type { IssueKey } from './issues.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** rest-v4-api.md "Metric image". */
export interface MetricImageSchema {
  id: number;
  created_at?: string;
  filename?: string;
  file_path?: string;
  url?: string | null;
  url_text?: string | null;
}

export interface MetricImageUpload {
  file: FileUpload;
  url?: string | undefined;
  urlText?: string | undefined;
}

/** REST metric images of incident issues (`/projects/:id/issues/:issue_iid/metric_images`). */
export class MetricImagesApi {
  constructor(private readonly rest: RestSession) {}

  /** Not paginated: REST returns every image of the incident, oldest first. */
  all(key: IssueKey): Promise<MetricImageSchema[]> {
    return this.rest.getList<MetricImageSchema>(restPath`/projects/${key.project}/issues/${key.iid}/metric_images`);
  }

  /** A multipart/form-data POST, the only way REST takes the file. */
  async upload(key: IssueKey, upload: MetricImageUpload): Promise<MetricImageSchema> {
    const path = restPath`/projects/${key.project}/issues/${key.iid}/metric_images`;
    return (await this.rest.postMultipart<MetricImageSchema>(path, { file: upload.file, url: upload.url, url_text: upload.urlText })).body;
  }

  remove(key: IssueKey, imageId: number): Promise<void> {
    return this.rest.delete(restPath`/projects/${key.project}/issues/${key.iid}/metric_images/${imageId}`);
  }
}

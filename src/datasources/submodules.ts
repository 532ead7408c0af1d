import type { CommitSchema, ProjectKey } from './commits.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** The body of a submodule update, in REST's names. */
export interface SubmoduleUpdateBody {
  branch: string;
  commit_sha: string;
  commit_message?: string;
}

/** REST `/projects/:id/repository/submodules`. */
export class SubmodulesApi {
  constructor(private readonly rest: RestSession) {}

  /**
   * Points the submodule at `commit_sha` in a new commit on `branch`. The submodule's path is one
   * URL-encoded segment, dots included (`lib%2Fmodules%2Fexample`), as the REST documentation shows.
   */
  update(project: ProjectKey, submodule: string, body: SubmoduleUpdateBody): Promise<CommitSchema> {
    return this.rest.put<CommitSchema>(restPath`/projects/${project}/repository/submodules/${submodule}`, body);
  }
}

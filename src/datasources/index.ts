import { GroupsApi } from './groups.js';
import { InvitationsApi } from './invitations.js';
import { ProjectsApi } from './projects.js';
import type { RestSession } from './rest-client.js';
import { RunnersApi } from './runners.js';
import { UsersApi } from './users.js';

/** Every REST resource module, bound to one caller's session. */
export interface DataSources {
  runners: RunnersApi;
  projects: ProjectsApi;
  groups: GroupsApi;
  invitations: InvitationsApi;
  users: UsersApi;
}

export function createDataSources(rest: RestSession): DataSources {
  return {
    runners: new RunnersApi(rest),
    projects: new ProjectsApi(rest),
    groups: new GroupsApi(rest),
    invitations: new InvitationsApi(rest),
    users: new UsersApi(rest),
  };
}

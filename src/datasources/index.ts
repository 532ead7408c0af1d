import { BoardsApi, type BoardPlaces } from './boards.js';
import { CommitStatusesApi } from './commit-statuses.js';
import { CommitsApi } from './commits.js';
import { SubmodulesApi } from './submodules.js';
import { GroupsApi } from './groups.js';
import { InvitationsApi } from './invitations.js';
import { IssuesApi } from './issues.js';
import { MergeRequestsApi } from './merge-requests.js';
import { ProjectJobsApi } from './project-jobs.js';
import { LabelsApi } from './labels.js';
import { MarkdownApi } from './markdown.js';
import { MembersApi } from './members.js';
import { MetricImagesApi } from './metric-images.js';
import { NotesApi } from './notes.js';
import { AwardEmojiApi } from './award-emoji.js';
import { ProjectsApi } from './projects.js';
import type { RestSession } from './rest-client.js';
import { RunnersApi } from './runners.js';
import { TodosApi } from './todos.js';
import { UsersApi } from './users.js';
import { NamespacesApi } from './namespaces.js';
import { ArtifactsApi } from './artifacts.js';
import { PipelinesApi } from './pipelines.js';
import { KeysApi } from './keys.js';
import { SnippetsApi } from './snippets.js';
import { WikisApi } from './wikis.js';
import { CredentialsInventoryApi } from './credentials-inventory.js';
import { RoutesApi } from './routes.js';

/** Every REST resource module, bound to one caller's session. */
export interface DataSources {
  runners: RunnersApi;
  projects: ProjectsApi;
  groups: GroupsApi;
  invitations: InvitationsApi;
  users: UsersApi;
  namespaces: NamespacesApi;
  issues: IssuesApi;
  mergeRequests: MergeRequestsApi;
  projectJobs: ProjectJobsApi;
  labels: LabelsApi;
  members: MembersApi;
  markdown: MarkdownApi;
  todos: TodosApi;
  notes: NotesApi;
  awardEmoji: AwardEmojiApi;
  metricImages: MetricImagesApi;
  boards: BoardsApi;
  wikis: WikisApi;
  snippets: SnippetsApi;
  keys: KeysApi;
  artifacts: ArtifactsApi;
  pipelines: PipelinesApi;
  commits: CommitsApi;
  commitStatuses: CommitStatusesApi;
  submodules: SubmodulesApi;
  credentialsInventory: CredentialsInventoryApi;
  /** Reads that fields declare by their REST route alone (src/fields/). */
  routes: RoutesApi;
}

/** One request's data sources; `boardPlaces` outlive requests (board-locator.ts). */
export function createDataSources(rest: RestSession, boardPlaces: BoardPlaces): DataSources {
  return {
    runners: new RunnersApi(rest),
    projects: new ProjectsApi(rest),
    groups: new GroupsApi(rest),
    invitations: new InvitationsApi(rest),
    users: new UsersApi(rest),
    namespaces: new NamespacesApi(rest),
    issues: new IssuesApi(rest),
    mergeRequests: new MergeRequestsApi(rest),
    projectJobs: new ProjectJobsApi(rest),
    labels: new LabelsApi(rest),
    members: new MembersApi(rest),
    markdown: new MarkdownApi(rest),
    todos: new TodosApi(rest),
    notes: new NotesApi(rest),
    awardEmoji: new AwardEmojiApi(rest),
    metricImages: new MetricImagesApi(rest),
    boards: new BoardsApi(rest, boardPlaces),
    wikis: new WikisApi(rest),
    snippets: new SnippetsApi(rest),
    keys: new KeysApi(rest),
    artifacts: new ArtifactsApi(rest),
    pipelines: new PipelinesApi(rest),
    commits: new CommitsApi(rest),
    commitStatuses: new CommitStatusesApi(rest),
    submodules: new SubmodulesApi(rest),
    credentialsInventory: new CredentialsInventoryApi(rest),
    routes: new RoutesApi(rest),
  };
}

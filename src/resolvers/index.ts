import type { Resolvers } from '../__generated__/resolvers-types.js';
import { Group, SharedWithGroup } from './groups/Group.js';
import { groupMutations } from './groups/Mutation.js';
import { groupQueries } from './groups/Query.js';
import { Node, nodeQueries } from './node.js';
import { Namespace, Project, ProjectStatistics } from './projects/Project.js';
import { ProjectFeatureAccess } from './projects/feature-access.js';
import { projectMutations } from './projects/Mutation.js';
import { projectQueries } from './projects/Query.js';
import { Invitation } from './invitations/Invitation.js';
import { invitationMutations } from './invitations/Mutation.js';
import { CiJob, CiRunnerManager } from './runners/CiJob.js';
import { Pipeline } from './runners/Pipeline.js';
import { CiRunner } from './runners/CiRunner.js';
import { runnerMutations } from './runners/Mutation.js';
import { runnerManagementMutations } from './runners/management.js';
import { commitPipelineFields, projectPipelineFields } from './runners/pipelines.js';
import { Duration } from './runners/duration.js';
import { runnerQueries } from './runners/Query.js';
import { runnerSubscriptions } from './runners/Subscription.js';
import { Issuable, issuableSubscriptions } from './subscriptions/issuable.js';
import { DateScalar, ISO8601Date, Time, Upload } from './scalars.js';
import { globalIdScalars } from './global-id-scalars.js';
import { ciJobCommitFields, Commit } from './commits/Commit.js';
import { commitMutations } from './commits/Mutation.js';
import { projectRepositoryFields, Repository } from './commits/Repository.js';
import { CommitReferences, Tree } from './commits/references.js';
import { Blob, Entry, Submodule, TreeEntry } from './commits/entry-types.js';
import { RepositoryBlob } from './commits/repository-blobs.js';
import { treeEntryFields } from './commits/tree-entries.js';
import { AccessLevel, GroupMember, MemberInterface, ProjectMember } from './groups/members.js';
import { GroupPermissions } from './groups/permissions.js';
import { ProjectPermissions } from './projects/permissions.js';
import { CommitSignature, CommitStatus, X509Certificate } from './commits/types.js';
import { Discussion } from './discussions/Discussion.js';
import { noteDiscussionFields } from './discussions/note-discussion.js';
import { discussionMutations, mergeRequestDiscussionFields } from './discussions/merge-request-discussions.js';
import { awardEmojiMutations } from './award-emoji/Mutation.js';
import { noteAwardEmojiFields } from './award-emoji/Note.js';
import { User, UserCore } from './users/User.js';
import { userStarredProjectFields } from './users/starred-projects.js';
import { userQueries } from './users/Query.js';
import { ciJobArtifactFields } from './artifacts/CiJob.js';
import { CiJobArtifactsDownload } from './artifacts/CiJobArtifactsDownload.js';
import { artifactMutations } from './artifacts/Mutation.js';
import { artifactDestroyMutations } from './artifacts/destroy.js';
import { CiJobArtifact } from './artifacts/CiJobArtifact.js';
import { BigIntScalar } from './artifacts/big-int.js';
import { projectArtifactFields } from './artifacts/Project.js';
import { keyQueries } from './keys/Query.js';
import { DeployKeysProject, SshKey } from './keys/SshKey.js';
import { snippetMutations } from './snippets/Mutation.js';
import { snippetQueries } from './snippets/Query.js';
import { Snippet, SnippetRepositoryStorageMove } from './snippets/SnippetRepositoryStorageMove.js';
import { wikiMutations } from './wikis/Mutation.js';
import { projectWikiFields } from './wikis/Project.js';
import { WikiAttachment, WikiPage } from './wikis/WikiPage.js';
import { Board, BoardList } from './boards/Board.js';
import { boardListQuery, groupBoardFields, projectBoardFields } from './boards/fields.js';
import { issueMoveListMutation } from './boards/move.js';
import { boardMutations } from './boards/Mutation.js';
import { groupIssueFields, projectIssueFields } from './issues/fields.js';
import { Issue } from './issues/Issue.js';
import { noteAuthorAccessFields } from './issues/note-author-access.js';
import { MergeRequest, MergeRequestAssignee, MergeRequestParticipant, MergeRequestReviewer } from './issues/MergeRequest.js';
import { projectMergeRequestFields } from './issues/project-merge-requests.js';
import { mergeRequestMutations } from './issues/merge-request-mutations.js';
import { todoMutations } from './issues/todo-mutations.js';
import { projectJobFields, projectPipelineBySha } from './runners/project-jobs.js';
import { issueMutations } from './issues/Mutation.js';
import { issueQueries } from './issues/Query.js';
import { Epic, Iteration, MetricImage, Note, Todo, Todoable, UserAgentDetail } from './issues/types.js';
import { Label, Milestone } from './issues/labels.js';
import { groupLabelFields, projectLabelFields } from './issues/label-lists.js';
import { EnterpriseUserSshKey } from './credentials-inventory/EnterpriseUserSshKey.js';
import { groupCredentialsInventoryFields } from './credentials-inventory/Group.js';
import { credentialsInventoryMutations } from './credentials-inventory/Mutation.js';
import { PersonalAccessToken } from './credentials-inventory/PersonalAccessToken.js';
import { ResourceAccessToken } from './credentials-inventory/ResourceAccessToken.js';

/**
 * The resolver map, assembled explicitly so that a type without resolvers is a decision, not an
 * accident. Fields not listed read their REST field (see record-fields.ts); enums get their REST
 * values from the schema (see schema/enum-values.ts).
 */
export const resolvers: Resolvers = {
  Time,
  Date: DateScalar,
  Upload,
  ...globalIdScalars,
  Duration,
  BigInt: BigIntScalar,
  ISO8601Date,
  Query: {
    ...nodeQueries,
    ...userQueries,
    ...runnerQueries,
    ...projectQueries,
    ...groupQueries,
    ...snippetQueries,
    ...keyQueries,
    ...issueQueries,
    ...boardListQuery,
  },
  Mutation: {
    ...runnerMutations,
    ...runnerManagementMutations,
    ...groupMutations,
    ...projectMutations,
    ...invitationMutations,
    ...wikiMutations,
    ...snippetMutations,
    ...artifactMutations,
    ...artifactDestroyMutations,
    ...issueMutations,
    ...mergeRequestMutations,
    ...todoMutations,
    ...boardMutations,
    ...issueMoveListMutation,
    ...commitMutations,
    ...credentialsInventoryMutations,
    ...awardEmojiMutations,
    ...discussionMutations,
  },
  Subscription: {
    ...runnerSubscriptions,
    ...issuableSubscriptions,
  },
  Issuable,
  Node,
  User,
  UserCore: { ...UserCore, ...userStarredProjectFields },
  CiRunner,
  CiJob: { ...CiJob, ...ciJobArtifactFields, ...ciJobCommitFields },
  CiRunnerManager,
  Pipeline,
  Commit: { ...Commit, ...commitPipelineFields },
  Project: { ...Project, ...projectWikiFields, ...projectArtifactFields, ...projectPipelineFields, ...projectIssueFields, ...projectMergeRequestFields, ...projectJobFields, ...projectPipelineBySha, ...projectLabelFields, ...projectBoardFields, ...projectRepositoryFields },
  Namespace,
  Group: { ...Group, ...groupIssueFields, ...groupLabelFields, ...groupCredentialsInventoryFields, ...groupBoardFields },
  SharedWithGroup,
  Invitation,
  WikiPage,
  WikiAttachment,
  Snippet,
  SnippetRepositoryStorageMove,
  SshKey,
  DeployKeysProject,
  CiJobArtifactsDownload,
  CiJobArtifact,
  Issue,
  Label,
  Milestone,
  Epic,
  Iteration,
  UserAgentDetail,
  MetricImage,
  MergeRequest: { ...MergeRequest, ...mergeRequestDiscussionFields },
  MergeRequestAssignee,
  MergeRequestReviewer,
  MergeRequestParticipant,
  Note: { ...Note, ...noteAwardEmojiFields, ...noteDiscussionFields, ...noteAuthorAccessFields },
  Todo,
  Todoable,
  Board,
  BoardList,
  Repository,
  CommitReferences,
  Tree: { ...Tree, ...treeEntryFields },
  Entry,
  TreeEntry,
  Blob,
  Submodule,
  RepositoryBlob,
  ProjectPermissions,
  ProjectStatistics,
  ProjectFeatureAccess,
  GroupPermissions,
  MemberInterface,
  GroupMember,
  ProjectMember,
  AccessLevel,
  CommitStatus,
  Discussion,
  CommitSignature,
  X509Certificate,
  PersonalAccessToken,
  ResourceAccessToken,
  EnterpriseUserSshKey,
};

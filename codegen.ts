import type { CodegenConfig } from '@graphql-codegen/cli';
import { restEnumValues } from './src/schema/enum-values.js';
import { connectionTypesOf } from './src/schema/connections.js';
import { buildSchemaFromFiles, readTypeDefs } from './src/schema/sdl.js';
import { GLOBAL_ID_SCALAR_CLASSES } from './src/resolvers/global-id-scalars.js';

/** GitLab's per-class global ID scalars reach resolvers as the `gid://` string. */
const GLOBAL_ID_SCALARS = Object.fromEntries(Object.keys(GLOBAL_ID_SCALAR_CLASSES).map((name) => [name, 'string']));

/** The schema as the loader expands it (Connection and Edge types included), read once for codegen. */
const schema = buildSchemaFromFiles();

/**
 * Resolvers receive REST bodies; each GraphQL object type maps to its REST schema, or to a record of
 * src/records/ where the gateway adds to what REST says.
 */
const nodeMappers: Record<string, string> = {
  CiRunner: '../datasources/runners.js#RunnerSchema',
  CiJob: '../datasources/runners.js#RunnerJobSchema',
  CiRunnerManager: '../datasources/runners.js#RunnerManagerSchema',
  Pipeline: '../records/runners.js#PipelineRecord',
  DetailedStatus: '../records/runners.js#DetailedStatusRecord',
  Commit: '../records/commits.js#CommitRecord',
  CommitStats: '../datasources/commits.js#CommitStatsSchema',
  Repository: '../records/commits.js#RepositoryRecord',
  CommitRef: '../datasources/commits.js#CommitRefSchema',
  Diff: '../datasources/commits.js#DiffSchema',
  CommitComment: '../datasources/commits.js#CommitCommentSchema',
  Discussion: '../datasources/commits.js#DiscussionSchema',
  CommitStatus: '../datasources/commit-statuses.js#CommitStatusSchema',
  CommitSignature: '../datasources/commits.js#CommitSignatureSchema',
  GpgSignature: '../datasources/commits.js#GpgSignatureSchema',
  X509Signature: '../datasources/commits.js#X509SignatureSchema',
  X509Certificate: '../datasources/commits.js#X509CertificateSchema',
  X509Issuer: '../datasources/commits.js#X509IssuerSchema',
  SshSignature: '../datasources/commits.js#SshSignatureSchema',
  Project: '../datasources/projects.js#ProjectSchema',
  Namespace: '../datasources/projects.js#NamespaceSchema',
  Group: '../datasources/groups.js#GroupSchema',
  GroupStatistics: '../datasources/groups.js#GroupStatisticsSchema',
  SharedWithGroup: '../datasources/namespace-schemas.js#GroupShareSchema',
  CustomAttribute: '../datasources/namespace-schemas.js#CustomAttributeSchema',
  ProjectLinks: '../datasources/projects.js#ProjectLinksSchema',
  ContainerExpirationPolicy: '../datasources/projects.js#ContainerExpirationPolicySchema',
  ProjectStatistics: '../datasources/projects.js#ProjectStatisticsSchema',
  ProjectFeatureAccess: '../datasources/projects.js#ProjectFeatureAccessLevel as ProjectFeatureAccessRecord',
  ProjectPermissions: '../records/projects.js#ProjectAbilities',
  GroupPermissions: '../records/groups.js#GroupAbilities',
  MemberInterface: '../datasources/members.js#MemberRecord',
  GroupMember: '../datasources/members.js#MemberRecord',
  ProjectMember: '../datasources/members.js#MemberRecord',
  AccessLevel: '../datasources/members.js#AccessLevelValue',
  CommitReferences: '../records/commits.js#CommitReferencesRecord',
  Tree: '../records/commits.js#TreeRecord',
  Entry: '../records/commits.js#TreeEntryRecord',
  TreeEntry: '../records/commits.js#TreeEntryRecord',
  Blob: '../records/commits.js#TreeEntryRecord',
  Submodule: '../records/commits.js#TreeEntryRecord',
  RepositoryBlob: '../records/commits.js#RepositoryBlobRecord',
  Invitation: '../records/invitations.js#InvitationRecord',
  User: '../datasources/users.js#UserSchema',
  UserCore: '../datasources/users.js#UserSchema',
  MergeRequestAssignee: '../datasources/users.js#UserSchema',
  MergeRequestReviewer: '../datasources/users.js#UserSchema',
  MergeRequestParticipant: '../datasources/users.js#UserSchema',
  Issue: '../datasources/issues.js#IssueSchema',
  Label: '../datasources/issues.js#LabelSchema',
  Milestone: '../datasources/issuable-schemas.js#MilestoneSchema',
  TimeStats: '../datasources/issuable-schemas.js#TimeStatsSchema',
  IssuableReferences: '../datasources/issuable-schemas.js#ReferencesSchema',
  TaskCompletionStatus: '../datasources/issuable-schemas.js#TaskCompletionStatusSchema',
  IssueLinks: '../datasources/issues.js#IssueLinksSchema',
  Epic: '../datasources/issues.js#EpicSummarySchema',
  Iteration: '../datasources/issues.js#IterationSchema',
  UserAgentDetail: '../datasources/issues.js#UserAgentDetailSchema',
  MergeRequest: '../datasources/merge-requests.js#MergeRequestSchema',
  UserStatus: '../datasources/users.js#UserStatusSchema',
  DiffRefs: '../datasources/merge-requests.js#DiffRefsSchema',
  MergeRequestPermissions: '../datasources/merge-requests.js#MergeRequestPermissionsSchema',
  MetricImage: '../datasources/metric-images.js#MetricImageSchema',
  Note: '../datasources/notes.js#NoteSchema',
  AwardEmoji: '../datasources/award-emoji.js#AwardEmojiSchema',
  Todo: '../datasources/todos.js#TodoSchema',
  Board: '../datasources/boards.js#BoardSchema',
  BoardList: '../records/boards.js#BoardListRecord',
  WikiPage: '../records/wikis.js#WikiPageRecord',
  WikiAttachment: '../datasources/wikis.js#WikiAttachmentSchema',
  Snippet: '../datasources/snippets.js#SnippetSchema',
  SnippetRepositoryStorageMove: '../datasources/snippets.js#SnippetRepositoryStorageMoveSchema',
  SshKey: '../datasources/keys.js#SshKeySchema',
  DeployKeysProject: '../datasources/keys.js#DeployKeysProjectSchema',
  DeployKey: '../datasources/keys.js#DeployKeySchema',
  CiJobArtifact: '../records/artifacts.js#ArtifactRecord',
  CiJobArtifactsDownload: '../datasources/artifacts.js#ArtifactsLocation',
  PersonalAccessToken: '../datasources/credentials-inventory.js#PersonalAccessTokenSchema',
  ResourceAccessToken: '../datasources/credentials-inventory.js#ResourceAccessTokenSchema',
  EnterpriseUserSshKey: '../datasources/credentials-inventory.js#EnterpriseUserSshKeySchema',
};

/**
 * Every `XConnection` maps to the one Connection record over X's mapper type, and `XEdge` to its
 * edge: derived from the schema's pairs (declared with @connection or written by hand), so that a new
 * connection needs only its node type's mapper, which codegen refuses to go without.
 */
function connectionMappers(mappers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    connectionTypesOf(schema).flatMap(({ connection, edge, node }) => {
      const mapper = mappers[node];
      if (!mapper) throw new Error(`codegen.ts: ${connection} lists ${node}, which has no entry in the mappers`);
      // '../path.js#Type' or '../path.js#Type as Alias': the generated file knows the type by the last name.
      const recordType = mapper.slice(mapper.indexOf('#') + 1).split(' as ').pop()!;
      return [
        [connection, `../connections/connection.js#Connection<${recordType}>`],
        [edge, `../connections/connection.js#Edge<${recordType}>`],
      ];
    }),
  );
}

const config: CodegenConfig = {
  // The expanded SDL, not the files: their @connection declarations are no types codegen could read.
  schema: readTypeDefs(),
  generates: {
    'src/__generated__/resolvers-types.ts': {
      plugins: [
        { add: { content: '/* Generated by graphql-codegen from schema/*.graphql: run `npm run codegen`, never edit. */' } },
        'typescript',
        'typescript-resolvers',
      ],
      config: {
        contextType: '../server/context.js#GatewayContext',
        useTypeImports: true,
        useIndexSignature: false,
        enumsAsTypes: true,
        enumValues: restEnumValues(schema),
        scalars: { Time: 'string', Date: 'string', ISO8601Date: 'string', ID: 'string', Upload: '../datasources/file-upload.js#FileUpload', Duration: 'number', BigInt: 'number', ...GLOBAL_ID_SCALARS },
        mappers: { ...nodeMappers, ...connectionMappers(nodeMappers) },
      },
    },
  },
};

export default config;

// The naive BFF's schema: hand-written SDL covering exactly what the bench's queries select (the
// dashboard, runner fleet, wide page and hot path), as a team writes it for its own frontend.
// Field names and answers follow GitLab's GraphQL API, so the same queries run unchanged.
export const typeDefs = `#graphql
  type Query {
    group(fullPath: ID!): Group
    runners(first: Int): RunnerConnection!
    issues(scope: IssueScope, first: Int): IssueConnection!
    runner(id: CiRunnerID!): Runner
  }

  "GitLab's global ID of a runner, gid://gitlab/Ci::Runner/<id>."
  scalar CiRunnerID

  type Group {
    id: ID!
    name: String!
    fullPath: ID!
    subgroups(first: Int): GroupConnection!
    projects(first: Int): ProjectConnection!
  }

  type GroupConnection {
    nodes: [Group!]!
  }

  type Project {
    fullPath: ID!
    name: String!
    runners(first: Int): RunnerConnection!
    issues(first: Int, state: IssuableState): IssueConnection!
  }

  type ProjectConnection {
    count: Int!
    nodes: [Project!]!
  }

  enum RunnerStatus {
    ONLINE
    OFFLINE
    STALE
    NEVER_CONTACTED
    ACTIVE
    PAUSED
    NOT_CONNECTED
  }

  type Runner {
    id: ID!
    status: RunnerStatus!
    description: String
    version: String
    tagList: [String!]
    contactedAt: String
    "Null for instance and group runners, as in GitLab."
    projects: ProjectConnection
    jobs(first: Int): JobConnection!
  }

  type RunnerConnection {
    count: Int!
    nodes: [Runner!]!
  }

  enum JobStatus {
    CREATED
    WAITING_FOR_RESOURCE
    PREPARING
    WAITING_FOR_CALLBACK
    PENDING
    RUNNING
    SUCCESS
    FAILED
    CANCELING
    CANCELED
    SKIPPED
    MANUAL
    SCHEDULED
  }

  type Job {
    id: ID!
    status: JobStatus!
    commit: Commit
  }

  type JobConnection {
    nodes: [Job!]!
  }

  type Commit {
    sha: String!
    title: String
  }

  enum IssueScope {
    ALL
    CREATED_BY_ME
    ASSIGNED_TO_ME
  }

  "GitLab's filter of issue lists by state, in its lower-case values."
  enum IssuableState {
    opened
    closed
    locked
    all
  }

  "GitLab's state of an issue, in its lower-case values."
  enum IssueState {
    opened
    closed
    locked
    all
  }

  type Issue {
    id: ID!
    iid: ID!
    title: String!
    state: IssueState!
    webUrl: String!
    author: User!
    assignees: UserCoreConnection!
    milestone: Milestone
  }

  type IssueConnection {
    count: Int!
    nodes: [Issue!]!
  }

  type UserCoreConnection {
    nodes: [User!]!
  }

  type User {
    id: ID!
    username: String!
    name: String!
    avatarUrl: String
    webUrl: String!
  }

  type Milestone {
    title: String!
    dueDate: String
  }
`;

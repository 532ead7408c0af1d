import { isEnumType, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';

/**
 * GraphQL enum values are SCREAMING_SNAKE; REST uses the same words in lower case (`ONLINE` ->
 * `online`, `INSTANCE_TYPE` -> `instance_type`). Enums whose REST values are something else
 * (integers such as access levels) are listed here.
 */
export const ENUM_VALUE_OVERRIDES: Readonly<Record<string, Readonly<Record<string, string | number>>>> = {
  // rest-v4-api.md "Access levels".
  AccessLevelEnum: { NO_ACCESS: 0, MINIMAL_ACCESS: 5, GUEST: 10, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50, ADMIN: 60 },
  // rest-v4-api.md "default_branch_protection values".
  DefaultBranchProtection: { NONE: 0, PARTIAL: 1, FULL: 2 },
  // rest-v4-api.md "Issues": the issue list filters' wildcards are capitalised.
  IssueFilterWildcard: { NONE: 'None', ANY: 'Any' },
  AssigneeWildcardId: { NONE: 'None', ANY: 'Any' },
  WeightWildcardId: { NONE: 'None', ANY: 'Any' },
  IterationWildcardId: { NONE: 'None', ANY: 'Any', CURRENT: 'Current' },
  MilestoneWildcardId: { NONE: 'None', ANY: 'Any', UPCOMING: 'Upcoming', STARTED: 'Started' },
  // `due_date=0` means "no due date".
  IssueDueDateFilter: { NO_DUE_DATE: '0' },
  // REST sends incident severities in upper case (fixtures/issues/*.json `"severity": "UNKNOWN"`).
  IssuableSeverity: { UNKNOWN: 'UNKNOWN', LOW: 'LOW', MEDIUM: 'MEDIUM', HIGH: 'HIGH', CRITICAL: 'CRITICAL' },
  // An iteration's `state` is an integer (fixtures/issues/fragment-issue-premium-iteration.json).
  IterationState: { UPCOMING: 1, CURRENT: 2, CLOSED: 3 },
  // A to-do's `target_type` is the target's Ruby class name.
  TodoTargetEnum: {
    ALERT: 'AlertManagement::Alert',
    COMMIT: 'Commit',
    DESIGN: 'DesignManagement::Design',
    EPIC: 'Epic',
    ISSUE: 'Issue',
    MERGEREQUEST: 'MergeRequest',
    WORKITEM: 'WorkItem',
  },
  // rest-v4-api.md "States and transitions": the snippet storage move state has a space.
  RepositoryStorageMoveState: { CLEANUP_FAILED: 'cleanup failed' },
};

/** One enum's values mapped to REST's: its override, else the value's name in lower case. */
function restValuesOf(enumName: string, valueNames: readonly string[]): Record<string, string | number> {
  const overrides = ENUM_VALUE_OVERRIDES[enumName] ?? {};
  return Object.fromEntries(valueNames.map((name) => [name, overrides[name] ?? name.toLowerCase()]));
}

/**
 * For every enum of the schema, its values mapped to what REST sends and expects. The runtime
 * uses this as the enums' internal values, and codegen as `enumValues`, so that resolvers and
 * data sources speak REST's strings and the two can never drift apart.
 */
export function restEnumValues(schema: GraphQLSchema): Record<string, Record<string, string | number>> {
  const tables: Record<string, Record<string, string | number>> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith('__')) continue;
    tables[type.name] = restValuesOf(type.name, type.getValues().map((value) => value.name));
  }
  return tables;
}

/**
 * The same tables read from the SDL document (its enums and their `extend enum` blocks), for the
 * gateway's start: the executable schema is then built once, with them, instead of once to read
 * its enums and again with its resolvers.
 */
export function restEnumValuesOfDocument(document: DocumentNode): Record<string, Record<string, string | number>> {
  const valueNames = new Map<string, string[]>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.ENUM_TYPE_DEFINITION && definition.kind !== Kind.ENUM_TYPE_EXTENSION) continue;
    const names = valueNames.get(definition.name.value) ?? [];
    for (const value of definition.values ?? []) names.push(value.name.value);
    valueNames.set(definition.name.value, names);
  }
  return Object.fromEntries([...valueNames].map(([enumName, names]) => [enumName, restValuesOf(enumName, names)]));
}

import { isEnumType, type GraphQLSchema } from 'graphql';

/**
 * GraphQL enum values are SCREAMING_SNAKE; REST uses the same words in lower case (`ONLINE` ->
 * `online`, `INSTANCE_TYPE` -> `instance_type`). Enums whose REST values are something else
 * (integers such as access levels) are listed here.
 */
export const ENUM_VALUE_OVERRIDES: Readonly<Record<string, Readonly<Record<string, string | number>>>> = {
  // rest-v4-api.md "Access levels".
  AccessLevelEnum: { NO_ACCESS: 0, MINIMAL_ACCESS: 5, GUEST: 10, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50 },
  // rest-v4-api.md "default_branch_protection values".
  DefaultBranchProtection: { NONE: 0, PARTIAL: 1, FULL: 2 },
};

/**
 * For every enum of the schema, its values mapped to what REST sends and expects. The runtime
 * uses this as the enums' internal values, and codegen as `enumValues`, so that resolvers and
 * data sources speak REST's strings and the two can never drift apart.
 */
export function restEnumValues(schema: GraphQLSchema): Record<string, Record<string, string | number>> {
  const tables: Record<string, Record<string, string | number>> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith('__')) continue;
    const overrides = ENUM_VALUE_OVERRIDES[type.name] ?? {};
    tables[type.name] = Object.fromEntries(
      type.getValues().map((value) => [value.name, overrides[value.name] ?? value.name.toLowerCase()]),
    );
  }
  return tables;
}

import type { ProjectFeatureAccessResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { ProjectFeatureAccessLevel } from '../../datasources/projects.js';

/** GitLab's ProjectFeature levels as it stores them (ProjectFeature::DISABLED ... PUBLIC). */
export const FEATURE_ACCESS_INTEGERS: Readonly<Record<ProjectFeatureAccessLevel, number>> = {
  disabled: 0,
  private: 10,
  enabled: 20,
  public: 30,
};

/**
 * A project feature's access level, the REST `*_access_level` string a `Project` field reads, as
 * GitLab's `ProjectFeatureAccess` object: the integer GitLab stores and the level by name.
 */
export const ProjectFeatureAccess: ProjectFeatureAccessResolvers = {
  integerValue: (level) => FEATURE_ACCESS_INTEGERS[level] ?? null,
  // The enum's values are REST's strings (codegen's enumValues), which codegen types as `null`
  // under enumsAsTypes: the REST string is what the schema maps back to DISABLED ... PUBLIC.
  stringValue: (level) => (level in FEATURE_ACCESS_INTEGERS ? (level as never) : null),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { ProjectFeatureAccess };

import { printSchema } from 'graphql';
import { createExecutableSchema } from './executable.js';

/** The file the package publishes as `gitlab-graphql-gateway/schema.graphql`, at the repository root. */
export const SCHEMA_FILE_NAME = 'schema.graphql';

const HEADER = '# The GitLab GraphQL gateway\'s schema, printed from schema/*.graphql by `npm run schema`; never edit.\n\n';

/**
 * The whole schema as one SDL document, as served (printed from the executable schema), for
 * tools outside the gateway: client code generators, IDEs, schema registries.
 */
export function printGatewaySchema(): string {
  return HEADER + printSchema(createExecutableSchema()) + '\n';
}

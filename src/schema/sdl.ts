import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, type GraphQLSchema } from 'graphql';

/** The folder of SDL files, one per domain (DESIGN.md "Layout"). */
export const SCHEMA_DIR = fileURLToPath(new URL('../../schema/', import.meta.url));

/** The SDL files, `base.graphql` first so that the domain files can extend its root types. */
export function schemaFiles(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.graphql'))
    .sort((a, b) => (a === 'base.graphql' ? -1 : b === 'base.graphql' ? 1 : a.localeCompare(b)))
    .map((name) => SCHEMA_DIR + name);
}

/** The whole schema as one SDL document. */
export function readTypeDefs(): string {
  return schemaFiles()
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/** The schema without resolvers, for tools (codegen, enum tables, lint). */
export function buildSchemaFromFiles(): GraphQLSchema {
  return buildSchema(readTypeDefs());
}

import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { expandConnectionDeclarations } from './connections.js';

/** The folder of SDL files, one per domain (DESIGN.md "Layout"). */
export const SCHEMA_DIR = fileURLToPath(new URL('../../schema/', import.meta.url));

/** The SDL files, `base.graphql` first so that the domain files can extend its root types. */
export function schemaFiles(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.graphql'))
    .sort((a, b) => (a === 'base.graphql' ? -1 : b === 'base.graphql' ? 1 : a.localeCompare(b)))
    .map((name) => SCHEMA_DIR + name);
}

/**
 * The whole schema as one SDL document, each file's `@connection` declarations expanded into their
 * Connection and Edge types (connections.ts): the text every reader of the SDL gets, never the files'.
 */
export function readTypeDefs(): string {
  return schemaFiles()
    .map((file) => expandConnectionDeclarations(readFileSync(file, 'utf8'), `schema/${basename(file)}`))
    .join('\n');
}

let text: string | undefined;

/**
 * The SDL files as one text, read once per process: what `gateway.typeDefs` hands embedders and
 * what gatewayDocument() parses. Read twice, the second copy was some 0.7 MB of garbage at start.
 */
export function gatewayTypeDefs(): string {
  return (text ??= readTypeDefs());
}

let document: DocumentNode | undefined;

/**
 * The SDL files parsed once per process, for what the running gateway reads of its own SDL: the
 * executable schema (with its enum table) and the cost estimate's list of gateway fields. Each
 * parse of the ~200 KB of SDL is garbage that raises the start's peak, and RSS keeps that peak.
 * Without locations: the schema's AST nodes would otherwise keep every token of the SDL alive.
 */
export function gatewayDocument(): DocumentNode {
  return (document ??= parse(gatewayTypeDefs(), { noLocation: true }));
}

/**
 * The schema without resolvers, for tools (codegen, enum tables, lint), validated from a parse
 * with locations of its own, so that an SDL mistake is reported with its line.
 */
export function buildSchemaFromFiles(): GraphQLSchema {
  return buildSchema(readTypeDefs());
}

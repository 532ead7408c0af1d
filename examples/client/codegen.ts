/**
 * Typed client documents with GraphQL Code Generator's client preset, against the schema file the
 * package publishes (`gitlab-graphql-gateway/schema.graphql`; here, the repository's copy).
 * `npm run codegen:client` writes examples/client/gql/; a test fails when it is stale.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['examples/client/documents.ts'],
  ignoreNoDocuments: false,
  // ESM as Node runs it: relative imports with their `.js`.
  emitLegacyCommonJSImports: false,
  generates: {
    'examples/client/gql/': {
      preset: 'client',
      // persisted-documents.json: each operation's text by its id (`sha256:<hex>` of the text), the
      // manifest the gateway's TRUSTED_DOCUMENTS loads; each document carries its id (`__meta__.hash`).
      presetConfig: { persistedDocuments: true },
      config: {
        // Operations as strings with their types attached: any fetch() can send them, no GraphQL client needed.
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { Time: 'string', Date: 'string', Upload: 'unknown' },
      },
    },
  },
};

export default config;

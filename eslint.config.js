// ESLint flat config: type-checked TypeScript rules for the code, graphql-eslint schema rules for
// the SDL (DESIGN.md and STYLE.md "Tooling").
import tseslint from 'typescript-eslint';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import { tsImport } from 'tsx/esm/api';

// The SDL rules check each file against the schema as the loader expands it: the files' @connection
// declarations stand for Connection and Edge types that exist only once expanded (src/schema/connections.ts).
const { readTypeDefs } = await tsImport('./src/schema/sdl.ts', import.meta.url);

// Hidden classes (docs/development.md, docs/performance.md "Hidden classes made per object"): in
// Node 20's V8 an object literal's getters, and keys added after a leading spread, give each object
// a hidden class of its own in the old generation. Getters belong on a class; a copy of a record or
// of a call's parameters with a key added, made per call or per record, goes through withFields.
const LITERAL_ACCESSORS = {
  selector: 'ObjectExpression > Property[kind="get"], ObjectExpression > Property[kind="set"]',
  message: 'Accessors of an object literal make a hidden class per object: put them on a class.',
};
// Keys or a second spread after a leading spread: `{ ...record, key }` and `{ ...record, ...more }`
// alike (withFields' own leading spread, of its frozen empty object, is what makes its copies share).
const KEYS_AFTER_SPREAD = {
  selector: 'ObjectExpression > SpreadElement:first-child:not([argument.name="NOTHING"]) ~ :matches(Property, SpreadElement)',
  message: 'Keys or spreads after a leading spread make a hidden class per object: use withFields (src/datasources/with-fields.ts).',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'src/__generated__/', 'examples/client/gql/', 'dist/', 'coverage/', 'bench/results/'] },
  {
    // .tsx: the explorer's browser code, type-checked through explorer/tsconfig.json (DOM lib).
    files: ['**/*.ts', '**/*.tsx'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No function in the gateway's source over 80 lines (the house standard), held by lint so that
    // it cannot creep back: a composition root grows by small builders, not by one long body.
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', LITERAL_ACCESSORS] },
  },
  {
    // Code that runs per REST call or per record; elsewhere such spreads are one-off (declarations, options).
    files: ['src/datasources/**/*.ts', 'src/records/**/*.ts', 'src/connections/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', LITERAL_ACCESSORS, KEYS_AFTER_SPREAD] },
  },
  {
    files: ['schema/**/*.graphql'],
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: readTypeDefs() } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      '@graphql-eslint/require-description': [
        'error',
        { types: true, rootField: true, FieldDefinition: true, InputValueDefinition: true, EnumValueDefinition: true },
      ],
      '@graphql-eslint/require-deprecation-reason': 'error',
      '@graphql-eslint/naming-convention': [
        'error',
        {
          types: 'PascalCase',
          FieldDefinition: 'camelCase',
          InputValueDefinition: 'camelCase',
          EnumValueDefinition: 'UPPER_CASE',
          allowLeadingUnderscore: false,
        },
      ],
      '@graphql-eslint/known-type-names': 'error',
      '@graphql-eslint/strict-id-in-types': 'off',
      '@graphql-eslint/unique-field-definition-names': 'error',
    },
  },
);

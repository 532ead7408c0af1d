// ESLint flat config: type-checked TypeScript rules for the code, graphql-eslint schema rules for
// the SDL (DESIGN.md and STYLE.md "Tooling").
import tseslint from 'typescript-eslint';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import { tsImport } from 'tsx/esm/api';

// The SDL rules check each file against the schema as the loader expands it: the files' @connection
// declarations stand for Connection and Edge types that exist only once expanded (src/schema/connections.ts).
const { readTypeDefs } = await tsImport('./src/schema/sdl.ts', import.meta.url);

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

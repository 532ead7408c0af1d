// Writes docs/rest-fields.md from the field declarations (src/fields/): which REST endpoints each
// declared field calls and what it costs, and for each endpoint the fields that call it, by the
// domain (src/resolvers/ folder) of the module that resolves them. Run by `npm run codegen`; test/fields/declarations.test.ts
// fails when the written page is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolverModules } from '../src/__generated__/resolver-modules.js';
import { restFieldsPage } from '../src/fields/rest-fields-page.js';
import { resolvers } from '../src/resolvers/index.js';
import { buildSchemaFromFiles } from '../src/schema/sdl.js';

export const REST_FIELDS_PAGE = fileURLToPath(new URL('../docs/rest-fields.md', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(REST_FIELDS_PAGE, restFieldsPage(buildSchemaFromFiles(), resolvers, resolverModules));
}

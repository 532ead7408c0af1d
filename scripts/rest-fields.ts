// Writes docs/rest-fields.md from the field declarations (src/fields/): which REST endpoints each
// declared field calls and what it costs. Run by `npm run codegen`; test/fields/declarations.test.ts
// fails when the written page is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { restFieldsPage } from '../src/fields/rest-fields-page.js';
import { resolvers } from '../src/resolvers/index.js';
import { buildSchemaFromFiles } from '../src/schema/sdl.js';

export const REST_FIELDS_PAGE = fileURLToPath(new URL('../docs/rest-fields.md', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(REST_FIELDS_PAGE, restFieldsPage(buildSchemaFromFiles(), resolvers));
}

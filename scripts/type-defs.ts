// Writes src/__generated__/type-defs.graphql: the SDL files as one text with their @connection
// declarations expanded (src/schema/sdl.ts readTypeDefs), which the running gateway reads at start
// instead of expanding the files each time. Run by `npm run codegen`; test/schema/type-defs.test.ts
// fails when the written file is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readTypeDefs, TYPE_DEFS_FILE, TYPE_DEFS_HEADER } from '../src/schema/sdl.js';

/** The text of src/__generated__/type-defs.graphql. */
export function typeDefsSource(): string {
  return `${TYPE_DEFS_HEADER}\n${readTypeDefs()}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(TYPE_DEFS_FILE, typeDefsSource());

/** `npm run schema`: writes the schema as one SDL file (schema.graphql), published with the package. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printGatewaySchema, SCHEMA_FILE_NAME } from '../src/schema/print.js';

const target = fileURLToPath(new URL(`../${SCHEMA_FILE_NAME}`, import.meta.url));
writeFileSync(target, printGatewaySchema());
console.log(`Wrote ${target}`);

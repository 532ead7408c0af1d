/**
 * `npm run build`: compiles src/ and simulator/ into dist/ as JavaScript with type declarations
 * (tsconfig.build.json), and copies beside them what they read at run time: the SDL files, which
 * src/schema/sdl.ts finds at `../../schema/` from its own folder (dist/schema/ once compiled).
 * Only this build's own folders are replaced; dist/explorer/ is the explorer's (`postbuild`).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

for (const folder of ['src', 'simulator', 'schema']) rmSync(join(DIST, folder), { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

mkdirSync(join(DIST, 'schema'), { recursive: true });
for (const file of readdirSync(join(ROOT, 'schema')).filter((name) => name.endsWith('.graphql'))) {
  copyFileSync(join(ROOT, 'schema', file), join(DIST, 'schema', file));
}
console.log(`Built ${DIST}`);

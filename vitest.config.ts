import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (`main`) and ESM (`module`) builds. Node gives @apollo/server and
    // @graphql-tools the CommonJS one; Vite would give our sources the ESM one, and two copies of
    // graphql refuse each other's schema objects. Resolve as Node does.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
    // tsconfig.json `paths`: the package's own name (as examples/ import it) is src/index.ts here.
    tsconfigPaths: true,
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Every test starts real servers on loopback; a generous timeout covers a busy 2-core CI machine.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

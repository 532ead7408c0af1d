import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every test starts real servers on loopback; a generous timeout covers a busy 2-core CI machine.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

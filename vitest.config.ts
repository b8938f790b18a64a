import { defineConfig } from 'vitest/config';

// Unit (domain, web logic) and server integration tests. Integration tests get a real PostgreSQL:
// the global setup starts one (DATABASE_URL's server, or an embedded one) and migrates a template database;
// every test file then works in its own copy of that template.
export default defineConfig({
  test: {
    include: ['domain/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    globalSetup: ['server/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

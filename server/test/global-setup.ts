import type { TestProject } from 'vitest/node';
import { startTestPostgres } from './test-postgres.ts';

// Module augmentation needs interfaces (declaration merging).
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDatabase: string;
  }
}

/** One real PostgreSQL for the whole run, and a migrated template every test file copies (test-database.ts). */
export default async function setup(project: TestProject) {
  const postgres = await startTestPostgres(`callcrm_template_${process.pid}`);
  project.provide('pgAdminUrl', postgres.adminUrl);
  project.provide('templateDatabase', postgres.template);
  return () => postgres.stop();
}

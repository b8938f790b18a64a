import { startTestPostgres } from '../server/test/test-postgres.ts';

/** One PostgreSQL for the run; each test copies the migrated template (fixtures.ts). */
export default async function globalSetup() {
  const postgres = await startTestPostgres(`callcrm_e2e_template_${process.pid}`);
  process.env.E2E_PG_ADMIN_URL = postgres.adminUrl;
  process.env.E2E_PG_TEMPLATE = postgres.template;
  return () => postgres.stop();
}

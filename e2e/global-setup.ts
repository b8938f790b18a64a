import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestPostgres } from '../server/test/test-postgres.ts';
import { createTestCertificate } from '../server/test/test-smtp-server.ts';

/**
 * One PostgreSQL for the run; each test copies the migrated template (fixtures.ts). One TLS certificate for the
 * journeys' mail servers, which every product server under test trusts (SMTP_CA_FILE).
 */
export default async function globalSetup() {
  const postgres = await startTestPostgres(`callcrm_e2e_template_${process.pid}`);
  process.env.E2E_PG_ADMIN_URL = postgres.adminUrl;
  process.env.E2E_PG_TEMPLATE = postgres.template;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-e2e-tls-'));
  const certificate = await createTestCertificate();
  process.env.E2E_SMTP_CERT_FILE = path.join(dir, 'cert.pem');
  process.env.E2E_SMTP_KEY_FILE = path.join(dir, 'key.pem');
  writeFileSync(process.env.E2E_SMTP_CERT_FILE, certificate.cert);
  writeFileSync(process.env.E2E_SMTP_KEY_FILE, certificate.key, { mode: 0o600 });
  return async () => {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

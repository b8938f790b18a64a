import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Secrets needed with zero configuration (decision 000): generated on first start and kept beside the embedded
 * database's data, readable only by the server's user. Several instances must share them through configuration.
 */
export type Secrets = {
  sessionSecret: string;
  encryptionKey: string;
  postgresPassword: string;
  appDbPassword: string;
};

const FILE = 'secrets.json';

export function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, FILE);
  const existing: Partial<Secrets> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>)
    : {};
  const secrets: Secrets = {
    sessionSecret: existing.sessionSecret ?? randomBytes(32).toString('base64url'),
    encryptionKey: existing.encryptionKey ?? randomBytes(32).toString('base64'),
    postgresPassword: existing.postgresPassword ?? randomBytes(24).toString('base64url'),
    appDbPassword: existing.appDbPassword ?? randomBytes(24).toString('base64url'),
  };
  if (JSON.stringify(existing) !== JSON.stringify(secrets)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}

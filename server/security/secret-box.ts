import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets we must be able to use again (a user's SMTP password) with AES-256-GCM under the instance's
 * encryption key (decision 000: generated on first start, or ENCRYPTION_KEY). The stored form is
 * `v1:<iv>:<tag>:<ciphertext>` in base64; tampering or a wrong key fails to open rather than yielding garbage.
 */
export type SecretBox = { seal: (plain: string) => string; open: (sealed: string) => string };

export function createSecretBox(keyBase64: string): SecretBox {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('the encryption key must be 32 bytes, base64-encoded');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
        .join(':');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

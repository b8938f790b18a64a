import { randomBytes } from 'node:crypto';
import type { CreateContactInput } from '#domain/contacts/contact.schema.ts';
import type { App } from '../app.ts';
import { asCookie, type Session } from './test-app.ts';

/** A valid contact with unique data; override what the test is about. */
export function buildContact(overrides: Partial<CreateContactInput> = {}): CreateContactInput {
  const tag = randomBytes(3).toString('hex');
  return {
    firstName: `Ada${tag}`,
    lastName: 'Lovelace',
    email: `ada-${tag}@example.com`,
    phone: '(555) 010-0000',
    company: 'Analytical Engines',
    ...overrides,
  };
}

export async function insertContact(app: App, owner: Session, overrides: Partial<CreateContactInput> = {}) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/contacts',
    headers: asCookie(owner),
    payload: buildContact(overrides),
  });
  if (response.statusCode !== 201)
    throw new Error(`contact create failed: ${response.statusCode} ${response.body}`);
  return response.json<{ contact: { id: string; firstName: string; lastName: string; email: string } }>()
    .contact;
}

// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Contact } from '#domain/contacts/contact.schema.ts';
import { answerApi, renderWithApp } from '../../../test/render.tsx';
import { ContactDetailPage } from './contact-detail-page.tsx';

const ID = '7b0a1c7e-0000-4000-8000-0000000000e1';
const contact: Contact = {
  id: ID,
  firstName: 'Ann',
  lastName: 'Able',
  email: 'ann@example.com',
  phone: '5550100017',
  phoneE164: '+15550100017',
  company: 'Acme',
  website: null,
  title: 'Buyer',
  notes: 'Prefers mornings',
  status: 'contacted',
  tags: ['vip'],
  isColdLead: false,
  synced: true,
  lastSyncedAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  lastCallDate: null,
  needsAttention: true,
  isQualified: false,
};
const answers = {
  [`GET /api/contacts/${ID}`]: {
    body: {
      contact,
      history: [
        {
          id: 'h1',
          changedFields: ['company'],
          previousValues: { company: 'Old Co' },
          newValues: { company: 'Acme' },
          changedAt: '2026-11-20T10:00:00.000Z',
        },
      ],
    },
  },
  [`GET /api/contacts/${ID}/calling`]: {
    body: { calls: [], dispositions: [], doNotCall: true, smsOptedOut: true, recordings: [] },
  },
  [`GET /api/contacts/${ID}/emails`]: { body: { emails: [], unsubscribedAt: null } },
  'GET /api/calls/setup': {
    body: { provider: 'simulator', callerIds: [], defaultFrom: '+15550100000', localPresence: true },
  },
};
const open = () => renderWithApp(<ContactDetailPage />, { at: `/contacts/${ID}`, route: '/contacts/:id' });

describe('the contact page', () => {
  it('shows the contact, its flags, its do-not-call and SMS opt-out, and what changed', async () => {
    answerApi(answers);
    open();
    expect((await screen.findByRole('heading', { name: 'Ann Able' })).textContent).toBe('Ann Able');
    expect(screen.getByText('Buyer at Acme')).toBeTruthy();
    expect(screen.getByText('Needs attention')).toBeTruthy();
    expect(await screen.findByText('Do not call')).toBeTruthy();
    expect(screen.getByText('Opted out of SMS')).toBeTruthy();
    const history = screen.getByRole('list', { name: 'Contact history' });
    expect(history.textContent).toContain('Company');
    expect(within(history).getByText('Old Co').tagName).toBe('S');
  });

  it('deletes the contact after a confirmation and goes back to the list', async () => {
    const sent = answerApi({ ...answers, [`DELETE /api/contacts/${ID}`]: { status: 204, body: null } });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(sent.some((r) => r.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(sent.some((r) => r.method === 'DELETE' && r.path === `/api/contacts/${ID}`)).toBe(true),
    );
    expect(await screen.findByText('Left the screen')).toBeTruthy();
    expect(screen.getByText('Contact deleted')).toBeTruthy();
  });

  it("says a missing contact cannot be loaded, in the spec's words, and leaves for the list", async () => {
    answerApi({
      [`GET /api/contacts/${ID}`]: { status: 404, body: { code: 'NOT_FOUND', message: 'Contact not found' } },
    });
    open();
    expect(await screen.findByText('Left the screen')).toBeTruthy();
    expect(
      screen.getByText('Could not load contact details. The contact may have been deleted.'),
    ).toBeTruthy();
    expect(screen.getByText('Error loading contact')).toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EmailCampaign, Recipient } from '#domain/campaigns/email-campaign.schema.ts';
import type { SmsCampaign, SmsRecipient } from '#domain/campaigns/sms-campaign.schema.ts';
import { answerApi, renderWithApp } from '../../../test/render.tsx';
import { EmailCampaignPage, SmsCampaignPage } from './channel-pages.tsx';

const ID = '7b0a1c7e-0000-4000-8000-0000000000a1';
const counts = (over: object = {}) => ({
  total: 2,
  queued: 2,
  sent: 0,
  failed: 0,
  skipped: 0,
  unconfirmed: 0,
  ...over,
});
const core = {
  id: ID,
  name: 'November push',
  perMinute: 60,
  projectId: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  pauseReason: null,
};
const email = (over: Partial<EmailCampaign> = {}): EmailCampaign => ({
  ...core,
  status: 'draft',
  counts: counts(),
  type: 'campaign',
  subject: 'Hello {{firstName}}',
  body: 'We have news.',
  description: null,
  stepCount: 1,
  ...over,
});
const sms = (over: Partial<SmsCampaign> = {}): SmsCampaign => ({
  ...core,
  status: 'sent',
  counts: counts({ queued: 0, sent: 1, skipped: 1 }),
  message: 'Hi {{firstName}}',
  delivered: 1,
  ...over,
});
const emailRecipient = (name: string, over: Partial<Recipient> = {}): Recipient => ({
  contactId: `7b0a1c7e-0000-4000-8000-${name.length.toString().padStart(12, '0')}`,
  name,
  state: 'queued',
  reason: null,
  sentAt: null,
  email: `${name.toLowerCase().replace(' ', '.')}@example.com`,
  delivery: null,
  stepsSent: 0,
  dueAt: null,
  ...over,
});
const shared = {
  'GET /api/email/configuration': { body: { configuration: null } },
  'GET /api/projects': { body: { projects: [] } },
};

const openEmail = () =>
  renderWithApp(<EmailCampaignPage />, {
    at: `/projects/email/edit/${ID}`,
    route: '/projects/email/edit/:id',
  });
const openSms = () =>
  renderWithApp(<SmsCampaignPage />, { at: `/projects/sms/edit/${ID}`, route: '/projects/sms/edit/:id' });

describe('the campaign page', () => {
  it('edits a draft, checks it before saving, and sends it after a confirmation', async () => {
    let current = email();
    const sent = answerApi({
      ...shared,
      [`GET /api/email-campaigns/${ID}`]: () => ({ body: { campaign: current } }),
      [`GET /api/email-campaigns/${ID}/recipients`]: {
        body: { recipients: [emailRecipient('Ann Able'), emailRecipient('Bo Berg')], next: null },
      },
      [`PUT /api/email-campaigns/${ID}`]: (body) => ({
        body: { campaign: { ...current, ...(body as object) } },
      }),
      [`POST /api/email-campaigns/${ID}/send`]: () => {
        current = email({ status: 'sending' });
        return { body: { campaign: current } };
      },
    });
    openEmail();

    expect((await screen.findByLabelText('Campaign status')).textContent).toContain('Draft');
    expect(await screen.findByText(/No mail server is configured/)).toBeTruthy();
    const ann = await screen.findByRole('listitem', { name: 'Ann Able' });
    const recipients = screen.getByRole('list', { name: 'Recipients' });
    expect(ann.textContent).toContain('ann.able@example.com');

    // A message without a body is refused with the spec's words, and nothing is sent.
    await userEvent.clear(screen.getByLabelText('Message'));
    await userEvent.click(screen.getByRole('button', { name: 'Save Campaign' }));
    expect(await screen.findByText('Please write the e-mail your contacts will receive.')).toBeTruthy();
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);

    // Bo is taken out, the body written again: one save carries both.
    await userEvent.type(screen.getByLabelText('Message'), 'Our new plan is out.');
    await userEvent.click(within(recipients).getByRole('button', { name: 'Remove Bo Berg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save Campaign' }));
    await screen.findByText('Campaign updated');
    expect(sent.find((r) => r.method === 'PUT')?.body).toMatchObject({
      name: 'November push',
      subject: 'Hello {{firstName}}',
      body: 'Our new plan is out.',
      perMinute: 60,
      remove: [emailRecipient('Bo Berg').contactId],
    });

    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('2 contact(s) get “Hello {{firstName}}”, 60 a minute.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Send now' }));
    await screen.findByText('Campaign sending');
    expect(sent.filter((r) => r.path.endsWith('/send'))).toHaveLength(1);
    await waitFor(() => expect(screen.getByLabelText('Campaign status').textContent).toContain('Sending'));
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it("shows an SMS campaign's delivery and replies, and offers a simulated reply only on the simulator", async () => {
    const recipients: SmsRecipient[] = [
      {
        contactId: '7b0a1c7e-0000-4000-8000-0000000000b1',
        name: 'Ann Able',
        state: 'sent',
        reason: null,
        sentAt: '2026-11-20T10:01:00.000Z',
        phone: '+15550100017',
        delivery: 'undelivered',
        deliveryError: 'Error 30003',
        reply: 'STOP',
      },
      {
        contactId: '7b0a1c7e-0000-4000-8000-0000000000b2',
        name: 'Cy Coe',
        state: 'skipped',
        reason: 'No phone number',
        sentAt: null,
        phone: null,
        delivery: null,
        deliveryError: null,
        reply: null,
      },
    ];
    const answers = (provider: string) => ({
      ...shared,
      'GET /api/calls/setup': {
        body: { provider, callerIds: [], defaultFrom: '+15550100000', localPresence: true },
      },
      [`GET /api/sms-campaigns/${ID}`]: { body: { campaign: sms() } },
      [`GET /api/sms-campaigns/${ID}/recipients`]: { body: { recipients, next: null } },
    });
    answerApi(answers('simulator'));
    const page = openSms();
    const ann = await screen.findByRole('listitem', { name: 'Ann Able' });
    const list = screen.getByRole('list', { name: 'Recipients' });
    expect(ann.textContent).toContain('Not delivered (Error 30003)');
    expect(ann.textContent).toContain('Replied: “STOP”');
    expect(within(list).getByRole('listitem', { name: 'Cy Coe' }).textContent).toContain('No phone number');
    expect(screen.getByLabelText('Campaign progress').textContent).toContain(
      '2 of 2 done (100%) · 1 sent · 1 delivered · 0 failed · 1 skipped',
    );
    expect(await within(ann).findByRole('button', { name: 'Simulate a reply from Ann Able' })).toBeTruthy();
    page.unmount();

    answerApi(answers('twilio'));
    openSms();
    const onTwilio = await screen.findByRole('list', { name: 'Recipients' });
    await within(onTwilio).findByRole('listitem', { name: 'Ann Able' });
    expect(within(onTwilio).queryByRole('button', { name: /Simulate a reply/ })).toBeNull();
  });

  it("says 'Campaign not found' for a campaign that is not the user's", async () => {
    answerApi({
      ...shared,
      [`GET /api/sms-campaigns/${ID}`]: {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'Campaign not found' },
      },
    });
    openSms();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error loading campaign');
    expect(alert.textContent).toContain('Campaign not found');
  });
});

import { startFakeSlack } from '../server/test/fake-slack.ts';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test('a rep connects Slack, sends a test message, sees a qualified lead posted and Slack’s refusal in its words, and disconnects', async ({
  page,
  server,
  allowConsoleErrors,
}) => {
  // Slack's refusal of the test message is answered 502 on purpose (the browser logs it).
  allowConsoleErrors(/status of 502/);
  const slack = await startFakeSlack();
  try {
    const { cookie } = await signedInRep(page, server);
    const ada = await createContactThroughApi(server, cookie, {
      firstName: 'Ada',
      lastName: 'Byron',
      email: 'ada@engines.example',
      phone: '(720) 555-0177',
    });
    await page.goto('/settings?tab=integrations');
    const card = page.getByRole('region', { name: 'Slack' });
    const toasts = page.getByRole('region', { name: /^Notifications/ });
    await card.getByLabel('Incoming webhook address').fill(slack.webhookUrl);
    await card.getByLabel('A call was missed').uncheck();
    await card.getByRole('button', { name: 'Connect Slack' }).click();
    await expect(toasts).toContainText('Slack connected');
    await expect(card).toContainText(/Connected: posting to 127\.0\.0\.1:\d+\/services\/T0001\/B0002\/…/);
    await expect(card).not.toContainText('secretpart123');
    await expect(card.getByLabel('A call was missed')).not.toBeChecked();
    await expect(card.getByLabel('A lead is qualified')).toBeChecked();

    await card.getByRole('button', { name: 'Send test message' }).click();
    await expect(toasts).toContainText('Test message sent to Slack');
    expect(slack.posts.map((p) => p.body.text)).toEqual(['CallCRM is connected to this channel.']);
    await expect(card).toContainText('Last message sent');
    await page.screenshot({ path: test.info().outputPath('slack.png') });

    // A qualified lead reaches the channel by itself, with a link back to the contact.
    const saved = await fetch(`${server.baseUrl}/api/dispositions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({ contactId: ada, disposition: 'qualified', notes: 'Wants a demo on Friday' }),
    });
    expect(saved.status).toBe(201);
    await expect.poll(() => slack.posts.length).toBe(2);
    expect(slack.posts[1]!.body.text).toBe('Qualified lead: Ada Byron');
    expect(JSON.stringify(slack.posts[1]!.body.blocks)).toContain(
      `${server.baseUrl}/contacts/${ada}|Ada Byron`,
    );

    // The webhook was removed in Slack: the card says so in Slack's words.
    slack.answers.push({ status: 404, text: 'no_service' });
    await card.getByRole('button', { name: 'Send test message' }).click();
    await expect(toasts).toContainText('Slack did not take the message');
    await expect(card.getByRole('alert')).toContainText('Slack answered 404: no_service');

    await card.getByRole('button', { name: 'Disconnect' }).click();
    await expect(toasts).toContainText('Slack disconnected');
    await expect(card.getByRole('button', { name: 'Connect Slack' })).toBeVisible();
  } finally {
    await slack.close();
  }
});

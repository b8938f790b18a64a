import { verifyWebhook } from '../server/modules/webhooks/webhook-signature.ts';
import { startWebhookReceiver } from '../server/test/fake-webhook-receiver.ts';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test('a rep adds a webhook endpoint, receives signed events, watches a failure retried in the log, redelivers, and removes it', async ({
  page,
  server,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    const { cookie } = await signedInRep(page, server);
    await page.goto('/settings?tab=integrations');
    const card = page.getByRole('region', { name: 'Webhooks' });
    const toasts = page.getByRole('region', { name: /^Notifications/ });
    await expect(card).toContainText('No endpoints yet.');
    await card.getByLabel('Endpoint address').fill(receiver.url);
    await card.getByLabel('Description').fill('Warehouse');
    await card.getByLabel('A call ended').uncheck();
    await card.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(toasts).toContainText('Webhook endpoint added');
    const endpoint = card.getByRole('listitem', { name: 'Endpoint Warehouse' });
    await expect(endpoint).toContainText('On');
    await expect(endpoint).not.toContainText('A call ended');

    await createContactThroughApi(server, cookie, {
      firstName: 'Ada',
      lastName: 'Byron',
      email: 'ada@example.com',
      phone: '(720) 555-0177',
    });
    await expect.poll(() => receiver.received.length).toBe(1);
    expect(receiver.received[0]!.json).toMatchObject({ type: 'contact.created', data: { firstName: 'Ada' } });

    await endpoint.getByRole('button', { name: 'Show signing secret' }).click();
    const secret = await endpoint.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    const { headers, body } = receiver.received[0]!;
    const signed = {
      id: String(headers['webhook-id']),
      timestamp: String(headers['webhook-timestamp']),
      signature: String(headers['webhook-signature']),
    };
    expect(verifyWebhook(secret, signed, body, Math.floor(Date.now() / 1000))).toBe(true);

    // The receiver fails once: the log shows it, then the retry 5 seconds later delivers it.
    receiver.answers.push(500);
    await createContactThroughApi(server, cookie, {
      firstName: 'Bob',
      lastName: 'Retry',
      email: 'bob@example.com',
      phone: '(720) 555-0178',
    });
    await endpoint.getByRole('button', { name: 'Deliveries' }).click();
    const log = endpoint.getByRole('table', { name: 'Deliveries' });
    await expect(log.getByRole('row').nth(1)).toContainText('Retrying');
    await expect(log.getByRole('row').nth(1)).toContainText('receiver broke');
    await expect(endpoint).toContainText('A delivery is kept here for 30 days after its event');
    await page.screenshot({ path: test.info().outputPath('webhooks.png') });
    await expect(log.getByRole('row').nth(1)).toContainText('Delivered', { timeout: 20_000 });
    expect(receiver.received.map((r) => r.json.data.firstName)).toEqual(['Ada', 'Bob', 'Bob']);
    expect(receiver.received[2]!.headers['webhook-id']).toBe(receiver.received[1]!.headers['webhook-id']);

    // Redeliver Ada's event from the log: the same webhook-id again.
    await log
      .getByRole('row')
      .nth(2)
      .getByRole('button', { name: /^Redeliver/ })
      .click();
    await expect(toasts).toContainText('Sending it again');
    await expect.poll(() => receiver.received.length).toBe(4);
    expect(receiver.received[3]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);

    await endpoint.getByRole('button', { name: 'Turn off' }).click();
    await expect(endpoint).toContainText('Off');
    await endpoint.getByRole('button', { name: 'Delete' }).click();
    await expect(card).toContainText('No endpoints yet.');
  } finally {
    await receiver.close();
  }
});

import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test('a rep subscribes to their callbacks: gets the calendar address, a calendar reads the callback from it, and a new address revokes the old', async ({
  page,
  server,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const { cookie } = await signedInRep(page, server);
  const ada = await createContactThroughApi(server, cookie, {
    firstName: 'Ada',
    lastName: 'Byron',
    email: 'ada@engines.example',
    phone: '(720) 555-0177',
  });
  const callbackAt = new Date(Date.now() + 2 * 86_400_000);
  callbackAt.setUTCSeconds(0, 0);
  const saved = await fetch(`${server.baseUrl}/api/dispositions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
    body: JSON.stringify({
      contactId: ada,
      disposition: 'call-back',
      notes: 'Wants the annual plan quote',
      callbackDate: callbackAt.toISOString(),
    }),
  });
  expect(saved.status).toBe(201);

  await page.goto('/settings?tab=integrations');
  const card = page.getByRole('region', { name: 'Google Calendar' });
  await card.getByRole('button', { name: 'Get calendar address' }).click();
  const address = card.getByLabel('Calendar address');
  await expect(address).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await expect(page.getByRole('region', { name: /^Notifications/ })).toContainText('Calendar address copied');
  const url = await address.inputValue();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expect(card).toContainText('No calendar has read it yet.');
  await expect(card).toContainText('Google Calendar: Other calendars → + → From URL');
  await page.screenshot({ path: test.info().outputPath('calendar-feed.png') });

  // What Google Calendar fetches: no session, just the address.
  const calendar = await page.request.get(url, { headers: { cookie: '' } });
  expect(calendar.status()).toBe(200);
  expect(calendar.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const ics = (await calendar.text()).replace(/\r\n /g, '');
  const stamp = callbackAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  expect(ics).toContain('SUMMARY:Call back Ada Byron');
  expect(ics).toContain(`DTSTART:${stamp}`);
  expect(ics).toContain('Notes: Wants the annual plan quote');
  expect(ics).toContain(`/contacts/${ada}`);
  await page.reload();
  await expect(card).toContainText('Last read by a calendar');

  await card.getByRole('button', { name: 'Make a new address' }).click();
  await expect(address).not.toHaveValue(url);
  expect((await page.request.get(url)).status()).toBe(404);
  await card.getByRole('button', { name: 'Turn off' }).click();
  await expect(card.getByRole('button', { name: 'Get calendar address' })).toBeVisible();
  // Nothing pretends: without a connected app set up by the operator, Salesforce says so and offers no button.
  await expect(page.getByRole('button', { name: 'Not available yet' })).toHaveCount(0);
  const salesforce = page.getByRole('region', { name: 'Salesforce' });
  await expect(salesforce).toContainText('Salesforce is not set up on this server.');
  await expect(salesforce.getByRole('button')).toHaveCount(0);
});

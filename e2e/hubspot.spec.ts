import { startFakeHubspot, type FakeHubspot } from '../server/test/fake-hubspot.ts';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

// The server is started pointing at a local HubSpot that answers as its CRM v3 API documents.
let hubspot: FakeHubspot;
test.use({
  serverEnv: async ({}, use) => {
    hubspot = await startFakeHubspot();
    hubspot.addContacts([
      { firstname: 'Ada', lastname: 'Byron', email: 'ada@engines.example', company: 'Engines' },
      { firstname: 'Grace', lastname: 'Hopper', email: 'grace@navy.example', phone: '(303) 555-0190' },
      { firstname: 'Alan', lastname: 'Turing', phone: '+13035550191', jobtitle: 'Researcher' },
    ]);
    await use({ HUBSPOT_API_URL: hubspot.url });
    await hubspot.close();
  },
});

test('a rep connects HubSpot with a private app token, imports its contacts, sees a call logged there, and disconnects', async ({
  page,
  server,
  allowConsoleErrors,
}) => {
  // The wrong token is refused with 400 on purpose (the browser logs it).
  allowConsoleErrors(/status of 400/);
  const { cookie } = await signedInRep(page, server);
  const ada = await createContactThroughApi(server, cookie, {
    firstName: 'Ada',
    lastName: 'Byron',
    email: 'ada@engines.example',
    phone: '(720) 555-0177',
  });
  await page.goto('/settings?tab=integrations');
  const card = page.getByRole('region', { name: 'HubSpot' });
  const toasts = page.getByRole('region', { name: /^Notifications/ });

  await card.getByLabel('Private app access token').fill('pat-na1-not-the-token');
  await card.getByRole('button', { name: 'Connect HubSpot' }).click();
  await expect(card.getByRole('alert')).toContainText(
    'HubSpot refused this token. HubSpot answered 401: Authentication credentials not found.',
  );
  await card.getByLabel('Private app access token').fill(hubspot.token);
  await card.getByRole('button', { name: 'Connect HubSpot' }).click();
  await expect(toasts).toContainText('HubSpot connected');
  await expect(card).toContainText('Connected to HubSpot account 24680135 (app.hubspot.com)');
  await expect(card.getByLabel('Log each call in HubSpot, with its outcome and notes')).toBeChecked();

  // Import: Ada is already here (skipped), Grace and Alan are new.
  await card.getByRole('button', { name: 'Import contacts' }).click();
  await expect(toasts).toContainText('Import from HubSpot started');
  await expect(card.getByRole('status')).toContainText('3 HubSpot contacts: 2 new, 0 updated, 1 skipped.');
  await page.goto('/contacts');
  await expect(page.getByRole('link', { name: 'Grace Hopper' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Alan Turing' })).toBeVisible();

  // A call outcome saved here is logged on Ada's HubSpot contact, with its notes.
  const saved = await fetch(`${server.baseUrl}/api/dispositions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
    body: JSON.stringify({ contactId: ada, disposition: 'qualified', notes: 'Wants a demo on Friday' }),
  });
  expect(saved.status).toBe(201);
  await expect.poll(() => hubspot.calls.length).toBe(1);
  expect(hubspot.calls[0]!.properties).toMatchObject({
    hs_call_title: 'Call with Ada Byron: Qualified Lead',
    hs_call_body: 'Outcome: Qualified Lead\n\nWants a demo on Friday',
  });
  expect(JSON.stringify(hubspot.calls[0]!.associations)).toContain(`"id":"${hubspot.contacts[0]!.id}"`);
  await page.goto('/settings?tab=integrations');
  await expect(card).toContainText('1 call logged');
  await card.screenshot({ path: test.info().outputPath('hubspot.png') });

  await card.getByRole('button', { name: 'Disconnect' }).click();
  await expect(toasts).toContainText('HubSpot disconnected');
  await expect(card.getByRole('button', { name: 'Connect HubSpot' })).toBeVisible();
});

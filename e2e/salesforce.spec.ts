import { startFakeSalesforce, type FakeSalesforce } from '../server/test/fake-salesforce.ts';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

// The server is started with a connected app whose login host is a local Salesforce answering as its OAuth 2.0 web
// server flow and REST sObjects document.
let salesforce: FakeSalesforce;
test.use({
  serverEnv: async ({}, use) => {
    salesforce = await startFakeSalesforce();
    salesforce.addContacts([
      { FirstName: 'Ada', LastName: 'Byron', Email: 'ada@engines.example', Account: { Name: 'Engines' } },
    ]);
    salesforce.addLeads([
      { FirstName: 'Grace', LastName: 'Hopper', Phone: '(303) 555-0190', Company: 'Navy' },
      { FirstName: 'Alan', LastName: 'Turing', Email: 'alan@bletchley.example', Company: 'Bletchley' },
    ]);
    await use({
      SALESFORCE_CLIENT_ID: salesforce.clientId,
      SALESFORCE_CLIENT_SECRET: salesforce.clientSecret,
      SALESFORCE_LOGIN_URL: salesforce.url,
    });
    await salesforce.close();
  },
});

test('a rep connects Salesforce by signing in there, imports Leads and Contacts, sees a call logged as a Task, and disconnects', async ({
  page,
  server,
}) => {
  // The connected app's callback URL, as the operator registers it in Salesforce.
  salesforce.callbackUrl = `${server.baseUrl}/api/salesforce/callback`;
  const { cookie } = await signedInRep(page, server);
  const ada = await createContactThroughApi(server, cookie, {
    firstName: 'Ada',
    lastName: 'Byron',
    email: 'ada@engines.example',
    phone: '(720) 555-0177',
  });
  await page.goto('/settings?tab=integrations');
  const card = page.getByRole('region', { name: 'Salesforce' });
  const toasts = page.getByRole('region', { name: /^Notifications/ });

  // Salesforce asks; the rep denies: back here, told why, nothing connected.
  await card.getByRole('button', { name: 'Connect Salesforce' }).click();
  await expect(page.getByRole('heading', { name: 'Allow Access?' })).toBeVisible();
  await page.getByRole('link', { name: 'Deny' }).click();
  await expect(card.getByRole('alert')).toHaveText(
    'Salesforce did not connect: end-user denied authorization.',
  );
  await expect(page).toHaveURL(/\/settings\?tab=integrations$/);

  await card.getByRole('button', { name: 'Connect Salesforce' }).click();
  await page.getByRole('link', { name: 'Allow' }).click();
  await expect(toasts).toContainText('Salesforce connected');
  await expect(card).toContainText('Connected to Salesforce as rep@acme.example (Riley Rep)');
  await expect(card.getByRole('alert')).toHaveCount(0);
  await expect(
    card.getByLabel('Log each call in Salesforce as a completed Task, with its outcome and notes'),
  ).toBeChecked();

  // Import: Ada is already here (skipped), Grace and Alan are new Leads.
  await expect(card.getByLabel('Leads (not converted)')).toBeChecked();
  await expect(card.getByLabel('Contacts', { exact: true })).toBeChecked();
  await card.getByRole('button', { name: 'Import contacts' }).click();
  await expect(toasts).toContainText('Import from Salesforce started');
  await expect(card.getByRole('status')).toContainText(
    '3 Salesforce Leads and Contacts: 2 new, 0 updated, 1 skipped.',
  );
  await page.goto('/contacts');
  await expect(page.getByRole('link', { name: 'Grace Hopper' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Alan Turing' })).toBeVisible();

  // A call outcome saved here is a completed Task on Ada's Salesforce Contact, with its notes.
  const saved = await fetch(`${server.baseUrl}/api/dispositions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
    body: JSON.stringify({ contactId: ada, disposition: 'qualified', notes: 'Wants a demo on Friday' }),
  });
  expect(saved.status).toBe(201);
  await expect.poll(() => salesforce.tasks.length).toBe(1);
  expect(salesforce.tasks[0]).toMatchObject({
    WhoId: salesforce.contacts[0]!.Id,
    Subject: 'Call: Qualified Lead',
    Status: 'Completed',
    TaskSubtype: 'Call',
    Description: 'Outcome: Qualified Lead\n\nWants a demo on Friday',
  });
  await page.goto('/settings?tab=integrations');
  await expect(card).toContainText('1 call logged');
  await card.screenshot({ path: test.info().outputPath('salesforce.png') });

  await card.getByRole('button', { name: 'Disconnect' }).click();
  await expect(toasts).toContainText('Salesforce disconnected');
  await expect(card.getByRole('button', { name: 'Connect Salesforce' })).toBeVisible();
  await expect.poll(() => salesforce.revoked.length).toBe(1);
});

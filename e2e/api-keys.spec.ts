import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test('a rep makes an API key, lists and adds contacts with it as a script would, sees it used, and revokes it', async ({
  page,
  server,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const { cookie } = await signedInRep(page, server);
  await createContactThroughApi(server, cookie, {
    firstName: 'Ada',
    lastName: 'Byron',
    email: 'ada@engines.example',
    phone: '(720) 555-0177',
  });

  await page.goto('/settings?tab=integrations');
  const card = page.getByRole('region', { name: 'API keys' });
  await expect(card).toContainText('No API keys yet.');
  await card.getByLabel('Key name').fill('Warehouse loader');
  await card.getByLabel('Access').selectOption({ label: 'Read and write' });
  await card.getByRole('button', { name: 'Make key' }).click();
  const shown = card.getByLabel('New API key');
  await expect(shown).toHaveValue(/^ccrm_[A-Za-z0-9_-]{43}$/);
  await expect(card).toContainText('Copy it now: it is not shown again.');
  const secret = await shown.inputValue();
  await card.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.getByRole('region', { name: /^Notifications/ })).toContainText('API key copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const row = card.getByRole('row', { name: /Warehouse loader/ });
  await expect(row).toContainText('Read and write');
  await expect(row).toContainText(`ccrm_…${secret.slice(-4)}`);
  await expect(row).toContainText('Never');
  await page.screenshot({ path: test.info().outputPath('api-keys.png') });

  // What a script does: the key and nothing else (no cookie, no Origin).
  const asScript = { authorization: `Bearer ${secret}` };
  const listed = await fetch(`${server.baseUrl}/api/contacts`, { headers: asScript });
  expect(listed.status).toBe(200);
  const { contacts } = (await listed.json()) as { contacts: { firstName: string }[] };
  expect(contacts.map((c) => c.firstName)).toEqual(['Ada']);
  const added = await fetch(`${server.baseUrl}/api/contacts`, {
    method: 'POST',
    headers: { ...asScript, 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Bea',
      lastName: 'Scripted',
      email: 'bea@example.com',
      phone: '(720) 555-0188',
    }),
  });
  expect(added.status).toBe(201);
  const refused = await fetch(`${server.baseUrl}/api/api-keys`, { headers: asScript });
  expect(refused.status).toBe(403);

  // The key's work is in the app, and the card says when it was last used.
  await page.goto('/contacts');
  await expect(page.getByText('Bea Scripted')).toBeVisible();
  await page.goto('/settings?tab=integrations');
  await expect(row).not.toContainText('Never');
  await expect(card.getByLabel('New API key')).toHaveCount(0);

  await card.getByRole('button', { name: 'Revoke Warehouse loader' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByRole('region', { name: /^Notifications/ })).toContainText('API key revoked');
  await expect(card).toContainText('No API keys yet.');
  const after = await fetch(`${server.baseUrl}/api/contacts`, { headers: asScript });
  expect(after.status).toBe(401);
});

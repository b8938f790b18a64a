import { test, expect, createContactThroughApi, seedContacts, signedInRep } from './fixtures.ts';

test.describe('contacts', () => {
  test('create a contact, edit it, and see the change in its history', async ({ page, server }) => {
    await signedInRep(page, server, { callsFictionalNumbers: true });
    await page.goto('/contacts');
    await page.getByRole('link', { name: 'Add Contact' }).first().click();
    await expect(page.getByRole('heading', { name: 'Add New Contact' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Contact' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Email').fill('grace@navy');
    await page.getByRole('button', { name: 'Create Contact' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await page.getByLabel('Email').fill('grace@navy.example');
    await page.getByLabel('Phone').fill('2125550199');
    await page.getByLabel('Tags (comma separated)').fill('vip, navy ,');
    await page.getByRole('button', { name: 'Create Contact' }).click();
    await expect(page.getByText('Contact Created')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
    await expect(page.getByText('(212) 555-0199')).toBeVisible();
    await expect(page.getByText('No changes yet.')).toBeVisible();

    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Contact' })).toBeVisible();
    await page.getByLabel('Company').fill('US Navy');
    await page.getByLabel('Status').selectOption('active');
    await page.getByRole('button', { name: 'Save Contact' }).click();
    await expect(page.getByText('Contact Updated')).toBeVisible();
    const history = page.getByRole('list', { name: 'Contact history' });
    await expect(history.getByText('Company:')).toBeVisible();
    await expect(history.locator('s', { hasText: 'empty' })).toBeVisible();
    await expect(history.getByText('Status:')).toBeVisible();
    await expect(history.locator('s', { hasText: 'new' })).toBeVisible();
    await expect(page.getByText('Qualified', { exact: true })).toBeVisible();
  });

  test('search, filter by each control, clear, and see the tab counts follow', async ({ page, server }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await createContactThroughApi(server, cookie, {
      firstName: 'Alan',
      lastName: 'Turing',
      email: 'alan@bletchley.example',
      company: 'Bletchley',
      status: 'active',
      tags: ['vip'],
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@engines.example',
      status: 'new',
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Linus',
      lastName: 'Torvalds',
      email: 'linus@kernel.example',
      status: 'inactive',
      notes: 'call back: FOLLOW UP',
    });
    await page.goto('/contacts');
    const table = page.getByRole('table', { name: 'Contacts' });
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(page.getByLabel('All Contacts count')).toHaveText('3');
    await expect(page.getByLabel('Needs Attention count')).toHaveText('2');
    await expect(page.getByLabel('Qualified Leads count')).toHaveText('1');
    await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);

    await page.getByLabel('Search contacts').fill('bletch');
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByText('Alan Turing')).toBeVisible();
    await expect(page.getByLabel('All Contacts count')).toHaveText('1');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(table.getByRole('row')).toHaveCount(4);

    await page.getByLabel('Status').selectOption('inactive');
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByText('Linus Torvalds')).toBeVisible();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByLabel('Tag').selectOption('vip');
    await expect(table.getByRole('row')).toHaveCount(2);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByLabel('Last called').selectOption('never');
    await expect(table.getByRole('row')).toHaveCount(4);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByLabel('Cold Leads Only').check();
    await expect(page.getByText('No contacts found')).toBeVisible();
    await page.getByRole('button', { name: 'Clear Filters' }).click();

    await page.getByRole('tab', { name: /Needs Attention/ }).click();
    await expect(table.getByRole('row')).toHaveCount(3);
    await page.getByRole('tab', { name: /Qualified Leads/ }).click();
    await expect(table.getByRole('row')).toHaveCount(2);
  });

  test('sort by name both ways, page through 230 contacts, select several and bulk delete', async ({
    page,
    server,
  }) => {
    const { userId } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await seedContacts(server, userId, 230, 'Person');
    await page.goto('/contacts');
    const table = page.getByRole('table', { name: 'Contacts' });
    await page.getByRole('button', { name: 'Name' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('Person0001');
    await page.getByRole('button', { name: 'Name' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('Person0230');
    await page.getByRole('button', { name: 'Name' }).click();

    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await pagination.getByRole('button', { name: '3' }).click();
    await expect(table.getByRole('row')).toHaveCount(31);
    await expect(table.getByRole('row').nth(1)).toContainText('Person0201');
    await pagination.getByRole('button', { name: 'Previous' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('Person0101');
    await expect(page.getByText('Page 2 of 3 · 230 contacts')).toBeVisible();
    await pagination.getByRole('button', { name: 'Next' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('Person0201');
    await expect(pagination.getByRole('button', { name: 'Next' })).toBeDisabled();
    await pagination.getByRole('button', { name: '1' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('Person0001');
    await pagination.getByRole('button', { name: 'Next' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('Person0101');
    await pagination.getByRole('button', { name: '1' }).click();

    await page.getByRole('checkbox', { name: 'Select Person0001 Seeded' }).check();
    await page.getByRole('checkbox', { name: 'Select Person0002 Seeded' }).check();
    await expect(page.getByText('2 contact(s) selected')).toBeVisible();
    await page.getByRole('button', { name: 'Delete Selected' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('Confirm Bulk Delete');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('Successfully deleted 2 contact(s)')).toBeVisible();
    await expect(page.getByText('contact(s) selected')).toHaveCount(0);
    await expect(table.getByRole('row').nth(1)).toContainText('Person0003');
    await expect(page.getByLabel('All Contacts count')).toHaveText('228');

    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('button', { name: 'Select all 228 matching' }).click();
    await expect(page.getByText('228 contact(s) selected')).toBeVisible();
    await page.getByRole('button', { name: 'Send to Campaign' }).click();
    await expect(page.getByRole('radio', { name: /All Synced Contacts/ })).toBeChecked();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await expect(
      page.getByText(/228 contact\(s\) ready for campaign: 228 added to All Synced Contacts/),
    ).toBeVisible();
  });

  test('add a cold lead, and delete contacts from a row and from the detail page', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await createContactThroughApi(server, cookie, {
      firstName: 'Row',
      lastName: 'Victim',
      email: 'row@example.com',
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Detail',
      lastName: 'Victim',
      email: 'detail@example.com',
    });
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Add Cold Lead' }).click();
    await page.getByLabel('Website').fill('only-a-site.example');
    await page.getByRole('button', { name: 'Create Cold Lead' }).click();
    await expect(page.getByText('Please provide at least a company name or phone number')).toBeVisible();
    await page.getByLabel('Company Name').fill('Wayne Enterprises');
    await page.getByRole('button', { name: 'Create Cold Lead' }).click();
    await expect(page.getByText('Cold lead created')).toBeVisible();
    const table = page.getByRole('table', { name: 'Contacts' });
    await expect(table.getByText('Cold Lead Wayne Enterprises')).toBeVisible();
    await expect(page.getByLabel('Cold Leads count')).toHaveText('1');

    await page.getByRole('button', { name: 'Actions for Row Victim' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect(page.getByRole('alertdialog')).toContainText(
      'This will permanently delete the contact. This action cannot be undone.',
    );
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('Contact deleted')).toBeVisible();
    await expect(table.getByText('Row Victim')).toHaveCount(0);

    await table.getByRole('link', { name: 'Detail Victim' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(table.getByText('Detail Victim')).toHaveCount(0);
  });

  test('a change made in one tab shows up in another open tab without a reload', async ({
    page,
    server,
    consoleErrors,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await page.goto('/contacts');
    await expect(page.getByText('No contacts found')).toBeVisible();
    const second = await page.context().newPage();
    second.on('console', (m) => m.type() === 'error' && consoleErrors.seen.push(m.text()));
    await second.goto('/contacts/new');
    await second.getByLabel('First Name').fill('Live');
    await second.getByLabel('Last Name').fill('Update');
    await second.getByLabel('Email').fill('live@example.com');
    await second.getByRole('button', { name: 'Create Contact' }).click();
    await expect(second.getByRole('heading', { name: 'Live Update' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Contacts' }).getByText('Live Update')).toBeVisible();

    const id = await createContactThroughApi(server, cookie, {
      firstName: 'Watched',
      lastName: 'Detail',
      email: 'watched@example.com',
    });
    await page.goto(`/contacts/${id}`);
    await second.goto(`/contacts/${id}/edit`);
    await second.getByLabel('Company').fill('Changed Elsewhere');
    await second.getByRole('button', { name: 'Save Contact' }).click();
    await expect(page.getByText('Changed Elsewhere').first()).toBeVisible();
  });

  test('a missing contact shows the error and goes back to the list', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 404/);
    await signedInRep(page, server, { callsFictionalNumbers: true });
    await page.goto('/contacts/7d0b5a9e-1111-4222-8333-444455556666');
    await expect(page.getByText('Error loading contact', { exact: true })).toBeVisible();
    await expect(
      page.getByText('Could not load contact details. The contact may have been deleted.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/contacts$/);
  });
});

test('Send to Campaign creates a call queue on the spot from ticked contacts or a whole filter', async ({
  page,
  server,
}) => {
  const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
  for (const [firstName, company] of [
    ['Quinn', 'Acme'],
    ['Rita', 'Acme'],
    ['Sam', 'Globex'],
  ] as const)
    await createContactThroughApi(server, cookie, {
      firstName,
      lastName: 'Queue',
      email: `${firstName.toLowerCase()}@example.com`,
      company,
    });
  await page.goto('/contacts');
  await page.getByRole('checkbox', { name: 'Select Quinn Queue' }).check();
  await page.getByRole('checkbox', { name: 'Select Sam Queue' }).check();
  await page.getByRole('button', { name: 'Send to Campaign' }).click();
  await page.getByRole('radio', { name: 'New call queue' }).check();
  await page.getByRole('button', { name: 'Create Queue' }).click();
  await expect(page.getByText('Please provide a name for your queue')).toBeVisible();
  await page.getByRole('textbox', { name: 'Queue name' }).fill('  Tuesday follow-ups ');
  await page.getByRole('button', { name: 'Create Queue' }).click();
  await expect(page.getByText('2 contact(s) in Tuesday follow-ups.')).toBeVisible();
  await expect(page.getByText('contact(s) selected')).toHaveCount(0);

  // Every contact matching a search, whatever is on screen.
  await page.getByRole('textbox', { name: 'Search contacts' }).fill('Acme');
  await expect(page.getByRole('table', { name: 'Contacts' }).getByRole('row')).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await page.getByRole('button', { name: 'Send to Campaign' }).click();
  await expect(page.getByRole('radio', { name: /Tuesday follow-ups/ })).toBeVisible();
  await expect(page.getByRole('dialog')).toContainText('2 contacts');
  await page.getByRole('radio', { name: 'New call queue' }).check();
  await page.getByRole('textbox', { name: 'Queue name' }).fill('Acme people');
  await page.getByRole('button', { name: 'Create Queue' }).click();
  await expect(page.getByText('2 contact(s) in Acme people.')).toBeVisible();

  const queues = await (await fetch(`${server.baseUrl}/api/queues`, { headers: { cookie } })).json();
  expect(
    (queues as { queues: { name: string; total: number }[] }).queues.map((q) => [q.name, q.total]),
  ).toEqual(
    expect.arrayContaining([
      ['Tuesday follow-ups', 2],
      ['Acme people', 2],
    ]),
  );

  // Ticked contacts can also go to the queue editor, which shows them selected.
  await page.getByRole('textbox', { name: 'Search contacts' }).fill('');
  await expect(page.getByRole('table', { name: 'Contacts' }).getByRole('row')).toHaveCount(4);
  await page.getByRole('checkbox', { name: 'Select Rita Queue' }).check();
  await page.getByRole('button', { name: 'Send to Campaign' }).click();
  await page.getByRole('radio', { name: 'New call queue' }).check();
  await page.getByRole('link', { name: /Open in the queue editor/ }).click();
  await expect(page.getByRole('heading', { name: 'Create Call Queue' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Selected contacts' })).toContainText('Rita Queue');
  await expect(page.getByLabel('Selected count')).toHaveText('1 selected');
  // The list's contacts were a one-time hand-over: a reload starts an empty queue.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Create Call Queue' })).toBeVisible();
  await expect(page.getByLabel('Selected count')).toHaveText('0 selected');
  await expect(page.getByRole('list', { name: 'Selected contacts' })).toHaveCount(0);
});

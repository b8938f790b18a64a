import { writeFileSync } from 'node:fs';
import { createContactThroughApi, expect, seedContacts, signedInRep, test } from './fixtures.ts';

test.describe('projects and call queue screens', () => {
  test('creates a queue from selected contacts, edits it, calls it from the table, and deletes it', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    for (const [first, phone] of [
      ['Kai', '(555) 010-0071'],
      ['Lia', '(555) 010-0081'],
      ['Mo', '(555) 010-0091'],
    ] as const)
      await createContactThroughApi(server, cookie, {
        firstName: first,
        lastName: 'Screen',
        email: `${first.toLowerCase()}@s.example`,
        phone,
      });
    await page.goto('/projects');
    await page.getByRole('tab', { name: 'Campaigns' }).click();
    await expect(page).toHaveURL(/tab=campaigns/);
    await page.getByRole('link', { name: 'New Call Queue' }).click();
    await expect(page.getByRole('heading', { name: 'Create Call Queue' })).toBeVisible();
    const createButton = page.getByRole('button', { name: 'Create Queue' });
    await expect(createButton).toBeDisabled();

    await page.getByRole('button', { name: 'Select Contacts' }).click();
    const selector = page.getByRole('dialog', { name: 'Select Contacts' });
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await expect(page.getByText('Please select at least one contact')).toBeVisible();
    await selector.getByRole('checkbox', { name: 'Select Kai Screen' }).check();
    await selector.getByRole('checkbox', { name: 'Select Mo Screen' }).check();
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await expect(page.getByText('Contacts selected', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Selected count')).toHaveText('2 selected');
    await page.getByRole('button', { name: 'Remove Mo Screen' }).click();
    await expect(page.getByLabel('Selected count')).toHaveText('1 selected');
    await createButton.click();
    await expect(page.getByText('Please provide a name for your queue')).toBeVisible();
    await page.getByLabel('Queue name').fill('Screen queue');
    await createButton.click();
    await expect(page.getByText('Queue created')).toBeVisible();

    const table = page.getByRole('table', { name: 'Call Queues' });
    const row = table.getByRole('row', { name: /Screen queue/ });
    await expect(row).toContainText('1 of 1 (0% called)');
    await expect(row).toContainText('Not Started');

    await row.getByRole('link', { name: 'Edit Screen queue' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Call Queue' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Queue contacts' })).toContainText('Kai Screen');
    await page.getByRole('button', { name: 'Select Contacts' }).click();
    await selector.getByRole('checkbox', { name: 'Select Lia Screen' }).check();
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await page.getByLabel('Queue name').fill('Screen queue, edited');
    await page.getByRole('button', { name: 'Save Queue' }).click();
    await expect(page.getByText('Queue updated')).toBeVisible();
    const edited = table.getByRole('row', { name: /Screen queue, edited/ });
    await expect(edited).toContainText('2 of 2 (0% called)');

    await edited.getByRole('button', { name: 'Call Screen queue, edited' }).click();
    const dialer = page.getByRole('dialog', { name: 'Browser Dialer' });
    await expect(dialer.getByLabel('Walking')).toHaveText('Screen queue, edited');
    await expect(dialer.getByLabel('Queue')).toHaveText('Queue: 2 remaining');
    await expect(dialer.getByRole('button', { name: 'Call Kai Screen' })).toBeVisible();
    await dialer.getByRole('button', { name: 'Close' }).last().click();

    await page.goto('/projects?tab=campaigns');
    await table.getByRole('button', { name: 'Delete Screen queue, edited' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Queue' }).click();
    await expect(page.getByText('Queue deleted')).toBeVisible();
    await expect(table.getByRole('row', { name: /Screen queue/ })).toHaveCount(0);
  });

  test('puts every contact matching a search in a queue in one action', async ({ page, server }) => {
    const { userId } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await seedContacts(server, userId, 250, 'Bulk');
    await page.goto('/projects/queue/create');
    await page.getByLabel('Queue name').fill('Everyone');
    await page.getByRole('button', { name: 'Select Contacts' }).click();
    const selector = page.getByRole('dialog', { name: 'Select Contacts' });
    await selector.getByRole('textbox', { name: 'Search contacts' }).fill('Bulk');
    await selector.getByRole('checkbox', { name: /Select all 250 matching/ }).check();
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await expect(page.getByRole('list', { name: 'Selected contacts' })).toContainText(
      'All 250 contacts matching “Bulk”',
    );
    await page.getByRole('button', { name: 'Create Queue' }).click();
    await expect(page.getByText('250 contact(s) in Everyone.')).toBeVisible();
  });

  test('Import Contacts on the create screen imports a file and selects the new contacts', async ({
    page,
    server,
  }, testInfo) => {
    await signedInRep(page, server, { callsFictionalNumbers: true });
    const file = testInfo.outputPath('fair.csv');
    writeFileSync(
      file,
      [
        'First Name,Last Name,Phone,Email',
        'Uma,Fair,(555) 010-0301,uma@f.example',
        'Vic,Fair,(555) 010-0302,vic@f.example',
      ].join('\n'),
    );
    await page.goto('/projects/queue/create');
    await page.getByLabel('Queue name').fill('Fair leads');
    await page.getByRole('button', { name: 'Import Contacts' }).click();
    await page.getByLabel('File to import').setInputFiles(file);
    await page.getByRole('dialog').getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Import report' })).toContainText('Created');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('list', { name: 'Selected contacts' })).toContainText(
      '2 new contacts from fair.csv',
    );
    await page.getByRole('button', { name: 'Create Queue' }).click();
    await expect(page.getByText('2 contact(s) in Fair leads.')).toBeVisible();
  });

  test('creates and edits a project; empty cards show the spec’s defaults', async ({ page, server }) => {
    await signedInRep(page, server, { callsFictionalNumbers: true });
    await page.goto('/projects');
    await expect(page.getByText('No Projects', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'New Project' }).click();
    const form = page.getByRole('dialog', { name: 'New Project' });
    await form.getByRole('button', { name: 'Create Project' }).click();
    await expect(page.getByText('Please provide a name for your project')).toBeVisible();
    await form.getByLabel('Name').fill('Autumn fair');
    await form.getByRole('button', { name: 'Create Project' }).click();
    await expect(page.getByText('Project created')).toBeVisible();
    const card = page.getByRole('list', { name: 'Projects' }).getByRole('listitem').first();
    await expect(card).toContainText('Unknown');
    await expect(card).toContainText('No description available');
    await expect(card).toContainText('No date set');
    await expect(card).toContainText('$0.00');

    await card.getByRole('button', { name: 'Edit Autumn fair' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Project' });
    await edit.getByLabel('Client').fill('Acme');
    await edit.getByLabel('Deadline').fill('2026-12-31');
    await edit.getByLabel('Budget (USD)').fill('1250.5');
    await edit.getByLabel('Status').selectOption('active');
    await edit.getByRole('button', { name: 'Save Project' }).click();
    await expect(page.getByText('Project updated')).toBeVisible();
    await expect(card).toContainText('Acme');
    await expect(card).toContainText('12/31/2026');
    await expect(card).toContainText('$1,250.50');
    await expect(card).toContainText('Active');

    // A queue can belong to the project.
    await page.goto('/projects/queue/create');
    await expect(page.getByLabel('Project')).toContainText('Autumn fair');
  });
  test('finds projects by search, status and type, and opens one with its call queues', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { project?: { id: string } };
    };
    const harbour = await post('/api/projects', {
      name: 'Harbour calls',
      client: 'Harbour Inc',
      type: 'calling',
      status: 'active',
    });
    await post('/api/projects', {
      name: 'Winter mailer',
      client: 'Frost',
      type: 'email',
      status: 'planning',
    });
    const contact = await createContactThroughApi(server, cookie, {
      firstName: 'Ned',
      lastName: 'Harbour',
      email: 'ned@h.example',
      phone: '(555) 010-0311',
    });
    await post('/api/queues', {
      name: 'Harbour queue',
      selection: { ids: [contact] },
      projectId: harbour.project!.id,
    });

    await page.goto('/projects');
    const cards = page.getByRole('list', { name: 'Projects' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    await page.getByLabel('Search projects').fill('frost');
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('Winter mailer');
    await page.getByLabel('Search projects').fill('');
    await page.getByLabel('Status').selectOption('active');
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('Harbour calls');
    await page.getByLabel('Type').selectOption('email');
    await expect(page.getByText('No Projects', { exact: true })).toBeVisible();
    await page.getByLabel('Type').selectOption('all');
    await expect(cards).toHaveCount(1);

    await cards.first().getByRole('link', { name: 'Harbour calls' }).click();
    await expect(page).toHaveURL(/\/projects\/project\//);
    await expect(page.getByRole('heading', { name: 'Harbour calls' })).toBeVisible();
    await expect(page.getByText(/Harbour Inc · Calling/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Call queues' })).toContainText('Harbour queue');
    await page.getByRole('link', { name: 'Back to projects' }).click();
    await expect(page).toHaveURL(/\/projects$/);
  });
});

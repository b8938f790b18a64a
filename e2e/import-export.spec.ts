import { readFile } from 'node:fs/promises';
import { buildWorkbook } from '../server/test/import-files.ts';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test.describe('contacts in and out', () => {
  test('export all contacts from a contact, delete them, import the file back, and find them again', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const first = await createContactThroughApi(server, cookie, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@engines.example',
      phone: '(555) 010-0001',
      company: '=Engines',
      tags: ['vip'],
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Alan',
      lastName: 'Turing',
      email: 'alan@bletchley.example',
    });

    await page.goto(`/contacts/${first}`);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export All Contacts' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^contacts_backup_\d{4}-\d{2}-\d{2}\.csv$/);
    await expect(page.getByText('Export Successful')).toBeVisible();
    const path = test.info().outputPath(download.suggestedFilename());
    await download.saveAs(path);
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('\uFEFF"First Name","Last Name","Email","Phone","Company"')).toBe(true);
    expect(text).toContain('"\'=Engines"');

    await page.goto('/contacts');
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('button', { name: 'Delete Selected' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('No contacts found')).toBeVisible();

    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByLabel('File to import').setInputFiles(path);
    const mapping = page.getByRole('table', { name: 'Column mapping' });
    await expect(mapping.getByRole('combobox', { name: 'Column 1 (First Name)' })).toHaveValue('firstName');
    await expect(mapping.getByRole('combobox', { name: 'Column 10 (Last Updated)' })).toHaveValue('');
    await page.getByRole('dialog').getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('region', { name: 'Import report' });
    await expect(report).toContainText('Created');
    await expect(report.getByText('2', { exact: true }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Done' }).click();

    const table = page.getByRole('table', { name: 'Contacts' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await page.getByPlaceholder('Search contacts...').fill('engines');
    await expect(table.getByRole('row')).toHaveCount(2);
    await table.getByRole('link', { name: 'Ada Lovelace' }).click();
    await expect(page.getByText('=Engines')).toBeVisible();
  });

  test('import a workbook with a mapping of my own, and read the report of what was skipped', async ({
    page,
    server,
  }) => {
    await signedInRep(page, server, { callsFictionalNumbers: true });
    const workbook = await buildWorkbook([
      ['Organisation', 'Given name', 'Surname', 'Mobile', 'Job'],
      ['Nova', 'Nia', 'Nash', 5550100009, 'CTO'],
      ['Orb', 'Otto', 'Olsen', null, 'CEO'],
      ['Pax', '', 'Nobody', 5550100011, 'CFO'],
    ]);
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByLabel('File to import').setInputFiles({
      name: 'people.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: workbook,
    });
    const dialog = page.getByRole('dialog');
    const job = dialog.getByRole('combobox', { name: /Column 5/ });
    await expect(job).toHaveValue('');
    await job.selectOption('title');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const skipped = dialog.getByRole('table', { name: 'Skipped rows' });
    await expect(skipped).toContainText('Needs a phone number or an e-mail address');
    await expect(skipped).toContainText('First name is missing');
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download report' }).click();
    expect((await downloading).suggestedFilename()).toBe('import_report_people.csv');
    await dialog.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('link', { name: 'Nia Nash' }).click();
    await expect(page.getByText('CTO at Nova')).toBeVisible();
  });

  test('refuses a file it cannot read, saying which files it takes', async ({ page, server }) => {
    await signedInRep(page, server, { callsFictionalNumbers: true });
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Import' }).click();
    await page
      .getByLabel('File to import')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('x') });
    await expect(page.getByText('Please select a CSV, Excel (.xlsx) or vCard (.vcf) file')).toBeVisible();
  });
});

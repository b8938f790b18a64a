import { readFile } from 'node:fs/promises';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { createContactThroughApi, expect, signedInRep, test, type Server } from './fixtures.ts';

const post = async (server: Server, cookie: string, url: string, body: object) => {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, { id: string }>;
};

test.describe('call reports', () => {
  test('lists the day’s calls with their outcome, filters them, and exports call_reports.csv', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const ann = await createContactThroughApi(server, cookie, {
      firstName: 'Ann',
      lastName: 'Report',
      email: 'ann@r.example',
      phone: '(555) 010-0017',
    });
    const made = await post(server, cookie, '/api/calls', { contactId: ann, requestId: newRequestId() });
    await post(server, cookie, '/api/dispositions', {
      callId: made.call!.id,
      disposition: 'not-interested',
      notes: '=SUM(1,2) call again in spring',
    });

    await page.goto('/reports/dashboard');
    await expect(page.getByRole('heading', { name: 'Call Reports' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Call reports' });
    await expect(table).toContainText('not interested');
    await expect(table).toContainText('=SUM(1,2) call again in spring');
    await page.getByRole('textbox', { name: 'Filter call reports' }).fill('zzz');
    await expect(page.getByText('No calls match this filter.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Filter call reports' }).fill('spring');
    await expect(table.getByRole('row')).toHaveCount(2);

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('call_reports.csv');
    const text = await readFile(await download.path(), 'utf8');
    expect(
      text.startsWith(
        '\uFEFF"Call ID","Contact ID","Project ID","Outcome","Notes","Created At","Direction"\n',
      ),
    ).toBe(true);
    const rows = text.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(
      `"${made.call!.id}","${ann}","","not-interested","'=SUM(1,2) call again in spring"`,
    );
  });

  test('reads the day on /reports, live, and finds a qualified lead by a word in its notes', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const contact = (firstName: string, company: string, phone: string) =>
      createContactThroughApi(server, cookie, {
        firstName,
        lastName: 'Morning',
        email: `${firstName.toLowerCase()}@morning.example`,
        company,
        phone,
        website: 'northwind.example',
      });
    const ann = await contact('Ann', 'Northwind', '(555) 010-0031');
    const bo = await contact('Bo', 'Contoso', '(555) 010-0033');
    const cy = await contact('Cy', 'Contoso', '(555) 010-0035');
    const di = await contact('Di', 'Fabrikam', '(555) 010-0037');
    // A morning of simulator calls, each with its disposition.
    const callAndSave = async (contactId: string, disposition: string, notes: string, extra = {}) => {
      const made = await post(server, cookie, '/api/calls', { contactId, requestId: newRequestId() });
      await post(server, cookie, '/api/dispositions', {
        callId: made.call!.id,
        disposition,
        notes,
        ...extra,
      });
    };
    await callAndSave(ann, 'qualified', 'Wants a pilot in January');
    await callAndSave(bo, 'voicemail', 'Left a message');
    await callAndSave(cy, 'not-interested', 'Has a vendor');

    await page.goto('/reports');
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    const figures = page.getByRole('definition');
    const card = (label: string) => page.locator('dl div', { hasText: label }).getByRole('definition');
    await expect(card('Total Calls')).toHaveText('3');
    await expect(card('Qualified Leads')).toHaveText('1');
    // Answered (decision 000): qualified and not-interested; a voicemail is not an answer.
    await expect(card('Answered Calls')).toHaveText('2');
    await expect(figures).toHaveCount(3);
    const dispositions = page.getByRole('list', { name: 'Call Dispositions' });
    await expect(dispositions).toContainText('Not Interested');
    await expect(dispositions.getByRole('listitem')).toHaveCount(3);
    const recent = page.getByRole('list', { name: 'Recent Calls' });
    await expect(recent.getByRole('listitem')).toHaveCount(3);
    await expect(recent.getByRole('listitem').last()).toContainText('Ann Morning');
    await expect(recent.getByRole('listitem').last()).toContainText('Northwind');
    await page.screenshot({ path: 'test-results/reports-overview.png', fullPage: true });
    // The hourly chart's figures as a table: three calls, two answered, in one hour.
    await page.getByText('Show the figures as a table').first().click();
    const hours = page.getByRole('table', { name: 'Calls by hour' });
    await expect(hours.getByRole('row')).toHaveCount(2);
    await expect(hours.getByRole('row').last()).toContainText(/\d\d:00\s*3\s*2/);
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await page.getByRole('radio', { name: '30 days' }).click();
    await expect(page.getByText('Calls per day by disposition, the last 30 days.')).toBeVisible();
    await page.getByText('Show the figures as a table').last().click();
    await expect(page.getByRole('table', { name: 'Outcomes per day' }).getByRole('row')).toHaveCount(31);

    // A call saved elsewhere shows at once (live refresh), without reloading.
    await callAndSave(di, 'call-back', 'Call back after lunch', {
      callbackDate: new Date(Date.now() + 3 * 3600_000).toISOString(),
    });
    await expect(card('Total Calls')).toHaveText('4');
    await expect(card('Answered Calls')).toHaveText('3');
    await expect(recent.getByRole('listitem').first()).toContainText('Call Back');

    await page.getByRole('tab', { name: 'Qualified Leads' }).click();
    const leads = page.getByRole('list', { name: 'Qualified leads' });
    await expect(leads.getByRole('listitem')).toHaveCount(1);
    await page.getByRole('textbox', { name: 'Search qualified leads' }).fill('january');
    await expect(leads).toContainText('Ann Morning');
    await expect(leads).toContainText('Wants a pilot in January');
    await expect(leads).toContainText('ann@morning.example');
    await expect(leads.getByRole('link', { name: 'northwind.example' })).toHaveAttribute(
      'href',
      'https://northwind.example',
    );
    await page.getByRole('textbox', { name: 'Search qualified leads' }).fill('vendor');
    await expect(page.getByText('No qualified leads match this search.')).toBeVisible();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByText('No qualified leads match this search.')).toBeVisible();
  });
});

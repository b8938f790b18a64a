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
    const { cookie } = await signedInRep(page, server);
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
      text.startsWith('\uFEFF"Call ID","Contact ID","Project ID","Outcome","Notes","Created At"\n'),
    ).toBe(true);
    const rows = text.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(
      `"${made.call!.id}","${ann}","","not-interested","'=SUM(1,2) call again in spring"`,
    );
  });
});

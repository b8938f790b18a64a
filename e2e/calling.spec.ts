import { adminQuery } from '../server/test/test-postgres.ts';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test.describe('calling on the simulator', () => {
  test('call a contact from the list, see it ring and connect, end it, save a disposition, find it in the call logs', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const id = await createContactThroughApi(server, cookie, {
      firstName: 'Cora',
      lastName: 'Caller',
      email: 'cora@caller.example',
      phone: '(555) 010-0005',
      company: 'Callco',
      status: 'contacted',
    });
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Actions for Cora Caller' }).click();
    await page.getByRole('menuitem', { name: 'Call' }).click();
    await expect(page.getByText('Call initiated')).toBeVisible();
    const panel = page.getByRole('region', { name: 'Current call' });
    await expect(panel).toContainText('Cora Caller');
    await expect(panel).toContainText('Connected');
    await expect(page.getByText('Call connected')).toBeVisible();
    await panel.getByRole('button', { name: 'END CALL' }).click();
    await expect(panel).toContainText('Call ended');
    await expect(page.getByText('Please select a disposition and save the call log')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Save disposition' })).toHaveCount(0);
    await panel.getByRole('radio', { name: 'Qualified Lead' }).check();
    await panel.getByLabel('Notes').fill('Wants a demo next week');
    await panel.getByRole('button', { name: 'Save disposition' }).click();
    await expect(page.getByText('Disposition saved')).toBeVisible();
    await expect(panel).toHaveCount(0);

    await page.goto('/power-dialer');
    const stats = page.getByRole('list', { name: 'Call statistics' }).or(page.getByLabel('Call statistics'));
    await expect(stats).toContainText('Total Calls1');
    await expect(stats).toContainText('100.0% answer rate');
    const history = page.getByRole('region', { name: 'Call History' });
    await expect(history).toContainText('Cora Caller');
    await expect(history).toContainText('qualified');

    await page.goto(`/contacts/${id}`);
    await expect(page.getByText('Never called')).toHaveCount(0);
    await expect(page.getByRole('list', { name: 'Calls' })).toContainText('Qualified Lead');
    await expect(page.getByText('Qualified', { exact: true })).toBeVisible();
  });

  test('each simulated outcome, and a provider refusal in the spec words', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    // Nine calls, one of which waits out a provider that never answers (10 s): more than a minute on a busy machine.
    test.setTimeout(120_000);
    allowConsoleErrors(/status of 502/);
    await signedInRep(page, server, { callsFictionalNumbers: true });
    await page.goto('/power-dialer');
    const dial = async (number: string) => {
      await page.getByLabel('Phone number').fill(number);
      await page.getByRole('button', { name: 'Call', exact: true }).click();
    };
    const panel = page.getByRole('region', { name: 'Current call' });
    for (const [number, outcome] of [
      ['(555) 010-0010', 'Busy'],
      ['(555) 010-0011', 'No answer'],
      ['(555) 010-0012', 'Call failed'],
    ] as const) {
      await dial(number);
      await expect(page.getByText('Direct call initiated').last()).toBeVisible();
      await expect(panel).toContainText(outcome, { timeout: 15_000 });
      // A failed call is an issue, said in a toast; busy and no answer are outcomes the disposition records.
      if (outcome === 'Call failed') await expect(page.getByText('Call issue')).toBeVisible();
      await panel.getByRole('button', { name: 'Close' }).click();
    }

    for (const [number, toast] of [
      ['(999) 555-0100', 'Number verification error'],
      ['(998) 555-0100', 'Geographic permissions error'],
      ['(997) 555-0100', 'Trial account limitation'],
    ] as const) {
      await dial(number);
      await expect(page.getByText(toast)).toBeVisible();
      await expect(panel).toHaveCount(0);
    }
    // A provider that never answers: the spec's error once the server gives up (10 s), nothing left hanging.
    await dial('(996) 555-0100');
    await expect(page.getByText('Error initiating call')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(/did not answer in time/)).toBeVisible();
    await expect(panel).toHaveCount(0);
  });

  test('a second click while the first call is being placed is refused with the spec message', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await createContactThroughApi(server, cookie, {
      firstName: 'Dee',
      lastName: 'Double',
      email: 'dee@d.example',
      phone: '(555) 010-0006',
    });
    await page.goto('/contacts');
    const open = async () => {
      await page.getByRole('button', { name: 'Actions for Dee Double' }).click();
      await page.getByRole('menuitem', { name: 'Call' }).click();
    };
    await open();
    await expect(page.getByText('Call initiated')).toBeVisible();
    await open();
    // Within 5 s of the first it is 'very recent'; on a loaded machine the menu can take longer to open again,
    // and then the 15-s pair window refuses it in its own spec words. Either way it is refused, never placed.
    await expect(
      page
        .getByText(
          /^(Please wait a moment before trying again|This number was called recently\. Please wait \d+ seconds before trying again\.)$/,
        )
        .first(),
    ).toBeVisible();
    const placed = await adminQuery(server.databaseUrl, 'select count(*)::int as n from calls');
    expect(placed.rows[0]).toEqual({ n: 1 });
  });

  test('do-not-call: the number is refused until it is removed from the list', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    // It waits 15.5 s on purpose: room for the rest on a busy machine.
    test.setTimeout(120_000);
    allowConsoleErrors(/status of 409/);
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const id = await createContactThroughApi(server, cookie, {
      firstName: 'Nora',
      lastName: 'Never',
      email: 'nora@n.example',
      phone: '(555) 010-0008',
    });
    await page.goto(`/contacts/${id}`);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Current call' });
    await panel.getByRole('button', { name: 'END CALL' }).click();
    await panel.getByRole('radio', { name: 'Do Not Call' }).check();
    await panel.getByRole('button', { name: 'Save disposition' }).click();
    await expect(page.getByText('Do not call', { exact: true })).toBeVisible();

    await page.waitForTimeout(15_500); // past the duplicate windows, so the refusal is the do-not-call one
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(page.getByText('is on your do-not-call list')).toBeVisible();
    await page.getByRole('button', { name: 'Remove from do-not-call' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Removed from do-not-call')).toBeVisible();
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(page.getByText('Call initiated')).toBeVisible();
  });

  test('bulk call of five contacts, one without a phone: called one a second on the server, with the summary', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    for (const [i, phone] of [
      '(555) 010-0103',
      '(555) 010-0104',
      '(555) 010-0105',
      '(555) 010-0106',
      null,
    ].entries())
      await createContactThroughApi(server, cookie, {
        firstName: `Bulk${i}`,
        lastName: 'Lead',
        email: `bulk${i}@b.example`,
        phone,
      });
    await page.goto('/contacts');
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('button', { name: 'Call Selected' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Confirm Bulk Call');
    await dialog.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(page.getByText('Calls initiated')).toBeVisible();
    await expect(page.getByText("1 selected contact(s) don't have phone numbers.")).toBeVisible();
    const summary = dialog.getByRole('region', { name: 'Bulk call summary' });
    await expect(summary).toContainText('Finished.', { timeout: 20_000 });
    await expect(summary).toContainText('4 called · 0 skipped · 0 failed');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.goto('/power-dialer');
    await expect(page.getByLabel('Call statistics')).toContainText('Total Calls4');
  });
});

import { createContactThroughApi, expect, signedInRep, test, zoneWhereHourIs } from './fixtures.ts';

test.describe('local presence', () => {
  // Calls at their real length, so END CALL is always pressed on a call still going on.
  test.use({ simulatorTimeScale: '1' });
  test('a rep with a New York and a Denver caller ID calls a Denver contact from the Denver number, and from the default once local presence is off', async ({
    page,
    server,
  }) => {
    test.setTimeout(120_000);
    const { cookie } = await signedInRep(page, server);
    // The app runs on the real clock: the contacts live (by their time zone) where it is the middle of the day.
    const day = zoneWhereHourIs([10, 11, 12, 13, 14, 15, 16, 17]);
    const contact = (first: string, phone: string) =>
      createContactThroughApi(server, cookie, {
        firstName: first,
        lastName: 'Denver',
        email: `${first.toLowerCase()}@denver.example`,
        phone,
        timeZone: day.zone,
      });
    const dana = await contact('Dana', '(303) 555-0123');
    const drew = await contact('Drew', '(303) 555-0124');

    await page.goto('/settings?tab=phone');
    const add = page.getByRole('form', { name: 'Add a caller ID' });
    for (const [number, label] of [
      ['(212) 555-0100', 'New York office'],
      ['(303) 555-0101', 'Denver office'],
    ] as const) {
      await add.getByLabel('Caller ID number').fill(number);
      await add.getByLabel('Label (optional)').fill(label);
      await add.getByRole('button', { name: 'Add' }).click();
      await expect(page.getByRole('list', { name: 'Caller IDs' }).getByText(label)).toBeVisible();
      // The form empties once the number is saved: typing the next one before that would be wiped.
      await expect(add.getByLabel('Caller ID number')).toHaveValue('');
    }
    const localPresence = page.getByRole('checkbox', { name: /Local presence/ });
    await expect(localPresence).toBeChecked();
    await expect(
      page.getByText('Calls are placed from the caller ID nearest each contact (local presence)'),
    ).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('phone-settings.png') });

    await page.goto(`/contacts/${dana}`);
    await page.getByRole('button', { name: 'Call', exact: true }).first().click();
    const panel = page.getByRole('region', { name: 'Current call' });
    await expect(panel).toContainText('Dana Denver');
    await expect(panel).toContainText('Calling from +1 (303) 555-0101, Colorado');
    await page.screenshot({ path: test.info().outputPath('calling-from-denver.png') });
    await panel.getByRole('button', { name: 'END CALL' }).click();
    // Over, whether it was still ringing (Canceled) or answered (Call ended).
    await expect(panel.getByRole('button', { name: 'END CALL' })).toHaveCount(0);
    await panel.getByRole('radio', { name: 'No Answer' }).check();
    await panel.getByRole('button', { name: 'Save disposition' }).click();
    await expect(panel).toHaveCount(0);

    await page.goto('/settings?tab=phone');
    await localPresence.click();
    await expect(localPresence).not.toBeChecked();
    await expect(
      page.getByText('Calls are placed from +1 (212) 555-0100 unless you choose otherwise.'),
    ).toBeVisible();
    await page.goto(`/contacts/${drew}`);
    await page.getByRole('button', { name: 'Call', exact: true }).first().click();
    await expect(panel).toContainText('Drew Denver');
    await expect(panel).toContainText('Calling from +1 (212) 555-0100, New York');
    await panel.getByRole('button', { name: 'END CALL' }).click();
    // Over, whether it was still ringing (Canceled) or answered (Call ended).
    await expect(panel.getByRole('button', { name: 'END CALL' })).toHaveCount(0);
  });
});

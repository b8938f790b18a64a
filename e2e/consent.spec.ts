import { readFile } from 'node:fs/promises';
import { adminQuery } from '../server/test/test-postgres.ts';
import { createContactThroughApi, expect, signedInRep, test, zoneWhereHourIs } from './fixtures.ts';

test.describe('the consent gate', () => {
  test('a contact asleep in their own time zone cannot be called: the call button and the contact page say why', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 409/);
    const night = zoneWhereHourIs([1, 2, 3, 4]);
    const { cookie } = await signedInRep(page, server);
    const id = await createContactThroughApi(server, cookie, {
      firstName: 'Nora',
      lastName: 'Night',
      email: 'nora@night.example',
      phone: '(303) 296-1237',
    });
    // The time zone is set on the contact form, over the Denver number's.
    await page.goto(`/contacts/${id}/edit`);
    await page.getByLabel('Time zone').selectOption(night.zone);
    await page.getByLabel('State (US, such as FL)').fill('co');
    await page.getByRole('button', { name: 'Save Contact' }).click();
    await expect(page.getByText('Contact Updated')).toBeVisible();

    await expect(page.getByText(new RegExp(`^Local time \\d{1,2}:\\d\\d am, ${night.zone}$`))).toBeVisible();
    await expect(page.getByText('(set on the contact)')).toBeVisible();
    const calls = page.getByRole('list', { name: 'What may reach this contact now' });
    const sentence = new RegExp(
      `Not now: it is \\d{1,2}:\\d\\d am in ${night.place} \\(calling hours 8:00–21:00\\)`,
    );
    await expect(calls.getByRole('listitem').filter({ hasText: 'Calls' })).toContainText(sentence);
    await expect(calls.getByRole('listitem').filter({ hasText: 'Campaign e-mail' })).toContainText(
      'Allowed now',
    );

    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(page.getByText('Call not placed')).toBeVisible();
    await expect(page.getByText(sentence).last()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Current call' })).toHaveCount(0);
    // The refusal is in the contact's consent record, on the page and in its export.
    await expect(page.getByRole('list', { name: 'Consent history' })).toContainText('Call: Refused');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export consent record' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^consent_record_Nora_Night_\d{4}-\d\d-\d\d\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv).toContain('When (UTC),Channel,Outcome,Reason,Number,Time zones,State,Facts');
    expect(csv).toMatch(sentence);
    expect(csv).toContain(`,${night.zone},CO,`);
    await page.screenshot({ path: 'test-results/consent-contact-page.png', fullPage: true });
  });

  test('express consent, recorded on the contact page, lets the rep call a contact outside the federal hours; withdrawn, it does not', async ({
    page,
    server,
  }) => {
    const night = zoneWhereHourIs([1, 2, 3, 4]);
    const { cookie } = await signedInRep(page, server);
    const id = await createContactThroughApi(server, cookie, {
      firstName: 'Owen',
      lastName: 'Optin',
      email: 'owen@optin.example',
      phone: '(303) 296-1237',
      timeZone: night.zone,
    });
    await page.goto(`/contacts/${id}`);
    const channels = page.getByRole('list', { name: 'What may reach this contact now' });
    const calls = channels.getByRole('listitem').filter({ hasText: 'Calls' });
    await expect(calls).toContainText('Not allowed');

    await page.getByRole('button', { name: 'Record express consent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record express consent' });
    await dialog.getByRole('button', { name: 'Record consent' }).click();
    await expect(page.getByText('Say where the contact gave consent')).toBeVisible();
    await dialog.getByLabel('Source').fill('Web form: demo request');
    await dialog.getByRole('button', { name: 'Record consent' }).click();
    await expect(page.getByText('Express consent recorded')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(calls).toContainText('Allowed now');
    await expect(calls).toContainText(
      /Express consent given \d\d\/\d\d\/\d{4} \(Web form: demo request\); federal calling hours do not apply/,
    );
    await expect(page.getByRole('list', { name: 'Consent history' })).toContainText('Call: Opted in');

    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(page.getByText('Call initiated')).toBeVisible();
    const panel = page.getByRole('region', { name: 'Current call' });
    await expect(panel).toContainText('Owen Optin');
    await panel.getByRole('button', { name: 'END CALL' }).click();
    await panel.getByRole('radio', { name: 'Qualified Lead' }).check();
    await panel.getByRole('button', { name: 'Save disposition' }).click();
    await expect(page.getByText('Disposition saved')).toBeVisible();

    await page.getByRole('button', { name: 'Withdraw consent' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Withdraw' }).click();
    await expect(page.getByText('Express consent withdrawn')).toBeVisible();
    await expect(calls).toContainText('Not allowed');
    await expect(page.getByRole('button', { name: 'Record express consent' })).toBeVisible();
    await page.screenshot({ path: 'test-results/consent-express.png', fullPage: true });
  });

  test('a new user imports contacts from three states: each page says where they are and what may reach them now', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 409/);
    const night = zoneWhereHourIs([1, 2, 3, 4]);
    const day = zoneWhereHourIs([10, 11, 12, 13, 14]);
    await signedInRep(page, server);
    const csv = [
      'First Name,Last Name,Phone,Email,Time Zone,State',
      `Dana,Denver,(303) 296-1237,dana@co.example,${night.zone},Colorado`,
      `Finn,Florida,(305) 296-1237,finn@fl.example,${day.zone},fl`,
      `Wes,Washington,(206) 296-1237,wes@wa.example,${day.zone},WA`,
    ].join('\n');
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Import' }).click();
    await page
      .getByLabel('File to import')
      .setInputFiles({ name: 'three-states.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const mapping = page.getByRole('table', { name: 'Column mapping' });
    await expect(mapping.getByRole('combobox', { name: 'Column 5 (Time Zone)' })).toHaveValue('timeZone');
    await expect(mapping.getByRole('combobox', { name: 'Column 6 (State)' })).toHaveValue('state');
    await page.getByRole('dialog').getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Import report' })).toContainText('Created');
    await page.getByRole('button', { name: 'Done' }).click();

    const table = page.getByRole('table', { name: 'Contacts' });
    const open = async (name: string) => {
      await page.goto('/contacts');
      await table.getByRole('link', { name }).click();
      await expect(page.getByRole('heading', { name })).toBeVisible();
    };
    const channel = (label: string) =>
      page
        .getByRole('list', { name: 'What may reach this contact now' })
        .getByRole('listitem')
        .filter({ hasText: label });

    await open('Dana Denver');
    await expect(page.getByText(new RegExp(`^Local time \\d{1,2}:\\d\\d am, ${night.zone}$`))).toBeVisible();
    await expect(page.getByText('(set on the contact)')).toBeVisible();
    const sentence = new RegExp(
      `Not now: it is \\d{1,2}:\\d\\d am in ${night.place} \\(calling hours 8:00–21:00\\)`,
    );
    await expect(channel('Calls')).toContainText(sentence);
    await expect(channel('Texts')).toContainText(sentence);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(page.getByText('Call not placed')).toBeVisible();

    await open('Finn Florida');
    await expect(page.getByText('FL', { exact: true })).toBeVisible();
    await expect(channel('Calls')).toContainText('Allowed now');
    await expect(channel('Texts')).toContainText('Allowed now');

    await open('Wes Washington');
    await expect(page.getByText('WA', { exact: true })).toBeVisible();
    await expect(channel('Calls')).toContainText('Allowed now');
    await expect(channel('Campaign e-mail')).toContainText('Allowed now');
  });

  test('a UK rep sets their country for phone numbers, and a London number typed the UK way is placed in London', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server);
    await page.goto('/settings?tab=profile');
    const country = page.getByLabel('Country for phone numbers');
    await expect(country).toHaveValue('US');
    await country.selectOption('GB');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expect(page.getByText('Profile saved')).toBeVisible();
    const id = await createContactThroughApi(server, cookie, {
      firstName: 'Lena',
      lastName: 'London',
      email: 'lena@london.example',
      phone: '020 7946 0958',
    });
    await page.goto(`/contacts/${id}`);
    await expect(page.getByText(/^Local time \d{1,2}:\d\d [ap]m, Europe\/London$/)).toBeVisible();
    await expect(page.getByText('(from the phone number)')).toBeVisible();
    await expect(page.getByText('Not a valid phone number')).toHaveCount(0);
  });

  test('the power dialer calls who is awake, and says when the one asleep may be called', async ({
    page,
    server,
  }) => {
    const night = zoneWhereHourIs([1, 2, 3, 4]);
    const day = zoneWhereHourIs([10, 11, 12, 13, 14]);
    const { cookie } = await signedInRep(page, server);
    const asleep = await createContactThroughApi(server, cookie, {
      firstName: 'Sam',
      lastName: 'Sleeper',
      email: 'sam@sleep.example',
      phone: '(303) 296-1237',
      timeZone: night.zone,
    });
    const awake = await createContactThroughApi(server, cookie, {
      firstName: 'Wendy',
      lastName: 'Awake',
      email: 'wendy@awake.example',
      phone: '(212) 555-0127',
      timeZone: day.zone,
    });
    const queued = await fetch(`${server.baseUrl}/api/queues`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({ name: 'Around the world', selection: { ids: [asleep, awake] } }),
    });
    expect(queued.status).toBe(201);
    await page.goto('/power-dialer');
    await page.getByRole('button', { name: 'Select Campaign' }).click();
    await page
      .getByRole('dialog', { name: 'Select Calling Queue' })
      .getByRole('button', { name: /^Around the world/ })
      .click();
    const modal = page.getByRole('dialog', { name: 'Browser Dialer' });
    await expect(modal).toContainText('Wendy Awake');
    await modal.getByRole('button', { name: 'Close' }).last().click();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Pop-out Dialer' }).click(),
    ]);
    const card = popup.getByRole('region', { name: 'Current contact' });
    await expect(card).toContainText('Wendy Awake');
    await card.getByRole('button', { name: 'Mark as Completed' }).click();
    await expect(
      popup.getByText(
        new RegExp(
          `^1 contact is waiting: Not now: it is \\d{1,2}:\\d\\d am in ${night.place} \\(calling hours 8:00–21:00\\)\\. The next may be called at \\d{1,2}:\\d\\d [AP]M\\.$`,
        ),
      ),
    ).toBeVisible();
    await expect(popup.getByText('All contacts have been called')).toHaveCount(0);
  });

  test('a Florida contact called three times today is refused a fourth call, and the page says why', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 409/);
    // Florida allows 8:00–20:00 where the contact is: a zone where it is the middle of the day, set on the contact.
    const day = zoneWhereHourIs([10, 11, 12, 13, 14, 15, 16, 17]);
    const { cookie, userId } = await signedInRep(page, server);
    const id = await createContactThroughApi(server, cookie, {
      firstName: 'Flo',
      lastName: 'Limit',
      email: 'flo@limit.example',
      phone: '(305) 555-0147',
      timeZone: day.zone,
      state: 'FL',
    });
    await page.goto(`/contacts/${id}`);
    const reach = page.getByRole('list', { name: 'What may reach this contact now' });
    await expect(reach.getByRole('listitem').filter({ hasText: 'Calls' })).toContainText('Allowed now');
    // Three calls to the number in the last hours (made earlier today, as the call log would hold them).
    for (const [i, hoursAgo] of [5, 3, 1].entries())
      await adminQuery(
        server.databaseUrl,
        `insert into calls (user_id, request_id, provider, from_number, to_number, status, started_at, updated_at)
         values ('${userId}', 'flo0000${i}', 'simulator', '+15550100000', '+13055550147', 'completed',
                 now() - interval '${hoursAgo} hours', now())`,
      );
    await page.reload();
    const limit = '3 calls in the last 24 h (Florida limit)';
    await expect(reach.getByRole('listitem').filter({ hasText: 'Calls' })).toContainText(limit);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(page.getByText('Call not placed')).toBeVisible();
    await expect(page.getByText(limit).last()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Current call' })).toHaveCount(0);
    await expect(page.getByRole('list', { name: 'Consent history' })).toContainText('Call: Refused');
  });

  test('Settings → Phone narrows the calling hours and says the law allows no wider', async ({
    page,
    server,
  }) => {
    await signedInRep(page, server);
    await page.goto('/settings?tab=phone');
    const form = page.getByRole('form', { name: 'Calling hours' });
    await form.getByLabel('From').fill('07:00');
    await form.getByLabel('To').fill('17:30');
    await form.getByRole('button', { name: 'Save calling hours' }).click();
    await expect(page.getByText('Calling hours saved')).toBeVisible();
    await expect(
      page.getByText(
        "Calls and texts go out from 8:00 to 17:30 in each contact's local time (the law allows no wider).",
      ),
    ).toBeVisible();
    await page.reload();
    await expect(page.getByRole('form', { name: 'Calling hours' }).getByLabel('From')).toHaveValue('08:00');
    await expect(page.getByRole('form', { name: 'Calling hours' }).getByLabel('To')).toHaveValue('17:30');
  });
});

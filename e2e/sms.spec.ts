import type { Page } from '@playwright/test';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

/**
 * Waits for a toast to go by itself: one lying over the button about to be clicked would catch the pointer, and a
 * hovered toast never goes (the click then waits for ever).
 */
const toastGone = (page: Page, text: string) =>
  expect(page.getByRole('region', { name: /^Notifications/ }).getByText(text)).toHaveCount(0, {
    timeout: 15_000,
  });

test.describe('SMS campaigns on the simulator', () => {
  test('creates an SMS campaign, sends it, sees it delivered, and a contact who replies STOP is never messaged again', async ({
    page,
    server,
  }) => {
    // Two campaigns sent and a reply simulated: on two busy cores with another journey beside it, about a minute.
    test.slow();
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    // Ann's number is delivered; Bo's (ending in 2) never reaches the handset; Cy has no phone.
    const annId = await createContactThroughApi(server, cookie, {
      firstName: 'Ann',
      lastName: 'Texter',
      email: 'ann@t.example',
      phone: '(555) 010-0017',
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Bo',
      lastName: 'Texter',
      email: 'bo@t.example',
      phone: '(555) 010-0022',
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Cy',
      lastName: 'Texter',
      email: 'cy@t.example',
    });

    await page.goto('/projects?tab=campaigns');
    await page.getByRole('tab', { name: /SMS Campaigns/ }).click();
    await expect(page.getByText('No SMS campaigns found')).toBeVisible();
    await page.getByRole('link', { name: 'New SMS Campaign' }).click();
    await expect(page.getByRole('heading', { name: 'Create SMS Campaign' })).toBeVisible();
    const createButton = page.getByRole('button', { name: 'Create Campaign' });
    await expect(createButton).toBeDisabled();
    await page.getByLabel('Campaign name').fill('Open house');
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('Hi {{firstName}}, open house on Friday at 5pm!');
    await expect(page.getByLabel('Message length')).toContainText('46 / 1,600 characters · 1 segment(s)');
    await page.getByRole('button', { name: 'Select Contacts' }).click();
    const selector = page.getByRole('dialog', { name: 'Select Contacts' });
    for (const name of ['Ann Texter', 'Bo Texter', 'Cy Texter'])
      await selector.getByRole('checkbox', { name: `Select ${name}` }).check();
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await toastGone(page, 'Contacts selected');
    await createButton.click();
    await expect(page.getByText('Campaign created', { exact: true })).toBeVisible();

    await expect(page.getByRole('heading', { name: 'Open house' })).toBeVisible();
    await expect(page.getByLabel('Campaign status')).toHaveText('Draft');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByLabel('Campaign status')).toHaveText('Sent', { timeout: 15_000 });
    const recipients = page.getByRole('list', { name: 'Recipients' });
    await expect(recipients.getByRole('listitem', { name: 'Ann Texter' })).toContainText('Delivered', {
      timeout: 15_000,
    });
    await expect(recipients.getByRole('listitem', { name: 'Bo Texter' })).toContainText(
      'Not delivered (Error 30003)',
    );
    await expect(recipients.getByRole('listitem', { name: 'Cy Texter' })).toContainText('No phone number');
    await expect(page.getByLabel('Campaign progress')).toContainText(
      '3 of 3 done (100%) · 2 sent · 1 delivered',
    );

    // Ann asks for help, then replies STOP (the simulator's reply button, through the signed inbound webhook).
    await recipients.getByRole('button', { name: 'Simulate a reply from Ann Texter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Simulate a reply' });
    await dialog.getByRole('button', { name: 'HELP' }).click();
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByText(/The number was answered: CallCRM: you get these messages/)).toBeVisible();
    await recipients.getByRole('button', { name: 'Simulate a reply from Ann Texter' }).click();
    await dialog.getByLabel('Reply').fill(' stop ');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(recipients.getByRole('listitem', { name: 'Ann Texter' })).toContainText('Replied: “stop”');

    // The next campaign skips her number.
    await page.goto('/projects/sms/create');
    await page.getByLabel('Campaign name').fill('Reminder');
    await page.getByRole('textbox', { name: 'Message' }).fill('Reminder: open house today!');
    await page.getByRole('button', { name: 'Select Contacts' }).click();
    await selector.getByRole('checkbox', { name: 'Select Ann Texter' }).check();
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await toastGone(page, 'Contacts selected');
    await page.getByRole('button', { name: 'Create Campaign' }).click();
    await expect(page.getByRole('heading', { name: 'Reminder' })).toBeVisible();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByLabel('Campaign status')).toHaveText('Sent', { timeout: 15_000 });
    // Skipped in the consent gate's words, with the day she replied.
    await expect(recipients.getByRole('listitem', { name: 'Ann Texter' })).toContainText(
      /Texted STOP on \d\d\/\d\d\/\d{4}/,
    );

    await page.goto(`/contacts/${annId}`);
    await expect(page.getByText('Opted out of SMS')).toBeVisible();

    await page.goto('/projects?tab=campaigns');
    await page.getByRole('tab', { name: /SMS Campaigns/ }).click();
    const table = page.getByRole('table', { name: 'SMS campaigns' });
    await expect(table.getByRole('row', { name: /Open house/ })).toContainText('3 of 3');
    await expect(table.getByRole('row', { name: /Reminder/ })).toContainText('1 of 1');

    // A limit across all the user's campaigns, kept on the server.
    await page.goto('/settings?tab=phone');
    const limit = page.getByRole('form', { name: 'SMS sending limit' });
    await limit.getByLabel('Text messages per minute').fill('30');
    await limit.getByRole('button', { name: 'Save limit' }).click();
    await expect(page.getByText('At most 30 text messages a minute.')).toBeVisible();
    await page.reload();
    await expect(
      page.getByRole('form', { name: 'SMS sending limit' }).getByLabel('Text messages per minute'),
    ).toHaveValue('30');
  });
});

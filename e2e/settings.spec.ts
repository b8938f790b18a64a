import { newRequestId } from '#domain/calls/call-guard.ts';
import {
  createContactThroughApi,
  expect,
  newWatchedPage,
  PASSWORD,
  signedInRep,
  signInThroughUi,
  test,
} from './fixtures.ts';

test.describe('Settings → Profile', () => {
  test('changes the name and time zone; a password change asks for the current one and signs out the other session', async ({
    page,
    server,
    browser,
    consoleErrors,
    allowConsoleErrors,
  }) => {
    // Two sessions, two sign-ins and two password hashings: close to a minute on a loaded two-core machine.
    test.setTimeout(120_000);
    const { email } = await signedInRep(page, server);
    // The same account signed in on a second device.
    const laptop = await newWatchedPage(browser, server, consoleErrors);
    await signInThroughUi(laptop, email);

    await page.goto('/settings?tab=profile');
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expect(page.getByText('Profile saved')).toBeVisible();
    // The reports now count the day in Tokyo.
    await page.goto('/reports');
    await expect(page.getByText('How your calling went, day by day (Asia/Tokyo).')).toBeVisible();
    await page.goto('/settings?tab=profile');
    await expect(page.getByLabel('First name')).toHaveValue('Ada');
    await expect(page.getByLabel('Time zone')).toHaveValue('Asia/Tokyo');

    // A wrong current password changes nothing.
    allowConsoleErrors(/status of 400/);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('Repeat new password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Could not change password')).toBeVisible();
    await laptop.goto('/contacts');
    await expect(laptop.getByRole('heading', { name: 'Contacts' })).toBeVisible();

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Your other sessions were signed out.')).toBeVisible();
    // This session stays; the laptop's is gone.
    await page.goto('/contacts');
    await expect(page.getByRole('heading', { name: 'Contacts' })).toBeVisible();
    allowConsoleErrors(/status of 401/);
    await laptop.reload();
    await expect(laptop).toHaveURL(/\/auth$/);
    // The new password signs in; the old one no longer does.
    await signInThroughUi(laptop, email, 'a brand new passphrase');
    await laptop.context().close();
  });
});

test.describe('notifications', () => {
  test('a callback that comes due is announced under the bell, and never once turned off', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const post = async (url: string, body: object) => {
      const response = await fetch(`${server.baseUrl}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
        body: JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, { id: string }>;
    };
    const callBackIn = async (contactId: string, seconds: number) => {
      const made = await post('/api/calls', { contactId, requestId: newRequestId() });
      await post('/api/dispositions', {
        callId: made.call!.id,
        disposition: 'call-back',
        notes: 'Wants the price list',
        callbackDate: new Date(Date.now() + seconds * 1000).toISOString(),
      });
    };
    const ann = await createContactThroughApi(server, cookie, {
      firstName: 'Ann',
      lastName: 'Later',
      email: 'ann@later.example',
      phone: '(555) 010-0041',
    });
    await page.goto('/contacts');
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    await callBackIn(ann, 2);

    // It arrives live: a toast and the bell's count, without reloading.
    await expect(page.getByText('Callback due: Ann Later').first()).toBeVisible({ timeout: 15_000 });
    const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
    await expect(bell).toBeVisible();
    await bell.click();
    await page.screenshot({ path: 'test-results/notification-bell.png' });
    await page.getByRole('menuitem', { name: /Callback due: Ann Later/ }).click();
    await expect(page).toHaveURL(new RegExp(`/contacts/${ann}$`));
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

    // Turned off: the next callback passes without a word.
    await page.goto('/settings?tab=notifications');
    await expect(page.getByText('they are shown in the app only')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'New sign-ups in the app' })).toHaveCount(0);
    await page.getByRole('checkbox', { name: 'Callbacks due in the app' }).uncheck();
    await expect(page.getByText('Notification settings saved')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Callbacks due in the app' })).not.toBeChecked();
    await page.screenshot({ path: 'test-results/notification-settings.png' });
    const bo = await createContactThroughApi(server, cookie, {
      firstName: 'Bo',
      lastName: 'Later',
      email: 'bo@later.example',
      phone: '(555) 010-0043',
    });
    await callBackIn(bo, 1);
    await page.waitForTimeout(4000);
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await expect(page.getByRole('menuitem')).toHaveCount(1);
    await expect(page.getByRole('menuitem', { name: /Bo Later/ })).toHaveCount(0);
  });
});

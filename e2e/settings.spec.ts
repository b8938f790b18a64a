import { expect, newWatchedPage, PASSWORD, signedInRep, signInThroughUi, test } from './fixtures.ts';

test.describe('Settings → Profile', () => {
  test('changes the name and time zone; a password change asks for the current one and signs out the other session', async ({
    page,
    server,
    browser,
    consoleErrors,
    allowConsoleErrors,
  }) => {
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

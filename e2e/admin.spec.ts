import {
  test,
  signedInAdmin,
  expect,
  signInThroughUi,
  signUpThroughApi,
  setRole,
  uniqueEmail,
  PASSWORD,
} from './fixtures.ts';
import { NO_BACKGROUND_JOBS_MESSAGE } from '#domain/admin/server-instances.ts';

test.describe('admin tools', () => {
  test('Servers lists this server, running and running background jobs, with no warning', async ({
    page,
    server,
  }) => {
    await signedInAdmin(page, server);
    const servers = page.getByRole('table', { name: 'Servers' });
    await expect(servers.getByRole('row')).toHaveCount(2);
    await expect(servers.getByRole('row').nth(1)).toContainText('Runs them');
    await expect(servers.getByRole('row').nth(1)).toContainText('Running');
    await expect(page.getByText(NO_BACKGROUND_JOBS_MESSAGE)).toHaveCount(0);
  });

  test('Debug DB shows the database, its version, migration level and row counts', async ({
    page,
    server,
  }) => {
    await signedInAdmin(page, server);
    await page.getByRole('button', { name: 'Debug DB' }).click();
    const dialog = page.getByRole('dialog', { name: 'Database diagnostics' });
    await expect(dialog.getByText(/PostgreSQL \d+/)).toBeVisible();
    await expect(dialog.getByText(/^\d{4}-[a-z-]+ \(\d+ applied\)$/)).toBeVisible();
    await expect(dialog.getByRole('row', { name: /user_profiles 1/ })).toBeVisible();
  });

  test('an admin finds an account, deactivates it, and hands over a reset link that works', async ({
    page,
    server,
    browser,
  }) => {
    const adminEmail = uniqueEmail('admin');
    await signUpThroughApi(server, adminEmail);
    const repEmail = uniqueEmail('zed-rep');
    await setRole(server, await signUpThroughApi(server, repEmail), 'user');
    await signInThroughUi(page, adminEmail);

    await page.getByLabel('Search accounts').fill('zed-rep');
    const accounts = page.getByRole('table', { name: 'All accounts' });
    await expect(accounts.getByRole('row')).toHaveCount(2);
    await page.getByRole('button', { name: `Actions for ${repEmail}` }).click();
    await page.getByRole('menuitem', { name: 'Deactivate' }).click();
    await expect(accounts.getByText('Deactivated')).toBeVisible();
    await page.getByRole('button', { name: `Actions for ${repEmail}` }).click();
    await page.getByRole('menuitem', { name: 'Reactivate' }).click();
    await expect(accounts.getByText('User', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: `Actions for ${repEmail}` }).click();
    await page.getByRole('menuitem', { name: 'Password reset link' }).click();
    const link = await page.getByLabel('Reset link', { exact: true }).inputValue();
    expect(link).toMatch(/\/reset-password\?token=/);

    const rep = await (await browser.newContext({ baseURL: server.baseUrl })).newPage();
    await rep.goto(link);
    await rep.getByLabel('New password').fill('a completely new password');
    await rep.getByRole('button', { name: 'Set new password' }).click();
    await expect(rep).toHaveURL(/\/auth$/);
    await signInThroughUi(rep, repEmail, 'a completely new password');
    await expect(rep).toHaveURL(/\/contacts$/);
    expect(PASSWORD).not.toBe('a completely new password');
    await rep.context().close();
  });
});

test.describe('a server started with background jobs off, and no other server', () => {
  test.use({ serverEnv: { BACKGROUND_JOBS: 'off' } });

  test('the administrator is told that campaigns and webhooks wait, and sees which server is off', async ({
    page,
    server,
  }) => {
    await signedInAdmin(page, server);
    await expect(page.getByRole('alert').filter({ hasText: NO_BACKGROUND_JOBS_MESSAGE })).toBeVisible();
    const servers = page.getByRole('table', { name: 'Servers' });
    await expect(servers.getByRole('row').nth(1)).toContainText('Off');
    await expect(servers.getByRole('row').nth(1)).toContainText('Running');
  });
});

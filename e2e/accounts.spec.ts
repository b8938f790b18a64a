import {
  test,
  signedInAdmin,
  expect,
  newWatchedPage,
  signInThroughUi,
  signUpThroughApi,
  signUpThroughUi,
  setRole,
  uniqueEmail,
} from './fixtures.ts';

test.describe('accounts and approval', () => {
  test('the first sign-up becomes admin; a newcomer waits; the watching admin sees the badge, approves, and the newcomer moves on', async ({
    page,
    browser,
    server,
    consoleErrors,
  }) => {
    const ownerEmail = uniqueEmail('owner');
    await signUpThroughUi(page, ownerEmail);
    await expect(page.getByText('Account Created Successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Live status' })).toHaveText(/Live updates on/);

    const newcomer = await newWatchedPage(browser, server, consoleErrors);
    const newcomerEmail = uniqueEmail('newcomer');
    await signUpThroughUi(newcomer, newcomerEmail);
    // The admin, already on /admin, is told without a reload: the badge shows for 5 s from the sign-up, so it is
    // looked for first (on a cold machine the newcomer's screen alone can take longer than that).
    await expect(page.getByText('New approval needed!')).toBeVisible();
    await expect(page.getByText(`${newcomerEmail} is waiting for approval.`)).toBeVisible();
    await expect(newcomer.getByRole('heading', { name: 'Account Pending Approval' })).toBeVisible();
    await expect(newcomer.getByText(/1-2 business days/)).toBeVisible();
    await expect(newcomer.getByRole('button', { name: 'Sign Out' })).toBeVisible();

    await expect(page.getByRole('table', { name: 'Pending users' }).getByText(newcomerEmail)).toBeVisible();
    await expect(page.getByLabel('Pending Approval', { exact: true })).toHaveText('1');
    await expect(page.getByText('New approval needed!')).toBeHidden({ timeout: 7000 });

    await page.getByRole('button', { name: `Approve ${newcomerEmail}` }).click();
    await expect(page.getByText('User approved')).toBeVisible();
    await expect(page.getByLabel('Approved Users', { exact: true })).toHaveText('2');

    // The newcomer's pending screen moves on by itself.
    await expect(newcomer.getByRole('heading', { name: 'Contacts' })).toBeVisible();
    await expect(newcomer.getByRole('link', { name: 'Admin' })).toHaveCount(0);

    // The approval notice landed in the outbox (no mail server configured).
    await expect(page.getByText('Your CallCRM account has been approved')).toBeVisible();
    await newcomer.context().close();
  });

  test('an approved person signs in and lands on /contacts', async ({ page, server }) => {
    await signUpThroughApi(server, uniqueEmail('admin'));
    const email = uniqueEmail('rep');
    const id = await signUpThroughApi(server, email);
    await setRole(server, id, 'user');
    await signInThroughUi(page, email);
    await expect(page.getByText('Welcome back!')).toBeVisible();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(page.getByRole('heading', { name: 'Contacts' })).toBeVisible();
  });

  test('a denied person loses access at once and cannot sign in again', async ({
    page,
    browser,
    server,
    consoleErrors,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 403/);
    const adminEmail = uniqueEmail('admin');
    await signUpThroughApi(server, adminEmail);
    const person = await newWatchedPage(browser, server, consoleErrors);
    const email = uniqueEmail('denied');
    await signUpThroughUi(person, email);
    await expect(person.getByRole('heading', { name: 'Account Pending Approval' })).toBeVisible();

    await signInThroughUi(page, adminEmail);
    await page.getByRole('button', { name: `Deny ${email}` }).click();
    await expect(page.getByText('User denied')).toBeVisible();

    await expect(person).toHaveURL(/\/auth$/);
    await expect(person.getByRole('alert')).toHaveText(/denied by an administrator/);
    await signInThroughUi(person, email, undefined, true);
    await expect(person.getByText('Account denied')).toBeVisible();
    await expect(person).toHaveURL(/\/auth$/);
    await person.context().close();
  });

  test('a signed-in person visiting /auth lands on /contacts; a user is kept out of /admin', async ({
    page,
    server,
  }) => {
    await signUpThroughApi(server, uniqueEmail('admin'));
    const email = uniqueEmail('rep');
    await setRole(server, await signUpThroughApi(server, email), 'user');
    await signInThroughUi(page, email);
    await expect(page).toHaveURL(/\/contacts$/);
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/contacts$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/contacts$/);
  });

  test('the Welcome card refuses empty fields and explains a wrong password', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 401/);
    const email = uniqueEmail('someone');
    await signUpThroughApi(server, email);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Please enter both email and password.')).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByLabel('Password').press('Enter');
    await expect(
      page.getByText('Invalid email or password. Please check your credentials and try again.'),
    ).toBeVisible();
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await expect(page.getByText('New accounts require admin approval')).toBeVisible();
  });

  test('signing out goes to /auth and the app is closed again', async ({ page, server }) => {
    await signedInAdmin(page, server);
    await expect(page).toHaveURL(/\/admin$/);
    await page.getByRole('button', { name: 'Log Out' }).click();
    await expect(page.getByText('Signed out successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto('/contacts');
    await expect(page).toHaveURL(/\/auth$/);
  });
});

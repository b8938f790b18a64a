import {
  test,
  expect,
  signedInAdmin,
  signInThroughUi,
  signUpThroughApi,
  setRole,
  uniqueEmail,
} from './fixtures.ts';

test.describe('app shell', () => {
  test('Ctrl+B toggles the sidebar and the state survives a reload', async ({ page, server }) => {
    await signedInAdmin(page, server);
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await expect(sidebar.getByRole('link', { name: 'Admin' })).toBeVisible();
    const labels = await sidebar.getByRole('link').allInnerTexts();
    expect(labels).toEqual(['Contacts', 'Projects', 'Power Dialer', 'Reports', 'Admin', 'Settings']);

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(48);
    await page.reload();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
    await expect.poll(async () => (await page.getByTestId('sidebar').boundingBox())?.width).toBe(256);
  });

  test('the theme choice survives a reload (dark by default)', async ({ page, server }) => {
    await signedInAdmin(page, server);
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.reload();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    // Settings opens on Profile; the theme is under Appearance.
    await page.goto('/settings');
    await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await expect(page.getByRole('radio', { name: 'Light' })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('radio', { name: 'Dark' }).click();
    await expect(page.locator('html')).toHaveClass(/dark/);
  });

  test('on a phone the sidebar is a sheet opened from the header', async ({ page, server }) => {
    await page.setViewportSize({ width: 500, height: 800 });
    const email = uniqueEmail('rep');
    await signUpThroughApi(server, uniqueEmail('admin'));
    await setRole(server, await signUpThroughApi(server, email), 'user');
    await signInThroughUi(page, email);
    await expect(page.getByRole('link', { name: 'Projects' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.getByRole('link', { name: 'Projects' }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    expect(await page.getByRole('link', { name: 'Projects', exact: true }).count()).toBe(0);
  });

  test('every route of the route table answers; /dialer and the short forms lead to their screens', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    await signedInAdmin(page, server);
    await page.goto('/dialer');
    await expect(page).toHaveURL(/\/power-dialer$/);
    await page.goto('/create-queue');
    await expect(page).toHaveURL(/\/projects\/queue\/create$/);
    // A campaign that is not there (or not yours) says so.
    allowConsoleErrors(/status of 404/);
    const missing = '00000000-0000-4000-8000-000000000042';
    await page.goto(`/edit-sms-campaign/${missing}`);
    await expect(page).toHaveURL(new RegExp(`/projects/sms/edit/${missing}$`));
    await expect(page.getByText('Error loading campaign')).toBeVisible();
    await expect(page.getByText('Campaign not found')).toBeVisible();
    await page.goto('/create-email-sequence');
    await expect(page).toHaveURL(/\/projects\/email-sequence\/create$/);
    await expect(page.getByRole('heading', { name: 'Create Email Sequence' })).toBeVisible();
    await page.goto('/reports');
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Qualified Leads' })).toBeVisible();
  });
});

test('the landing page leads to /auth from Login, Sign Up and Get Started', async ({ page }) => {
  for (const name of ['Login', 'Sign Up', 'Get Started']) {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'The sales CRM built around calling' })).toBeVisible();
    await page.getByRole('link', { name, exact: true }).first().click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByText('Welcome')).toBeVisible();
  }
});

test('the app runs under its Content-Security-Policy, and its source is served without source maps', async ({
  page,
  server,
}) => {
  // A blocked script or style (the inline theme script, the phone's SDK) is reported on the console.
  const violations: string[] = [];
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && violations.push(m.text()));
  const response = await page.goto('/');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self' 'sha256-");
  expect(csp).toContain("frame-ancestors 'none'");
  await signedInAdmin(page, server);
  await expect(page.getByTestId('sidebar')).toBeVisible();
  expect(violations).toEqual([]);

  const scripts = await page
    .locator('script[src]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('src')!));
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) {
    const code = await (await fetch(`${server.baseUrl}${src}`)).text();
    expect(code).not.toMatch(/sourceMappingURL=/);
    const map = await fetch(`${server.baseUrl}${src}.map`);
    expect(map.headers.get('content-type') ?? '').not.toMatch(/json/);
  }
});

test('a new visitor downloads only the landing screen, compressed; each screen comes when it is opened', async ({
  page,
  server,
}) => {
  const scripts: { url: string; encoding: string }[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script')
      scripts.push({ url: new URL(r.url()).pathname, encoding: r.headers()['content-encoding'] ?? '' });
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const landing = scripts.map((s) => s.url);
  expect(landing.some((u) => /landing-page-/.test(u))).toBe(true);
  for (const screen of ['call-dashboard-page', 'contacts-screen', 'admin-page', 'import-steps', 'app-shell'])
    expect(landing.filter((u) => u.includes(`/${screen}-`))).toEqual([]);
  // Chromium asks for brotli; every script of any size arrives compressed.
  const big = scripts.filter((s) => !/(sun|users|phone-call|theme-toggle)-/.test(s.url));
  expect(big.length).toBeGreaterThan(0);
  for (const s of big) expect(s.encoding, s.url).toBe('br');

  await signedInAdmin(page, server);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Contacts' }).click();
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  expect(scripts.some((s) => s.url.includes('/contacts-screen-'))).toBe(true);
  expect(scripts.some((s) => s.url.includes('/call-dashboard-page-'))).toBe(false);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Power Dialer' }).click();
  await expect(page.getByRole('heading', { name: 'Power Dialer', level: 1 })).toBeVisible();
  expect(scripts.some((s) => s.url.includes('/call-dashboard-page-'))).toBe(true);
});

test('a signed-in person opens the API reference from Settings and tries a route in it', async ({
  page,
  server,
}) => {
  const violations: string[] = [];
  await signedInAdmin(page, server);
  await page.goto('/settings?tab=integrations');
  const opened = page.context().waitForEvent('page');
  await page.getByRole('link', { name: 'Open the API reference' }).click();
  const docs = await opened;
  docs.on('console', (m) => /Content Security Policy/i.test(m.text()) && violations.push(m.text()));
  // The reference loads the whole OpenAPI document first: give a busy machine time.
  await expect(docs.getByRole('heading', { name: /CallCRM API/ })).toBeVisible({ timeout: 30_000 });
  await docs.locator('#operations-tag-contacts').click();
  const list = docs.locator('.opblock-get', { has: docs.locator('[data-path="/api/contacts"]') }).first();
  await list.locator('.opblock-summary').click();
  await list.getByRole('button', { name: 'Try it out' }).click();
  await list.getByRole('button', { name: 'Execute' }).click();
  await expect(list.locator('.live-responses-table tbody .response-col_status').first()).toHaveText('200');
  await expect(list.locator('.live-responses-table tbody')).toContainText('"contacts"');
  expect(violations).toEqual([]);

  // Signed out, the reference sends you to sign in.
  const stranger = await page.context().browser()!.newPage();
  await stranger.goto(`${server.baseUrl}/api-docs/`);
  await expect(stranger).toHaveURL(/\/auth$/);
  await stranger.close();
});

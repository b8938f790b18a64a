import { test, expect, signInThroughUi, signUpThroughApi, setRole, uniqueEmail } from './fixtures.ts';

test.describe('app shell', () => {
  test('Ctrl+B toggles the sidebar and the state survives a reload', async ({ page, server }) => {
    const email = uniqueEmail('admin');
    await signUpThroughApi(server, email);
    await signInThroughUi(page, email);
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
    const email = uniqueEmail('admin');
    await signUpThroughApi(server, email);
    await signInThroughUi(page, email);
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.reload();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.goto('/settings');
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
    expect(await page.getByRole('link', { name: 'Projects' }).count()).toBe(0);
  });

  test('every route of the route table answers; /dialer and the short forms lead to their screens', async ({
    page,
    server,
  }) => {
    const email = uniqueEmail('admin');
    await signUpThroughApi(server, email);
    await signInThroughUi(page, email);
    await page.goto('/dialer');
    await expect(page).toHaveURL(/\/power-dialer$/);
    await page.goto('/create-queue');
    await expect(page).toHaveURL(/\/projects\/queue\/create$/);
    await page.goto('/edit-sms-campaign/42');
    await expect(page).toHaveURL(/\/projects\/sms\/edit\/42$/);
    for (const [path, title] of [
      ['/reports/dashboard', 'Call Reports'],
      ['/projects/email-sequence/create', 'Create Email Sequence'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
      await expect(page.getByText('Not available yet')).toBeVisible();
    }
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
  const email = uniqueEmail('admin');
  await signUpThroughApi(server, email);
  await signInThroughUi(page, email);
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

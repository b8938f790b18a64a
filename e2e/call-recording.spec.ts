import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test('a rep turns call recording on: a California contact hears the disclosure, a Texas one does not, and both calls play back', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
  // Fictional numbers (ending in 6: a person answers and talks 30 s); the contact's own state decides the rule.
  const california = await createContactThroughApi(server, cookie, {
    firstName: 'Cal',
    lastName: 'Ifornia',
    email: 'cal@ca.example',
    phone: '(555) 010-0106',
    state: 'CA',
  });
  const texas = await createContactThroughApi(server, cookie, {
    firstName: 'Tex',
    lastName: 'Ashby',
    email: 'tex@tx.example',
    phone: '(555) 010-0116',
    state: 'TX',
  });

  await page.goto('/settings?tab=phone');
  const card = page.getByRole('region', { name: 'Call recording' });
  await expect(card.getByLabel('Record my calls')).not.toBeChecked();
  await card.getByLabel('Record my calls').check();
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Call recording settings saved')).toBeVisible();

  for (const [id, note] of [
    [california, 'Recorded · they hear first: “This call is recorded.”'],
    [texas, 'Recorded · no disclosure needed (one-party consent)'],
  ] as const) {
    await page.goto(`/contacts/${id}`);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Current call' });
    await expect(panel.getByRole('note')).toHaveText(note);
    if (id === california) await page.screenshot({ path: test.info().outputPath('recorded-call.png') });
    await expect(panel).toContainText('Call ended', { timeout: 20_000 });
    await panel.getByRole('radio', { name: 'Answered' }).check();
    await panel.getByRole('button', { name: 'Save disposition' }).click();
    await expect(panel).toHaveCount(0);
    const call = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').first();
    await expect(call.getByLabel(/^Call recording \(0:\d\d\)$/)).toBeVisible({ timeout: 15_000 });
  }

  await page.goto('/power-dialer');
  const history = page.getByRole('region', { name: 'Call History' });
  await expect(history.getByLabel(/^Call recording, Cal Ifornia/)).toBeVisible();
  await expect(history.getByLabel(/^Call recording, Tex Ashby/)).toBeVisible();
});

test.describe('a call coming in', () => {
  // The caller rings for 25 real seconds: time to answer however busy the machine is.
  test.use({ simulatorTimeScale: '1' });

  test('is recorded when recording is on, a California caller hearing the disclosure first', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server);
    const saved = await fetch(`${server.baseUrl}/api/recording-settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({ recordCalls: true, retentionDays: 90 }),
    });
    expect(saved.status).toBe(200);

    await page.goto('/settings?tab=phone');
    const simulate = page.getByRole('form', { name: 'Simulate incoming call' });
    await simulate.getByLabel("Caller's number").fill('(415) 555-0171');
    await simulate.getByRole('button', { name: 'Simulate incoming call' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Answer' }).click();
    const panel = page.getByRole('region', { name: 'Current call' });
    await expect(panel.getByRole('note')).toHaveText('Recorded · they hear first: “This call is recorded.”');
    await expect(panel).toContainText('0:02');
    await panel.getByRole('button', { name: 'END CALL' }).click();
    await expect(panel).toContainText('Call ended');

    await page.goto('/power-dialer');
    const history = page.getByRole('region', { name: 'Call History' });
    await expect(history.getByLabel(/^Call recording, \+1 \(415\) 555-0171/)).toBeVisible({
      timeout: 15_000,
    });
  });
});

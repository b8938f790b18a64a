import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test.describe('incoming calls', () => {
  test.describe('answered', () => {
    // Real time: the call rings for 25 s, long enough to look at it in two tabs and answer.
    test.use({ simulatorTimeScale: '1' });
    test('a contact calls: both open tabs pop them up with their last call, the second tab answers and the first stops ringing', async ({
      page,
      server,
    }) => {
      test.setTimeout(120_000);
      const { cookie } = await signedInRep(page, server);
      const ada = await createContactThroughApi(server, cookie, {
        firstName: 'Ada',
        lastName: 'Byron',
        email: 'ada@byron.example',
        phone: '(720) 555-0177',
        company: 'Analytical Engines',
      });
      const saved = await fetch(`${server.baseUrl}/api/dispositions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
        body: JSON.stringify({
          contactId: ada,
          disposition: 'answered',
          notes: 'Wants the annual plan quote',
        }),
      });
      expect(saved.status).toBe(201);

      const second = await page.context().newPage();
      await second.goto('/contacts');
      await page.goto('/settings?tab=phone');
      const simulate = page.getByRole('form', { name: 'Simulate incoming call' });
      await simulate.getByLabel("Caller's number").fill('(720) 555-0177');
      await simulate.getByRole('button', { name: 'Simulate incoming call' }).click();

      for (const tab of [page, second]) {
        const ringing = tab.getByRole('alertdialog', { name: 'Incoming call from Ada Byron' });
        await expect(ringing).toBeVisible();
        await expect(ringing).toContainText('+1 (720) 555-0177 · Colorado · Analytical Engines');
        await expect(ringing).toContainText('Last disposition: Answered');
        await expect(ringing).toContainText('Wants the annual plan quote');
      }
      await page.screenshot({ path: test.info().outputPath('incoming-call.png') });

      await second.getByRole('alertdialog').getByRole('button', { name: 'Answer' }).click();
      const panel = second.getByRole('region', { name: 'Current call' });
      await expect(panel).toContainText('Ada Byron');
      await expect(panel).toContainText(/Incoming call to \+1 \(\d{3}\) \d{3}-\d{4}/);
      await expect(panel).toContainText('Connected');
      // Answered in the other tab: this one stops ringing.
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await second.screenshot({ path: test.info().outputPath('incoming-call-answered.png') });

      await panel.getByRole('button', { name: 'END CALL' }).click();
      await expect(panel).toContainText('Call ended');
      await panel.getByRole('radio', { name: 'Answered' }).check();
      await panel.getByRole('button', { name: 'Save disposition' }).click();
      await expect(panel).toHaveCount(0);

      await page.goto('/power-dialer');
      const history = page.getByRole('region', { name: 'Call History' });
      await expect(history.getByRole('listitem').filter({ hasText: 'Ada Byron' }).first()).toContainText(
        'Incoming',
      );
      // And in the contact's own history.
      await page.goto(`/contacts/${ada}`);
      await expect(page.getByRole('list', { name: 'Calls' }).getByRole('listitem').first()).toContainText(
        'Incoming',
      );
    });
  });

  test('an unknown caller nobody answers: missed, a notification, and Add Contact with their number', async ({
    page,
    server,
  }) => {
    await signedInRep(page, server);
    await page.goto('/power-dialer');
    const simulate = page.getByRole('form', { name: 'Simulate incoming call' });
    await simulate.getByLabel("Caller's number").fill('(212) 555-0199');
    await simulate.getByLabel('If nobody answers').selectOption({ label: 'The caller hangs up at the tone' });
    await simulate.getByRole('button', { name: 'Simulate incoming call' }).click();
    const ringing = page.getByRole('alertdialog', { name: 'Incoming call from Unknown caller' });
    await expect(ringing).toBeVisible();
    await expect(ringing).toContainText('+1 (212) 555-0199 · New York');
    await expect(ringing.getByRole('link', { name: 'Add Contact' })).toBeVisible();

    // 25 s at the simulator's pace: nobody answers, the call is missed.
    await expect(ringing).toHaveCount(0, { timeout: 15_000 });
    const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
    await expect(bell).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'Call History' })
        .getByRole('listitem')
        .filter({ hasText: '555-0199' }),
    ).toContainText('Missed');
    await bell.click();
    await page.screenshot({ path: test.info().outputPath('missed-call.png') });
    await page.getByRole('menuitem', { name: /Missed call from \+1 \(212\) 555-0199/ }).click();
    await expect(page).toHaveURL(/\/contacts\/new\?phone=%2B12125550199$/);
    await expect(page.getByLabel('Phone')).toHaveValue('+12125550199');
  });
});

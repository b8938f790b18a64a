import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test.describe('voicemail drop', () => {
  // Real time: a machine answers after 2 s, its greeting ends 2.5 s later and it records for 30 s, time enough to
  // choose the message however busy the machine running the browser is.
  test.use({ simulatorTimeScale: '1' });
  test('a rep records a message, drops it on a machine in one click and is free at once; a contact without consent is refused', async ({
    page,
    server,
    allowConsoleErrors,
  }) => {
    test.setTimeout(120_000);
    // The refusal for the contact without consent is a 409 the browser logs.
    allowConsoleErrors(/status of 409/);
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    // Fictional numbers ending in 3: an answering machine picks up.
    const consenting = await createContactThroughApi(server, cookie, {
      firstName: 'Mona',
      lastName: 'Chine',
      email: 'mona@tx.example',
      phone: '(555) 010-0103',
      state: 'TX',
    });
    const given = await fetch(`${server.baseUrl}/api/contacts/${consenting}/consent/express`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({ givenOn: '2026-10-01', source: 'Web form' }),
    });
    expect(given.status).toBe(201);
    const unconsenting = await createContactThroughApi(server, cookie, {
      firstName: 'Noel',
      lastName: 'Consent',
      email: 'noel@tx.example',
      phone: '(555) 010-0113',
      state: 'TX',
    });

    // The message, recorded in the browser (Chromium's test microphone plays a tone).
    await page.goto('/settings?tab=phone');
    const card = page.getByRole('region', { name: 'Voicemail drop' });
    await expect(card).toContainText('No messages yet.');
    await card.getByLabel('New message’s name').fill('First touch');
    await card.getByRole('button', { name: 'Record a message' }).click();
    await expect(card.getByRole('status')).toContainText('Recording… 0:02');
    await card.getByRole('button', { name: 'Stop' }).click();
    await card.getByRole('button', { name: 'Save recording' }).click();
    await expect(page.getByText('Voicemail message saved')).toBeVisible();
    await expect(card.getByRole('list', { name: 'Your voicemail messages' })).toContainText('First touch');
    await expect(card.getByLabel(/Voicemail message First touch \(0:0[23]\)/)).toBeVisible();

    // A machine answers Mona's number: one click leaves the message, and the rep is off the call at once.
    await page.goto(`/contacts/${consenting}`);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Current call' });
    await expect(panel).toContainText('Answered by a machine (voicemail)', { timeout: 15_000 });
    const drop = panel.getByRole('group', { name: 'Voicemail drop' });
    await expect(drop.getByLabel('Voicemail message')).toHaveValue(/.+/);
    await expect(drop.getByRole('option', { name: /First touch \(0:0[23]\)/ })).toBeAttached();
    await page.screenshot({ path: test.info().outputPath('voicemail-drop-panel.png') });
    await drop.getByRole('button', { name: 'Drop voicemail' }).click();
    await expect(page.getByText('Voicemail left', { exact: true })).toBeVisible();
    await expect(panel).toHaveCount(0);
    const logged = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').first();
    await expect(logged).toContainText('Voicemail');
    await expect(logged).toContainText(/Voicemail left: “First touch” \(0:0[23]\)/);
    await page.screenshot({ path: test.info().outputPath('voicemail-drop-logged.png') });

    // Noel gave no express consent: the prerecorded message is refused, with the reason, and the rep stays on.
    await page.goto(`/contacts/${unconsenting}`);
    // The contact page says so beforehand.
    await expect(
      page.getByRole('list', { name: 'What may reach this contact now' }).getByRole('listitem').filter({
        hasText: 'Voicemail drop',
      }),
    ).toContainText('Not allowed');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(panel).toContainText('Answered by a machine (voicemail)', { timeout: 15_000 });
    await panel.getByRole('button', { name: 'Drop voicemail' }).click();
    await expect(page.getByText('Could not drop the voicemail')).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: /^Notifications/ })
        .getByText(/a prerecorded message needs the contact’s prior express consent/),
    ).toBeVisible();
    await expect(panel.getByRole('button', { name: 'END CALL' })).toBeVisible();
    await panel.getByRole('button', { name: 'END CALL' }).click();
    await expect(panel).toContainText('Call ended', { timeout: 15_000 });
  });
});

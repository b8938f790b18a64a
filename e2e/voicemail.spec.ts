import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test.describe('voicemail', () => {
  test('a rep writes and records a greeting; a contact nobody answers leaves a voicemail the rep plays and seeks', async ({
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

    // The greeting: written, then recorded in the browser (Chromium's test microphone plays a tone).
    await page.goto('/settings?tab=phone');
    const card = page.getByRole('region', { name: 'Voicemail greeting' });
    await expect(card).toContainText('Callers now hear the default greeting');
    await card
      .getByRole('textbox', { name: 'Written greeting' })
      .fill('You reached Sam at Acme. Please leave a message.');
    await card.getByRole('button', { name: 'Save greeting' }).click();
    await expect(page.getByText('Greeting saved')).toBeVisible();
    await expect(card).toContainText('Callers now hear your written greeting');

    await card.getByRole('button', { name: 'Record greeting' }).click();
    await expect(card.getByRole('status')).toContainText('Recording… 0:02');
    await card.getByRole('button', { name: 'Stop' }).click();
    await expect(card.getByLabel('New recording')).toBeVisible();
    await card.getByRole('button', { name: 'Save recording' }).click();
    await expect(page.getByText('Recorded greeting saved')).toBeVisible();
    await expect(card).toContainText(/Callers now hear your recorded greeting \(0:0[23]\)/);
    await expect(card.getByLabel(/Your recorded greeting/)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('voicemail-greeting.png') });

    // Ada calls; nobody answers; she leaves six seconds.
    const simulate = page.getByRole('form', { name: 'Simulate incoming call' });
    await simulate.getByLabel("Caller's number").fill('(720) 555-0177');
    await simulate.getByRole('button', { name: 'Simulate incoming call' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Incoming call from Ada Byron' })).toBeVisible();
    const bell = page.getByRole('button', { name: 'Notifications, 2 unread' });
    await expect(bell).toBeVisible({ timeout: 20_000 });
    await bell.click();
    await page.getByRole('menuitem', { name: /Voicemail from Ada Byron \(0:06\)/ }).click();
    await expect(page).toHaveURL(new RegExp(`/contacts/${ada}$`));

    const call = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').first();
    await expect(call).toContainText('Missed');
    const player = call.getByLabel('Voicemail (0:06)');
    await expect(player).toBeVisible();
    // The browser loads it from the server and seeks into it (a range request).
    const loaded = await player.evaluate(async (element) => {
      const audio = element as HTMLAudioElement;
      audio.preload = 'metadata';
      audio.load();
      await new Promise((resolve, reject) => {
        audio.onloadedmetadata = resolve;
        audio.onerror = () => reject(new Error(`audio error ${audio.error?.code}`));
      });
      audio.currentTime = 4;
      await new Promise((resolve) => (audio.onseeked = resolve));
      return { duration: audio.duration, at: audio.currentTime };
    });
    expect(loaded.duration).toBeCloseTo(6, 0);
    expect(loaded.at).toBeCloseTo(4, 0);
    await page.screenshot({ path: test.info().outputPath('voicemail-on-contact.png') });

    await page.goto('/power-dialer');
    const line = page
      .getByRole('region', { name: 'Call History' })
      .getByRole('listitem')
      .filter({ hasText: 'Ada Byron' });
    await expect(line).toContainText('Missed');
    await expect(line.getByLabel('Voicemail from Ada Byron (0:06)')).toBeVisible();
  });

  test.describe('declined', () => {
    // Real time: the call rings for 25 s, so Decline comes first however busy the machine; the message takes 9 s.
    test.use({ simulatorTimeScale: '1' });
    test('a rep declines a ringing call: it stops ringing at once and the caller leaves a voicemail', async ({
      page,
      server,
    }) => {
      test.setTimeout(90_000);
      await signedInRep(page, server);
      await page.goto('/power-dialer');
      const simulate = page.getByRole('form', { name: 'Simulate incoming call' });
      await simulate.getByLabel("Caller's number").fill('(212) 555-0142');
      await simulate.getByRole('button', { name: 'Simulate incoming call' }).click();
      const ringing = page.getByRole('alertdialog', { name: 'Incoming call from Unknown caller' });
      await ringing.getByRole('button', { name: 'Decline' }).click();
      await expect(page.getByText('Call declined')).toBeVisible();
      await expect(ringing).toHaveCount(0);
      const line = page
        .getByRole('region', { name: 'Call History' })
        .getByRole('listitem')
        .filter({ hasText: '555-0142' });
      await expect(line).toContainText('Missed');
      await expect(line.getByLabel('Voicemail from +1 (212) 555-0142 (0:06)')).toBeVisible({
        timeout: 30_000,
      });
    });
  });
});

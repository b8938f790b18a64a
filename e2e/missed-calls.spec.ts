import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test('missed calls wait on the power dialer until the rep calls back or marks them done', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
  await createContactThroughApi(server, cookie, {
    firstName: 'Ada',
    lastName: 'Byron',
    email: 'ada@byron.example',
    phone: '(555) 010-0177',
    company: 'Analytical Engines',
  });

  await page.goto('/power-dialer');
  const simulate = page.getByRole('form', { name: 'Simulate incoming call' });
  const missedCall = async (from: string, voicemail: '6' | '0') => {
    await simulate.getByLabel("Caller's number").fill(from);
    await simulate.getByLabel('If nobody answers').selectOption(voicemail);
    await simulate.getByRole('button', { name: 'Simulate incoming call' }).click();
    // Nobody answers: it rings 25 s (at the simulator's pace), then it is missed.
    await expect(page.getByRole('alertdialog', { name: /Incoming call from/ })).toBeVisible();
    await expect(page.getByRole('alertdialog', { name: /Incoming call from/ })).toHaveCount(0, {
      timeout: 20_000,
    });
  };
  await missedCall('(555) 010-0177', '6');
  await missedCall('(555) 010-0177', '0');
  await missedCall('(212) 555-0142', '0');

  const card = page.getByRole('region', { name: 'Missed calls to return' });
  const ada = card.getByRole('listitem').filter({ hasText: 'Ada Byron' });
  await expect(ada).toContainText('2 missed calls');
  await expect(ada.getByLabel('Voicemail from Ada Byron (0:06)')).toBeVisible({ timeout: 20_000 });
  const stranger = card.getByRole('listitem').filter({ hasText: '(212) 555-0142' });
  await expect(stranger).toContainText('Missed');
  await page.screenshot({ path: test.info().outputPath('missed-calls.png') });

  // Done with the stranger; Ada is called back, and her line goes once the call is placed.
  await stranger.getByRole('button', { name: 'Done with +1 (212) 555-0142' }).click();
  await expect(stranger).toHaveCount(0);
  await ada.getByRole('button', { name: 'Call back' }).click();
  const panel = page.getByRole('region', { name: 'Current call' });
  await expect(panel).toContainText('Ada Byron');
  await expect(card).toHaveCount(0);
});

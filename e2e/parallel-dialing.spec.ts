import { adminQuery } from '../server/test/test-postgres.ts';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

// Real time: a person answers after 3 s and is detected a second later; an unanswered number rings for 8 s.
test.use({ simulatorTimeScale: '1' });

test.describe('parallel dialing', () => {
  test('a rep switches a queue to Parallel, watches three lines ring, talks to the first person while the others are released or get Voicemail, pauses and resumes, with the keyboard', async ({
    page,
    server,
  }) => {
    test.setTimeout(150_000);
    const { cookie, userId } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const ids: Record<string, string> = {};
    // The simulator's numbers: …3 a machine answering after 2 s, …4 a person after 3 s, …5 a person after 4.5 s,
    // …1 nobody.
    for (const [first, phone] of [
      ['Cal', '(555) 010-2013'],
      ['Ada', '(555) 010-2004'],
      ['Ben', '(555) 010-2011'],
      ['Dee', '(555) 010-2025'],
    ] as const)
      ids[first] = await createContactThroughApi(server, cookie, {
        firstName: first,
        lastName: 'Lines',
        email: `${first.toLowerCase()}@lines.example`,
        phone,
      });
    const queued = await fetch(`${server.baseUrl}/api/queues`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({ name: 'Parallel queue', selection: { ids: Object.values(ids) } }),
    });
    expect(queued.status).toBe(201);
    const queueId = ((await queued.json()) as { queue: { id: string } }).queue.id;
    // This morning's 198 dials from this queue, 66 of them reaching a person: one in three answers, so three lines,
    // and live answers enough for the cap to allow them (a new queue rings one line until it has 32).
    await adminQuery(
      server.databaseUrl,
      `insert into calls (user_id, request_id, provider, from_number, to_number, status, started_at, updated_at,
         queue_id, answered_by)
       select '${userId}', 'hist' || lpad(g::text, 4, '0'), 'simulator', '+15550100000', '+1555020' || lpad(g::text, 4, '0'),
         'completed', now() - interval '10 hours', now() - interval '10 hours', '${queueId}',
         case when g % 3 = 0 then 'human' else null end
       from generate_series(1, 198) g`,
    );

    await page.goto(`/dialer-window?queue=${queueId}`);
    const mode = page.getByRole('group', { name: 'Dialing mode' });
    await expect(mode.getByRole('button', { name: 'Power' })).toHaveAttribute('aria-pressed', 'true');
    await mode.getByRole('button', { name: 'Parallel' }).click();
    await expect(mode.getByRole('button', { name: 'Parallel' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Next round')).toContainText('3 lines: 33 % of recent dials reach a person');
    await expect(page.getByLabel('Abandonment rate')).toContainText(
      'Abandoned calls: 0 % over 30 days (0 of 66 live answers)',
    );

    await page.getByRole('button', { name: 'Start dialing' }).click();
    const lines = page.getByRole('list', { name: 'Lines' }).getByRole('listitem');
    await expect(lines).toHaveCount(3);
    await expect(lines.nth(0)).toContainText('Cal Lines');
    await expect(lines.nth(1)).toContainText('Ada Lines');
    await expect(lines.nth(2)).toContainText('Ben Lines');
    await expect(lines.filter({ hasText: 'Ringing' })).toHaveCount(3);
    await page.screenshot({ path: test.info().outputPath('three-lines-ringing.png') });

    // Cal's machine answers first: the other two go back to the queue at once (Cal gets Voicemail by itself once
    // detection hears the beep, and the next round follows).
    await expect(lines.nth(1)).toContainText('Released (back in the queue)');
    await expect(lines.nth(2)).toContainText('Released (back in the queue)');

    // The next round rings by itself: Ada answers first and is the live call; Ben and Dee are released.
    const current = page.getByRole('region', { name: 'Current call' });
    await expect(current).toContainText('Ada Lines', { timeout: 15_000 });
    await expect(lines.nth(0)).toContainText('Connected to you');
    await expect(lines.filter({ hasText: 'Released (back in the queue)' })).toHaveCount(2);
    await page.screenshot({ path: test.info().outputPath('connected.png') });

    // Esc ends the call, 7 chooses Qualified Lead, Enter saves.
    await page.keyboard.press('Escape');
    await expect(current).toContainText(/Completed|Call ended/i, { timeout: 10_000 });
    await page.keyboard.press('7');
    await expect(current.getByRole('radio', { name: 'Qualified Lead' })).toBeChecked();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Disposition saved')).toBeVisible();

    // The next round rings at once (Ben and Dee); Space pauses it before anyone answers.
    await expect(lines.filter({ hasText: 'Dee Lines' })).toHaveCount(1, { timeout: 10_000 });
    await expect(lines.filter({ hasText: 'Ada Lines' })).toHaveCount(0);
    await page.keyboard.press(' ');
    await expect(page.getByRole('button', { name: 'Start dialing' })).toBeVisible();
    await expect(lines.filter({ hasText: 'Released (back in the queue)' })).toHaveCount(2);

    // Space resumes: Dee answers (Ben, still ringing, is released) and is the live call.
    await page.keyboard.press(' ');
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(current).toContainText('Dee Lines', { timeout: 15_000 });
    await page.keyboard.press('Escape');
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Disposition saved').first()).toBeVisible();

    // Ben, alone, rings out with No Answer; then nobody is left.
    await expect(page.getByText('All contacts have been called')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByLabel('Abandonment rate')).toContainText(
      '0 % over 30 days (0 of 68 live answers)',
    );

    // The call log shows what the dialer filled in by itself.
    await page.goto('/power-dialer');
    const history = page.getByRole('region', { name: 'Call History' });
    await expect(history.getByRole('listitem').filter({ hasText: 'Cal Lines' }).first()).toContainText(
      'voicemail',
    );
    await expect(history.getByRole('listitem').filter({ hasText: 'Ben Lines' }).first()).toContainText(
      'no answer',
    );

    // What happened is in the records: Cal's voicemail and Ben's no answer were dispositioned by themselves.
    const { rows } = await adminQuery(
      server.databaseUrl,
      `select c.first_name, d.disposition from call_dispositions d join contacts c on c.id = d.contact_id
       where d.user_id = '${userId}' order by c.first_name`,
    );
    expect(
      rows.map((r: { first_name: string; disposition: string }) => `${r.first_name} ${r.disposition}`),
    ).toEqual(['Ada qualified', 'Ben no-answer', 'Cal voicemail', 'Dee answered']);
  });
});

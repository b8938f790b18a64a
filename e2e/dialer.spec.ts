import { createContactThroughApi, expect, signedInRep, test, type Server } from './fixtures.ts';

const createTemplate = async (server: Server, cookie: string) => {
  const response = await fetch(`${server.baseUrl}/api/email/templates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
    body: JSON.stringify({
      name: 'Nice to meet you',
      subject: 'Hello {{firstName}}',
      content: 'Hi {{firstName}}!',
    }),
  });
  if (response.status !== 201) throw new Error(`template create failed: ${response.status}`);
};

test.describe('the browser dialer on the simulator', () => {
  // Digits, mute and speaker all happen during one answered call: it lasts 15 s here, not 3.
  test.use({ simulatorTimeScale: '0.5' });

  test('walks All Synced Contacts: call the next one, send digits, end the call, save the disposition, and on to Queue completed', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await createContactThroughApi(server, cookie, {
      firstName: 'Ada',
      lastName: 'Answer',
      email: 'ada@a.example',
      phone: '(555) 010-0005',
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Bo',
      lastName: 'Busy',
      email: 'bo@b.example',
      phone: '(555) 010-0010',
    });
    await page.goto('/power-dialer');
    await page.getByRole('button', { name: 'Power Dialer', exact: true }).click();
    const dialer = page.getByRole('dialog', { name: 'Browser Dialer' });
    await expect(dialer.getByLabel('Phone status')).toHaveText('Ready');
    await expect(dialer.getByLabel('Queue')).toHaveText('Queue: 2 remaining');

    for (let round = 0; round < 2; round += 1) {
      const next = dialer.getByRole('button', { name: /^Call (Ada Answer|Bo Busy)$/ });
      const name = /Ada Answer|Bo Busy/.exec((await next.textContent()) ?? '')![0];
      await next.click();
      await expect(page.getByText('Call initiated')).toBeVisible();
      const inCall = dialer.getByRole('region', { name: 'In call' });
      await expect(inCall).toContainText(name);
      const disposition = dialer.getByRole('tab', { name: 'Disposition' });
      if (name === 'Ada Answer') {
        // Connected: the device goes on call and the Disposition tab opens by itself.
        await expect(dialer.getByLabel('Phone status')).toHaveText('On call');
        await expect(disposition).toHaveAttribute('aria-selected', 'true');
        await dialer.getByRole('tab', { name: 'Dialer' }).click();
        await dialer.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: '5' }).click();
        await expect(dialer.getByLabel('Digits sent')).toHaveText('Sent: 5');
        // Mute and speaker: the simulator has no sound, but keeps and shows the state.
        await inCall.getByRole('button', { name: 'Mute' }).click();
        await expect(page.getByText('Microphone muted')).toBeVisible();
        await expect(inCall.getByRole('button', { name: 'Unmute' })).toHaveAttribute('aria-pressed', 'true');
        await inCall.getByRole('button', { name: 'Speaker', exact: true }).click();
        await expect(page.getByText('Speaker off', { exact: true }).first()).toBeVisible();
        await expect(inCall.getByRole('button', { name: 'Speaker off' })).toHaveAttribute(
          'aria-pressed',
          'true',
        );
        await inCall.getByRole('button', { name: 'END CALL' }).click();
        await expect(page.getByText('Please select a disposition and save the call log')).toBeVisible();
        await expect(dialer.getByLabel('Phone status')).toHaveText('Ready');
        await dialer.getByRole('tab', { name: 'Notes' }).click();
        await dialer.getByRole('textbox', { name: 'Notes' }).fill('Call again in spring');
        await disposition.click();
        await expect(dialer.getByRole('textbox', { name: 'Notes' })).toHaveValue('Call again in spring');
        await dialer.getByRole('radio', { name: 'Answered' }).check();
      } else {
        await expect(inCall.getByText('Busy', { exact: true })).toBeVisible({ timeout: 15_000 });
        await expect(disposition).toHaveAttribute('aria-selected', 'true');
        await dialer.getByRole('radio', { name: 'Busy' }).check();
      }
      await dialer.getByRole('button', { name: 'Save disposition' }).click();
      await expect(page.getByText('Disposition saved').first()).toBeVisible();
      await expect(dialer.getByLabel('Queue')).toHaveText(`Queue: ${1 - round} remaining`);
    }
    await expect(page.getByText('Queue completed')).toBeVisible();
    await expect(dialer.getByText('All contacts have been called')).toBeVisible();

    await dialer.getByRole('button', { name: 'Close' }).last().click();
    const history = page.getByRole('region', { name: 'Call History' });
    await expect(history).toContainText('Ada Answer');
    await expect(history).toContainText('Bo Busy');
  });

  test('a call answered by a machine says so, and Voicemail is proposed as its outcome', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    // On the simulator a number ending in 3 reaches an answering machine (README "Calling").
    const id = await createContactThroughApi(server, cookie, {
      firstName: 'Max',
      lastName: 'Machine',
      email: 'max@m.example',
      phone: '(555) 010-0013',
    });
    await page.goto('/power-dialer');
    await page.getByRole('button', { name: 'Power Dialer', exact: true }).click();
    const dialer = page.getByRole('dialog', { name: 'Browser Dialer' });
    // As a rep would, call once the phone says Ready (before, a call is refused: 'Device Not Ready').
    await expect(dialer.getByText('Ready', { exact: true })).toBeVisible();
    await dialer.getByRole('button', { name: 'Call Max Machine' }).click();
    const inCall = dialer.getByRole('region', { name: 'In call' });
    await expect(inCall.getByText('Answered by a machine (voicemail)')).toBeVisible({ timeout: 15_000 });
    await dialer.getByRole('tab', { name: 'Disposition' }).click();
    await expect(dialer.getByRole('radio', { name: 'Voicemail' })).toBeChecked();
    await expect(
      dialer.getByText('Proposed from the call: Voicemail. Choose another to change it.'),
    ).toBeVisible();
    await inCall.getByRole('button', { name: 'END CALL' }).click();
    await dialer.getByRole('button', { name: 'Save disposition' }).click();
    await expect(page.getByText('Disposition saved').first()).toBeVisible();
    await expect(page.getByText('Queue completed')).toBeVisible();
    // The contact's call history keeps who answered.
    await page.goto(`/contacts/${id}`);
    const calls = page.getByRole('list', { name: 'Calls' });
    await expect(calls).toContainText('Answering machine');
    await expect(calls).toContainText('Voicemail');
  });

  test('Contacts tab: add a contact with its rules and an e-mail from a template, then call it; a contact without a phone', async ({
    page,
    server,
  }) => {
    // A contact added, an e-mail written and a call made in one dialer: near a minute beside another journey.
    test.slow();
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await createTemplate(server, cookie);
    await createContactThroughApi(server, cookie, {
      firstName: 'Nia',
      lastName: 'Nophone',
      email: 'nia@n.example',
    });
    await page.goto('/power-dialer');
    await page.getByRole('button', { name: 'Power Dialer', exact: true }).click();
    const dialer = page.getByRole('dialog', { name: 'Browser Dialer' });
    // The walk skips a contact without a phone, and says so.
    const toasts = page.getByRole('region', { name: /Notifications/ });
    await expect(toasts.getByText('Skipped Nia Nophone')).toBeVisible();
    await dialer.getByRole('tab', { name: 'Contacts' }).click();
    await expect(dialer.getByLabel('Contact count')).toHaveText('1 contacts');
    await expect(dialer.getByRole('region', { name: 'Skipped contacts' })).toContainText(
      'Nia Nophone: No phone number',
    );
    await dialer.getByRole('button', { name: 'Call Nia Nophone' }).click();
    await expect(toasts.getByText('No phone number', { exact: true }).last()).toBeVisible();

    await dialer.getByRole('button', { name: 'Add Contact' }).click();
    const form = dialer.getByRole('form', { name: 'Add New Contact' });
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await expect(page.getByText('Required fields missing')).toBeVisible();
    await form.getByRole('textbox', { name: 'First name', exact: true }).fill('Paz');
    await form.getByRole('textbox', { name: 'Last name', exact: true }).fill('Phone');
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await expect(page.getByText('Either phone number or email is required')).toBeVisible();
    await form.getByRole('textbox', { name: 'Phone', exact: true }).fill('(555) 010-0007');
    const send = form.getByRole('checkbox', { name: 'Send an email' });
    await expect(send).toBeDisabled();
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill('paz@p.example');
    await send.check();
    await expect(form.getByLabel('Template')).toHaveValue(/.+/);
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await expect(page.getByText('Contact added')).toBeVisible();
    await expect(page.getByText('Email saved to outbox')).toBeVisible();
    await expect(dialer.getByLabel('Contact count')).toHaveText('2 contacts');
    const list = dialer.getByRole('list', { name: 'Dialer contacts' });
    await dialer.getByRole('textbox', { name: 'Search contacts' }).fill('nophone');
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Nia Nophone');
    await dialer.getByRole('textbox', { name: 'Search contacts' }).fill('');
    await expect(list.getByRole('listitem')).toHaveCount(2);

    await dialer.getByRole('button', { name: 'Call Paz Phone' }).click();
    await expect(dialer.getByRole('region', { name: 'In call' })).toContainText('Paz Phone');
    await expect(dialer.getByLabel('Phone status')).toHaveText('On call', { timeout: 15_000 });

    await page.goto('/outbox');
    await expect(page.getByText('Hello Paz')).toBeVisible();
  });
});

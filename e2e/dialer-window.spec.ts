import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

test.describe('the pop-out dialer window', () => {
  test('calls through the queue in a pop-out: call, disposition, Mark as Completed, contacts from the opener and the CRM, then the end', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const made: Record<string, string> = {};
    for (const [first, phone] of [
      ['Pia', '(555) 010-0111'],
      ['Quinn', '(555) 010-0121'],
    ] as const)
      made[first] = await createContactThroughApi(server, cookie, {
        firstName: first,
        lastName: 'Window',
        email: `${first.toLowerCase()}@w.example`,
        phone,
        company: 'Popout Ltd',
        title: 'Buyer',
      });
    // A queue of their own, chosen on the dashboard: the pop-out walks it (not All Synced Contacts).
    const queued = await fetch(`${server.baseUrl}/api/queues`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({ name: 'Window queue', selection: { ids: [made.Pia, made.Quinn] } }),
    });
    expect(queued.status).toBe(201);
    await page.goto('/power-dialer');
    await page.getByRole('button', { name: 'Select Campaign' }).click();
    await page
      .getByRole('dialog', { name: 'Select Calling Queue' })
      .getByRole('button', { name: /^Window queue/ })
      .click();
    await page
      .getByRole('dialog', { name: 'Browser Dialer' })
      .getByRole('button', { name: 'Close' })
      .last()
      .click();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Pop-out Dialer' }).click(),
    ]);
    await expect(popup.getByRole('heading', { name: 'Browser Dialer' })).toBeVisible();
    const card = popup.getByRole('region', { name: 'Current contact' });
    await expect(card).toContainText('Pia Window');
    await expect(card).toContainText('Popout Ltd');
    await expect(card).toContainText('Buyer');
    await expect(popup.getByLabel('Remaining calls')).toHaveText('2 remaining');

    await card.getByRole('button', { name: 'Call Contact' }).click();
    const current = popup.getByRole('region', { name: 'Current call' });
    await expect(current).toContainText('Pia Window');
    await expect(current.getByRole('radio', { name: 'No Answer' })).toBeVisible();
    await expect(current.getByText('No answer', { exact: false }).first()).toBeVisible({ timeout: 15_000 });
    await current.getByRole('radio', { name: 'No Answer' }).check();
    await current.getByRole('button', { name: 'Save disposition' }).click();
    await expect(card).toContainText('Quinn Window');
    await expect(popup.getByLabel('Remaining calls')).toHaveText('Last contact');

    // The opener sends contacts by message: they join the window's queue.
    const late = await createContactThroughApi(server, cookie, {
      firstName: 'Remy',
      lastName: 'Late',
      email: 'remy@w.example',
      phone: '(555) 010-0131',
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Sol',
      lastName: 'Crm',
      email: 'sol@w.example',
      phone: '(555) 010-0141',
    });
    await page.evaluate((id) => {
      window
        .open('', 'callcrm-dialer')
        ?.postMessage({ type: 'update-contacts', contactIds: [id] }, location.origin);
    }, late);
    await expect(popup.getByText('1 added to the queue.')).toBeVisible();

    await card.getByRole('button', { name: 'Mark as Completed' }).click();
    await expect(card).toContainText('Remy Late');

    // Import from CRM with the contact selector.
    await popup.getByRole('tab', { name: 'Import Contacts' }).click();
    await popup.getByRole('button', { name: 'Import from CRM' }).click();
    const selector = popup.getByRole('dialog', { name: 'Select Contacts' });
    await selector.getByRole('checkbox', { name: 'Select Sol Crm' }).check();
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await expect(popup.getByText('1 added to the queue.').last()).toBeVisible();
    await popup.getByRole('tab', { name: 'Campaign Dialer' }).click();
    await card.getByRole('button', { name: 'Mark as Completed' }).click();
    await expect(card).toContainText('Sol Crm');
    await card.getByRole('button', { name: 'Mark as Completed' }).click();
    await expect(popup.getByText('All contacts have been called')).toBeVisible();
  });

  test('Simple Pop-out opens the plain dialer on the chosen queue, and Send to Campaign hands it ticked contacts', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const tess = await createContactThroughApi(server, cookie, {
      firstName: 'Tess',
      lastName: 'Simple',
      email: 'tess@simple.example',
      phone: '(555) 010-0151',
    });
    await createContactThroughApi(server, cookie, {
      firstName: 'Uma',
      lastName: 'Simple',
      email: 'uma@simple.example',
      phone: '(555) 010-0161',
    });
    const queued = await fetch(`${server.baseUrl}/api/queues`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({ name: 'Simple queue', selection: { ids: [tess] } }),
    });
    expect(queued.status).toBe(201);
    await page.goto('/power-dialer');
    await page.getByRole('button', { name: 'Select Campaign' }).click();
    await page
      .getByRole('dialog', { name: 'Select Calling Queue' })
      .getByRole('button', { name: /^Simple queue/ })
      .click();
    await page
      .getByRole('dialog', { name: 'Browser Dialer' })
      .getByRole('button', { name: 'Close' })
      .last()
      .click();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Simple Pop-out' }).click(),
    ]);
    await expect(popup).toHaveURL(/\/simple-dialer-window\?queue=/);
    await expect(popup.getByRole('heading', { name: 'Dialer' })).toBeVisible();
    const card = popup.getByRole('region', { name: 'Current contact' });
    await expect(card).toContainText('Tess Simple');

    // In the app (moving within it, so the opener keeps its window), ticked contacts go to the pop-out's queue.
    await page.getByRole('link', { name: 'Contacts', exact: true }).first().click();
    await page.getByRole('checkbox', { name: 'Select Uma Simple' }).check();
    await page.getByRole('button', { name: 'Send to Campaign' }).click();
    await page.getByRole('radio', { name: /The open pop-out dialer/ }).check();
    await page.getByRole('button', { name: 'Send to dialer' }).click();
    await expect(page.getByText("1 contact(s) sent to the pop-out dialer's queue.")).toBeVisible();
    await expect(popup.getByText('1 added to the queue.')).toBeVisible();
    await card.getByRole('button', { name: 'Mark as Completed' }).click();
    await expect(card).toContainText('Uma Simple');
  });

  test('the simple dialer window shows the empty queue state with a way to add contacts', async ({
    page,
    server,
  }) => {
    await signedInRep(page, server, { callsFictionalNumbers: true });
    await page.goto('/simple-dialer-window');
    await expect(page.getByRole('heading', { name: 'Dialer' })).toBeVisible();
    await expect(page.getByText('No contacts found in this campaign')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add Contacts' })).toHaveAttribute('href', '/contacts');
  });
});

import { createContactThroughApi, expect, seedContacts, signedInRep, test } from './fixtures.ts';

test.describe('e-mail campaigns', () => {
  test('creates a one-time campaign, sends it, watches it finish, and an unsubscribed contact is never mailed again', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const ids: string[] = [];
    for (const first of ['Ann', 'Bo'])
      ids.push(
        await createContactThroughApi(server, cookie, {
          firstName: first,
          lastName: 'Mailer',
          email: `${first.toLowerCase()}@buyer.example`,
        }),
      );

    await page.goto('/projects?tab=campaigns');
    await page.getByRole('tab', { name: /Emails/ }).click();
    await expect(page.getByText('No email campaigns found')).toBeVisible();
    await page.getByRole('link', { name: 'New Email Campaign' }).click();
    await expect(page.getByRole('heading', { name: 'Create Email Campaign' })).toBeVisible();
    const createButton = page.getByRole('button', { name: 'Create Campaign' });
    await expect(createButton).toBeDisabled();
    await page.getByLabel('Campaign name').fill('Spring offer');
    await page.getByLabel('Subject').fill('Hello {{firstName}}');
    await page.getByLabel('Message').fill('Dear {{fullName}},\nour spring offer is here.');
    await page.getByRole('tab', { name: /Contacts/ }).click();
    await page.getByRole('button', { name: 'Select Contacts' }).click();
    const selector = page.getByRole('dialog', { name: 'Select Contacts' });
    await selector.getByRole('checkbox', { name: 'Select Ann Mailer' }).check();
    await selector.getByRole('checkbox', { name: 'Select Bo Mailer' }).check();
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await expect(page.getByLabel('Selected count')).toHaveText('2 selected');
    await createButton.click();
    await expect(page.getByText('Campaign created', { exact: true })).toBeVisible();

    // The draft: no mail server is configured, so it says the e-mails go to the outbox; then it is sent.
    await expect(page.getByRole('heading', { name: 'Spring offer' })).toBeVisible();
    await expect(page.getByLabel('Campaign status')).toHaveText('Draft');
    await expect(page.getByText(/saved to your outbox, not sent/)).toBeVisible();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByLabel('Campaign status')).toHaveText('Sent', { timeout: 15_000 });
    await expect(page.getByLabel('Campaign progress')).toContainText('2 of 2 done (100%) · 2 sent');
    await expect(page.getByRole('list', { name: 'Recipients' }).getByText('In outbox')).toHaveCount(2);

    // Ann opens the unsubscribe link from her e-mail: the page asks first; the button unsubscribes.
    const emails = (await (
      await fetch(`${server.baseUrl}/api/contacts/${ids[0]}/emails`, { headers: { cookie } })
    ).json()) as { emails: { subject: string; content: string }[] };
    expect(emails.emails[0]!.subject).toBe('Hello Ann');
    const link = /Unsubscribe: (\S+)/.exec(emails.emails[0]!.content)![1]!;
    await page.goto(new URL(link).pathname);
    await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
    await page.goto(`/contacts/${ids[0]}`);
    await expect(page.getByText(/Unsubscribed from your e-mail campaigns on/)).toBeVisible();

    // A second campaign to both: Ann is skipped as unsubscribed, Bo is mailed.
    const second = await fetch(`${server.baseUrl}/api/email-campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({
        name: 'Follow-up',
        subject: 'Again',
        body: 'Hi again',
        perMinute: 600,
        selection: { ids },
      }),
    });
    const id = ((await second.json()) as { campaign: { id: string } }).campaign.id;
    await page.goto(`/projects/email/edit/${id}`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByLabel('Campaign status')).toHaveText('Sent', { timeout: 15_000 });
    const ann = page.getByRole('listitem', { name: 'Ann Mailer' });
    await expect(ann).toContainText('Unsubscribed');
    await expect(ann).toContainText('Skipped');

    await page.goto('/projects?tab=campaigns');
    await page.getByRole('tab', { name: /Emails/ }).click();
    const table = page.getByRole('table', { name: 'Email campaigns' });
    await expect(table.getByRole('row')).toHaveCount(3);
    // Created, as the spec writes dates: MM/dd/yyyy.
    const today = new Date();
    const mmddyyyy = [today.getMonth() + 1, today.getDate()].map((n) => String(n).padStart(2, '0')).join('/');
    await expect(table.getByRole('row').nth(1)).toContainText(`${mmddyyyy}/${today.getFullYear()}`);
  });

  test('pauses, resumes and cancels a send from the campaign page', async ({ page, server }) => {
    const { cookie } = await signedInRep(page, server, { callsFictionalNumbers: true });
    const ids: string[] = [];
    for (const first of ['Cy', 'Di', 'Ed'])
      ids.push(
        await createContactThroughApi(server, cookie, {
          firstName: first,
          lastName: 'Paced',
          email: `${first.toLowerCase()}@buyer.example`,
        }),
      );
    const created = await fetch(`${server.baseUrl}/api/email-campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({
        name: 'Slow drip',
        subject: 'Hi',
        body: 'One a minute',
        perMinute: 1,
        selection: { ids },
      }),
    });
    const id = ((await created.json()) as { campaign: { id: string } }).campaign.id;
    await page.goto(`/projects/email/edit/${id}`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByLabel('Campaign status')).toHaveText('Sending');
    // One a minute: the first goes at once, the next not for a minute.
    await expect(page.getByLabel('Campaign progress')).toContainText('1 of 3 done');
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByLabel('Campaign status')).toHaveText('Paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByLabel('Campaign status')).toHaveText('Sending');
    await page.getByRole('button', { name: 'Cancel sending' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel sending' }).click();
    await expect(page.getByLabel('Campaign status')).toHaveText('Canceled');
    await expect(page.getByLabel('Campaign progress')).toContainText(
      '3 of 3 done (100%) · 1 sent · 0 failed · 2 skipped',
    );
    await expect(page.getByRole('list', { name: 'Recipients' }).getByText('Campaign canceled')).toHaveCount(
      2,
    );
  });
  test('a campaign finishing and contacts changing elsewhere leave the create screen as the person left it', async ({
    page,
    server,
  }) => {
    const { cookie, userId } = await signedInRep(page, server, { callsFictionalNumbers: true });
    await seedContacts(server, userId, 30, 'Live', { withPhones: true });
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
        body: JSON.stringify(body),
      });
      expect(response.ok).toBe(true);
      return (await response.json()) as { campaign: { id: string; status: string } };
    };
    const other = await api('/api/sms-campaigns', {
      name: 'Elsewhere',
      message: 'Hello {{firstName}}',
      perMinute: 600,
      selection: { allMatching: {} },
    });

    await page.goto('/projects/email-sequence/create');
    await page.getByLabel('Sequence name').fill('Half written');
    await page.getByRole('tab', { name: /Contacts/ }).click();
    await page.getByRole('button', { name: 'Select Contacts' }).click();
    const selector = page.getByRole('dialog', { name: 'Select Contacts' });
    await selector.getByRole('checkbox', { name: 'Select Live0001 Seeded' }).check();
    await selector.getByRole('textbox', { name: 'Search contacts' }).fill('Live00');

    // Meanwhile another campaign is sent to the end and a contact is added: each a live update to this screen.
    await api(`/api/sms-campaigns/${other.campaign.id}/send`, {});
    await createContactThroughApi(server, cookie, {
      firstName: 'Newcomer',
      email: 'newcomer@live.example',
      lastName: 'Live',
      phone: '(555) 010-0401',
    });
    await expect
      .poll(
        async () =>
          (
            (await (
              await fetch(`${server.baseUrl}/api/sms-campaigns/${other.campaign.id}`, { headers: { cookie } })
            ).json()) as { campaign: { status: string } }
          ).campaign.status,
        { timeout: 20_000 },
      )
      .toBe('sent');
    await page.waitForTimeout(500); // the last change events reach the page

    await expect(selector).toBeVisible();
    await expect(selector.getByRole('checkbox', { name: 'Select Live0001 Seeded' })).toBeChecked();
    await expect(selector.getByRole('textbox', { name: 'Search contacts' })).toHaveValue('Live00');
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    await expect(page.getByRole('tab', { name: /Contacts \(1\)/ })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('button', { name: 'Select Contacts' }).click();
    await expect(selector).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: /Setup/ }).click();
    await expect(page.getByLabel('Sequence name')).toHaveValue('Half written');
  });
});

import { readFileSync } from 'node:fs';
import { startTestSmtpServer } from '../server/test/test-smtp-server.ts';
import { createContactThroughApi, expect, signedInRep, test, type Server } from './fixtures.ts';

/** The TLS certificate global-setup made; the product under test trusts it through SMTP_CA_FILE. */
const certificate = () => ({
  cert: readFileSync(process.env.E2E_SMTP_CERT_FILE!, 'utf8'),
  key: readFileSync(process.env.E2E_SMTP_KEY_FILE!, 'utf8'),
});

const api = (server: Server, cookie: string, method: string, url: string, body?: object) =>
  fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
    ...(body && { body: JSON.stringify(body) }),
  });

test.describe('e-mail sequences', () => {
  test('creates a three-e-mail sequence, starts it to a local mail server, and contacts leave it by unsubscribing or being taken out', async ({
    page,
    server,
  }) => {
    const smtp = await startTestSmtpServer({ tls: certificate() });
    try {
      const { cookie } = await signedInRep(page, server);
      const configured = await api(server, cookie, 'PUT', '/api/email/configuration', {
        email: 'rep@sales.example',
        server: '127.0.0.1',
        port: smtp.port,
        password: 'app-pass',
      });
      expect(configured.status).toBe(200);
      for (const first of ['Ann', 'Bo'])
        await createContactThroughApi(server, cookie, {
          firstName: first,
          lastName: 'Seq',
          email: `${first.toLowerCase()}@buyer.example`,
        });
      await createContactThroughApi(server, cookie, {
        firstName: 'Cy',
        lastName: 'Late',
        email: 'cy@buyer.example',
      });

      await page.goto('/projects?tab=campaigns');
      await page.getByRole('link', { name: 'New Email Sequence' }).click();
      await expect(page.getByRole('heading', { name: 'Create Email Sequence' })).toBeVisible();
      const createButton = page.getByRole('button', { name: 'Create Sequence' });
      await expect(createButton).toBeDisabled();
      await page.getByLabel('Sequence name').fill('Onboarding');
      await page.getByLabel('Description').fill('New customers, first week');
      await page.getByLabel('E-mail 1 subject').fill('Welcome {{firstName}}');
      await page.getByLabel('E-mail 1 message').fill('Hello {{fullName}}, welcome aboard.');
      await page.getByRole('button', { name: 'Add e-mail' }).click();
      await page.getByLabel('E-mail 2 delay in days').fill('0');
      await page.getByLabel('E-mail 2 subject').fill('Getting started, {{firstName}}');
      await page.getByLabel('E-mail 2 message').fill('Here is how to begin.');
      await page.getByRole('button', { name: 'Add e-mail' }).click();
      await expect(page.getByLabel('E-mail 3 delay in days')).toHaveValue('2');
      await page.getByLabel('E-mail 3 subject').fill('How is it going?');
      await page.getByLabel('E-mail 3 message').fill('Reply to this e-mail with any question.');
      await page.getByLabel('E-mails per minute').fill('600');

      await page.getByRole('tab', { name: /Contacts/ }).click();
      await page.getByRole('button', { name: 'Select Contacts' }).click();
      const selector = page.getByRole('dialog', { name: 'Select Contacts' });
      await selector.getByRole('checkbox', { name: 'Select Ann Seq' }).check();
      await selector.getByRole('checkbox', { name: 'Select Bo Seq' }).check();
      await selector.getByRole('button', { name: 'Confirm Selection' }).click();
      await createButton.click();
      await expect(page.getByText('Sequence created', { exact: true })).toBeVisible();

      // The draft: its e-mails can still change; then it starts.
      await expect(page.getByRole('heading', { name: 'Onboarding' })).toBeVisible();
      await expect(page.getByLabel('Campaign status')).toHaveText('Draft');
      await expect(page.getByLabel('E-mail 3 subject')).toHaveValue('How is it going?');
      await expect(page.getByLabel('Description')).toHaveValue('New customers, first week');
      await page.getByRole('button', { name: 'Start sequence' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Start now' }).click();
      await expect(page.getByText('Sequence started')).toBeVisible();

      // The first two e-mails go at once; the third waits its two days.
      const recipients = page.getByRole('list', { name: 'Recipients' });
      await expect(recipients.getByText(/2 of 3 e-mails sent · e-mail 3 due/)).toHaveCount(2, {
        timeout: 15_000,
      });
      await expect(page.getByLabel('Campaign status')).toHaveText('Active');
      await expect(page.getByLabel('Campaign progress')).toContainText(
        '0 of 2 done (0%) · 2 in the sequence',
      );
      await expect(page.getByRole('list', { name: 'Sequence e-mails' })).toContainText(
        'E-mail 3: How is it going?',
      );
      await expect(page.getByText('New customers, first week')).toBeVisible();
      expect(
        smtp.received
          .filter((m) => m.to[0] === 'ann@buyer.example')
          .map((m) => /^Subject: (.*)$/m.exec(m.raw)![1]),
      ).toEqual(['Welcome Ann', 'Getting started, Ann']);

      // Ann unsubscribes from the link in her e-mail: she leaves the sequence at once.
      const link = /List-Unsubscribe:\s*<(https?:\/\/[^>]+)>/.exec(
        smtp.received.find((m) => m.to[0] === 'ann@buyer.example')!.raw,
      )![1]!;
      const unsubscribe = await page.context().newPage();
      await unsubscribe.goto(new URL(link).pathname);
      await unsubscribe.getByRole('button', { name: 'Unsubscribe' }).click();
      await expect(unsubscribe.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
      await unsubscribe.close();
      await expect(recipients.getByRole('listitem', { name: 'Ann Seq' })).toContainText('Unsubscribed');

      // Bo is taken out by hand.
      await recipients.getByRole('button', { name: 'Take Bo Seq out of the sequence' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Take out' }).click();
      await expect(recipients.getByRole('listitem', { name: 'Bo Seq' })).toContainText(
        'Removed from the sequence',
      );

      // Cy joins the sequence under way and gets its first two e-mails.
      await page.getByRole('button', { name: 'Select Contacts' }).click();
      await selector.getByRole('checkbox', { name: 'Select Cy Late' }).check();
      await selector.getByRole('button', { name: 'Confirm Selection' }).click();
      await page.getByRole('button', { name: 'Enroll 1 contact(s)' }).click();
      await expect(page.getByText('Contacts enrolled')).toBeVisible();
      await expect(recipients.getByRole('listitem', { name: 'Cy Late' })).toContainText(
        '2 of 3 e-mails sent · e-mail 3 due',
        { timeout: 15_000 },
      );
      expect(smtp.received).toHaveLength(6);

      await page.goto('/projects?tab=campaigns');
      await page.getByRole('tab', { name: /Emails/ }).click();
      const table = page.getByRole('table', { name: 'Email campaigns' });
      await expect(table.getByRole('row', { name: /Onboarding/ })).toContainText('Sequence');
      await expect(table.getByRole('row', { name: /Onboarding/ })).toContainText('Active');
    } finally {
      await smtp.close();
    }
  });

  test("the dialer's Add Contact enrols the new contact in a sequence chosen instead of a template", async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server);
    await api(server, cookie, 'POST', '/api/email/templates', {
      name: 'Hello',
      subject: 'Hello {{firstName}}',
      content: 'Nice talking.',
      isDefault: true,
    });
    const first = await createContactThroughApi(server, cookie, {
      firstName: 'Old',
      lastName: 'Timer',
      email: 'old@t.example',
      phone: '(555) 010-0042',
    });
    const made = await api(server, cookie, 'POST', '/api/email-sequences', {
      name: 'Follow-ups',
      steps: [{ subject: 'Good to meet you, {{firstName}}', body: 'As promised.', delayDays: 0 }],
      selection: { ids: [first] },
    });
    const sequenceId = ((await made.json()) as { campaign: { id: string } }).campaign.id;

    await page.goto('/power-dialer');
    await page.getByRole('button', { name: 'Power Dialer', exact: true }).click();
    const dialer = page.getByRole('dialog', { name: 'Browser Dialer' });
    await dialer.getByRole('tab', { name: 'Contacts' }).click();
    await dialer.getByRole('button', { name: 'Add Contact' }).click();
    const form = dialer.getByRole('form', { name: 'Add New Contact' });
    await form.getByRole('textbox', { name: 'First name', exact: true }).fill('Sue');
    await form.getByRole('textbox', { name: 'Last name', exact: true }).fill('Seq');
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill('sue@seq.example');
    await form.getByRole('checkbox', { name: 'Send an email' }).check();
    await expect(form.getByLabel('Template')).not.toHaveValue('');
    // Choosing the sequence clears the template, and the reverse.
    await form.getByLabel('Sequence').selectOption({ label: 'Follow-ups' });
    await expect(form.getByLabel('Template')).toHaveValue('');
    await form.getByLabel('Template').selectOption({ label: 'Hello' });
    await expect(form.getByLabel('Sequence')).toHaveValue('');
    await form.getByLabel('Sequence').selectOption({ label: 'Follow-ups' });
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await expect(page.getByText('Contact added')).toBeVisible();
    await expect(page.getByText('Enrolled in sequence')).toBeVisible();

    await page.goto(`/projects/email-sequence/edit/${sequenceId}`);
    await expect(
      page.getByRole('list', { name: 'Recipients' }).getByRole('listitem', { name: 'Sue Seq' }),
    ).toBeVisible();
  });
});

import { readFileSync } from 'node:fs';
import { startTestSmtpServer } from '../server/test/test-smtp-server.ts';
import { createContactThroughApi, expect, signedInRep, test } from './fixtures.ts';

/** The TLS certificate global-setup made; the product under test trusts it through SMTP_CA_FILE. */
const certificate = () => ({
  cert: readFileSync(process.env.E2E_SMTP_CERT_FILE!, 'utf8'),
  key: readFileSync(process.env.E2E_SMTP_KEY_FILE!, 'utf8'),
});

test.describe('e-mail from the CRM', () => {
  test('configure SMTP, test it, write a template, send it to a contact, and see it on the contact', async ({
    page,
    server,
  }) => {
    const smtp = await startTestSmtpServer({
      tls: certificate(),
      auth: { user: 'rep@sales.example', pass: 'app-pass' },
    });
    try {
      const { cookie } = await signedInRep(page, server);
      const contactId = await createContactThroughApi(server, cookie, {
        firstName: 'Omar',
        lastName: 'Quinn',
        email: 'omar@orbit.example',
        company: 'Orbit',
      });

      await page.goto('/settings?tab=email');
      const form = page.getByRole('form', { name: 'Email configuration' });
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(form.getByText('Server is required')).toBeVisible();
      await form.getByLabel('Email', { exact: true }).fill('rep@sales.example');
      await form.getByLabel('Sender name (optional)').fill('Rita Rep');
      await form.getByLabel('SMTP server').fill('127.0.0.1');
      await expect(form.getByLabel('Port')).toHaveValue('587');
      await form.getByLabel('Port').fill(String(smtp.port));
      await form.getByLabel('Password').fill('app-pass');
      await form.getByRole('button', { name: 'Send test e-mail' }).click();
      await expect(page.getByText('Test e-mail sent')).toBeVisible();
      expect(smtp.received.at(-1)?.to).toEqual(['rep@sales.example']);
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Email configuration saved')).toBeVisible();
      await expect(form.getByLabel('Password')).toHaveAttribute('placeholder', /Stored/);

      await page.getByRole('button', { name: 'New template' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name').fill('Intro');
      await dialog.getByLabel('Subject').fill('Quick question, {{firstName}}');
      await dialog.getByLabel('Content').fill('Hi ');
      await dialog.getByRole('button', { name: 'First name' }).click();
      await dialog.getByLabel('Content').press('End');
      await dialog.getByLabel('Content').pressSequentially(', how is things at {{company}}?');
      await expect(dialog.getByRole('region', { name: 'Preview' })).toContainText(
        'Hi Jordan, how is things at Acme Corp?',
      );
      await dialog.getByLabel('Default template').check();
      await dialog.getByRole('button', { name: 'Save template' }).click();
      await expect(page.getByRole('list', { name: 'Email templates' })).toContainText('Intro');

      await page.goto(`/contacts/${contactId}`);
      await page.getByRole('button', { name: 'Send Email' }).click();
      const send = page.getByRole('dialog');
      await expect(send.getByLabel('To')).toHaveValue('omar@orbit.example');
      await expect(send.getByLabel('Template')).toHaveValue(/.+/);
      await expect(send.getByLabel('Subject')).toHaveValue('Quick question, Omar');
      await expect(send.getByLabel('Message')).toHaveValue('Hi Omar, how is things at Orbit?');
      await send.getByRole('button', { name: 'Send Email' }).click();
      await expect(page.getByText('Email sent successfully')).toBeVisible();
      await expect(page.getByText('Your email to Omar Quinn has been sent.')).toBeVisible();

      const emails = page.getByRole('list', { name: 'Emails' });
      await expect(emails).toContainText('Quick question, Omar');
      await expect(emails).toContainText('Sent');
      const arrived = smtp.received.at(-1)!;
      expect(arrived.to).toEqual(['omar@orbit.example']);
      expect(arrived.from).toBe('rep@sales.example');
      expect(arrived.raw).toMatch(/^Subject: Quick question, Omar$/m);
      expect(arrived.raw).toContain('Hi Omar, how is things at Orbit?');
    } finally {
      await smtp.close();
    }
  });

  test('without a mail server, an e-mail is kept in the outbox, and the toast says so', async ({
    page,
    server,
  }) => {
    const { cookie } = await signedInRep(page, server);
    await createContactThroughApi(server, cookie, {
      firstName: 'Lena',
      lastName: 'Lind',
      email: 'lena@lind.example',
    });
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Actions for Lena Lind' }).click();
    await page.getByRole('menuitem', { name: 'Send Email' }).click();
    const send = page.getByRole('dialog');
    await expect(send).toContainText('the e-mail will be kept in your outbox, not sent');
    const button = send.getByRole('button', { name: 'Send Email' });
    await expect(button).toBeDisabled();
    await send.getByLabel('Subject').fill('Hello');
    await send.getByLabel('Message').fill('Nice to meet you.');
    await button.click();
    await expect(page.getByText('Saved to the outbox')).toBeVisible();
    await page.goto('/outbox');
    const outbox = page.getByRole('list', { name: 'Outbox' });
    await expect(outbox).toContainText('Lena Lind');
    await outbox.getByRole('button', { name: 'Hello' }).click();
    await expect(outbox).toContainText('Nice to meet you.');
    await expect(outbox).toContainText('In outbox, not sent');
  });
});

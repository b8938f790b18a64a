import { describe, expect, it } from 'vitest';
import {
  EmailConfigurationInputSchema,
  EmailTemplateInputSchema,
  isSendableAddress,
  SendEmailInputSchema,
} from './email.schema.ts';
import { renderMergeFields, unknownMergeFields, type MergeContact } from './merge-fields.ts';

const contact: MergeContact = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: null,
  company: 'Analytical Engines',
  title: null,
};

describe('merge fields', () => {
  it('fills every field, in any case and with spaces inside the braces', () => {
    expect(renderMergeFields('Hi {{firstName}} {{ LASTNAME }} ({{fullName}}) of {{company}}', contact)).toBe(
      'Hi Ada Lovelace (Ada Lovelace) of Analytical Engines',
    );
  });

  it('turns a missing value into empty text, and leaves unknown placeholders as written', () => {
    expect(renderMergeFields('[{{phone}}][{{title}}][{{nickname}}]', contact)).toBe('[][][{{nickname}}]');
  });

  it('reports unknown placeholders once each', () => {
    expect(unknownMergeFields('{{nickname}} {{firstName}} {{nickname}} {{ shoe }}')).toEqual([
      '{{nickname}}',
      '{{ shoe }}',
    ]);
    expect(unknownMergeFields('no placeholders, {single} braces')).toEqual([]);
  });
});

describe('e-mail input rules', () => {
  it('needs e-mail, server and port for a configuration, with 587 as the usual port', () => {
    const result = EmailConfigurationInputSchema.safeParse({ email: '', server: '', port: '' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toEqual(expect.arrayContaining(['Email is required', 'Server is required']));
    expect(
      EmailConfigurationInputSchema.parse({ email: 'a@b.example', server: 'smtp.b.example', port: '587' })
        .port,
    ).toBe(587);
  });

  it('needs name, subject and content for a template', () => {
    const result = EmailTemplateInputSchema.safeParse({ name: ' ', subject: '', content: '' });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Template name is required',
      'Subject is required',
      'Content is required',
    ]);
  });

  it('needs subject and message to send', () => {
    const result = SendEmailInputSchema.safeParse({ subject: '', content: '  ' });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Subject is required',
      'Message is required',
    ]);
  });

  it('never writes to an empty address or a cold lead placeholder', () => {
    expect(isSendableAddress('lead@example.com')).toBe(true);
    expect(isSendableAddress('')).toBe(false);
    expect(isSendableAddress('cold-lead+1234@example.invalid')).toBe(false);
  });
});

import { z } from 'zod';
import { isPlaceholderEmail } from '../contacts/cold-lead.ts';
import { MERGE_FIELDS, unknownMergeFields } from './merge-fields.ts';

/** The default SMTP port. */
export const DEFAULT_SMTP_PORT = 587;
/** Implicit TLS; every other port upgrades with STARTTLS (decision 000: TLS is required). */
export const IMPLICIT_TLS_PORT = 465;

export const EMAIL_LIMITS = { subject: 998, content: 100_000, templateName: 100 } as const;

export const mergeFieldCheck = (text: string, ctx: z.RefinementCtx, path: string) => {
  const unknown = unknownMergeFields(text);
  if (unknown.length > 0)
    ctx.addIssue({
      code: 'custom',
      path: [path],
      message: `Unknown merge field ${unknown.join(', ')}. Available: ${Object.keys(MERGE_FIELDS)
        .map((f) => `{{${f}}}`)
        .join(', ')}`,
    });
};

/**
 * Settings → Email configuration: e-mail, server, port and password are required. The
 * password may be left out when one is already stored (it is never sent back). Username defaults to the e-mail.
 */
export const EmailConfigurationInputSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254).pipe(z.email('Invalid email address')),
  server: z
    .string()
    .trim()
    .min(1, 'Server is required')
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$/, 'Server must be a host name such as smtp.example.com'),
  port: z.coerce
    .number({ error: 'Port is required' })
    .int('Port must be a whole number')
    .min(1, 'Port must be between 1 and 65535')
    .max(65535, 'Port must be between 1 and 65535'),
  password: z.string().max(500).optional(),
  username: z.string().trim().max(254).optional(),
  fromName: z.string().trim().max(100).optional(),
});
export type EmailConfigurationInput = z.input<typeof EmailConfigurationInputSchema>;

export const EmailConfigurationSchema = z.object({
  email: z.string(),
  server: z.string(),
  port: z.number().int(),
  username: z.string().nullable(),
  fromName: z.string().nullable(),
  useSsl: z.literal(true),
  hasPassword: z.literal(true),
  updatedAt: z.string(),
});
export type EmailConfiguration = z.infer<typeof EmailConfigurationSchema>;
export const EmailConfigurationResponseSchema = z.object({
  configuration: EmailConfigurationSchema.nullable(),
});

/** Templates: name, subject and content are required. */
export const EmailTemplateInputSchema = z
  .object({
    name: z.string().trim().min(1, 'Template name is required').max(EMAIL_LIMITS.templateName),
    subject: z.string().trim().min(1, 'Subject is required').max(EMAIL_LIMITS.subject),
    content: z.string().min(1, 'Content is required').max(EMAIL_LIMITS.content),
    isDefault: z.boolean().default(false),
  })
  .superRefine((t, ctx) => {
    mergeFieldCheck(t.subject, ctx, 'subject');
    mergeFieldCheck(t.content, ctx, 'content');
  });
export type EmailTemplateInput = z.input<typeof EmailTemplateInputSchema>;

export const EmailTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.string(),
  content: z.string(),
  isDefault: z.boolean(),
  updatedAt: z.string(),
});
export type EmailTemplate = z.infer<typeof EmailTemplateSchema>;

/** The Send Email dialog (e-mail request payload): subject and message are required. */
export const SendEmailInputSchema = z
  .object({
    subject: z.string().trim().min(1, 'Subject is required').max(EMAIL_LIMITS.subject),
    content: z
      .string()
      .refine((v) => v.trim().length > 0, 'Message is required')
      .pipe(z.string().max(EMAIL_LIMITS.content)),
    templateId: z.uuid().nullish(),
  })
  .superRefine((t, ctx) => {
    mergeFieldCheck(t.subject, ctx, 'subject');
    mergeFieldCheck(t.content, ctx, 'content');
  });
export type SendEmailInput = z.input<typeof SendEmailInputSchema>;

export const DeliverySchema = z.enum(['smtp', 'outbox']);
export type Delivery = z.infer<typeof DeliverySchema>;

export const ContactEmailSchema = z.object({
  id: z.string(),
  contactId: z.string(),
  direction: z.enum(['outbound', 'inbound']),
  delivery: DeliverySchema,
  fromAddress: z.string(),
  toAddress: z.string(),
  subject: z.string(),
  content: z.string(),
  sentAt: z.string(),
});
export type ContactEmail = z.infer<typeof ContactEmailSchema>;

/** A contact's e-mails, and when their address unsubscribed from the user's campaigns (null: it has not). */
export const ContactEmailsSchema = z.object({
  emails: z.array(ContactEmailSchema),
  unsubscribedAt: z.string().nullable(),
});

export const SendEmailResultSchema = z.object({ email: ContactEmailSchema });

/** The outbox page: mail kept because no mail server was configured, with the contact's name. */
export const OutboxPageSchema = z.object({
  messages: z.array(ContactEmailSchema.extend({ contactName: z.string() })),
  hasMore: z.boolean(),
});

/**
 * Addresses the product never writes to: empty, or a cold lead's placeholder on the reserved `.invalid` domain
 * (decision 000). The Send Email action is offered only for the others.
 */
export function isSendableAddress(email: string): boolean {
  return email.trim().length > 0 && !isPlaceholderEmail(email.trim());
}

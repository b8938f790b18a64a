/** E-mail as the contact, dialer and settings screens use it. Other features import this file, never the feature's other files (decision 013). */
export { useEmailTemplates } from './api/email-queries.ts';
export { ContactEmailsCard } from './components/contact-emails-card.tsx';
export { EmailConfigurationCard } from './components/email-configuration-card.tsx';
export { EmailTemplatesCard } from './components/email-templates-card.tsx';
export { SendEmailDialog } from './components/send-email-dialog.tsx';
export { useEmailConfiguration } from './api/email-queries.ts';

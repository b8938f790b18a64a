/** E-mail as other modules use it: sending to a contact, reading a template, a user's mail server, recording an e-mail against a contact (campaigns), and an address unsubscribing. Other modules import this file, never the module's other files (decision 013). */
export { sendEmailToContact } from './contact-email.service.ts';
export { findTemplate } from './email-templates.repository.ts';
export { findSmtpSettings } from './email-configuration.repository.ts';
export { insertContactEmailIfPresent } from './contact-email.repository.ts';

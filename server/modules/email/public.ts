/** E-mail as the dialer uses it: sending to a contact and reading a template. Other modules import this file, never the module's other files (decision 013). */
export { sendEmailToContact } from './contact-email.service.ts';
export { findTemplate } from './email-templates.repository.ts';

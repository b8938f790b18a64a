import { ContactListPage } from '../contacts/public.ts';
import { SendToCampaignDialog } from './send-to-campaign-dialog.tsx';

/**
 * /contacts: the contact list with its Send to Campaign, composed here, above contacts, queues and campaigns, so
 * none of those three needs another.
 */
export function ContactsScreen() {
  return <ContactListPage SendToCampaign={SendToCampaignDialog} />;
}

/**
 * What a callback's notification says: 'Callback due: ' and who (their name, else their number, else 'a
 * contact'); then 'Time to call back' with the number, the company in brackets and the notes saved with it.
 */
export function callbackNotice(contact: {
  firstName: string;
  lastName: string;
  phone: string | null;
  company: string | null;
  notes: string | null;
}): { title: string; body: string } {
  const name = `${contact.firstName} ${contact.lastName}`.trim();
  const who = name || contact.phone || 'a contact';
  const parts = [
    'Time to call back',
    contact.phone ? ` ${contact.phone}` : '',
    contact.company ? ` (${contact.company})` : '',
    contact.notes ? `. Notes: ${contact.notes}` : '',
  ];
  return { title: `Callback due: ${who}`, body: `${parts.join('')}.` };
}

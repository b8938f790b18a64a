/** Caller IDs as calling and texting use them: the user's numbers, their default, and the number a call goes out from. Other modules import this file, never the module's other files (decision 013). */
export { findCallerIds, findDefaultCallerId } from './caller-ids.repository.ts';
export { chooseCallerId, chooseCallerIds, usesLocalPresence } from './choose-caller-id.ts';

/** The dialer as other features use it: whether a pop-out dialer is open, and sending it contacts. Other features import this file, never the feature's other files (decision 013). */
export { isDialerWindowOpen, sendContactsToDialerWindow } from './components/dialer-window-messages.ts';

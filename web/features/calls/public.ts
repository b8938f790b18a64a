/** Calling as the other features use it: placing and following a call, the browser phone, the call panel, dispositions, bulk calls, a contact's calls, the phone settings. Other features import this file, never the feature's other files (decision 013). */
export {
  closeActiveCall,
  showActiveCall,
  takeConnectedCall,
  type CallTarget,
  useActiveCall,
} from './active-call.ts';
export { useCall, useCallingSetup, useDayLog, useHangUp, useResetCallSystem } from './api/calls-queries.ts';
export { placeCall } from './api/place-call.ts';
export {
  callingFromLine,
  callingFromText,
  choosesNearestCallerId,
  callerIdToSend,
} from './local-presence.ts';
export { ActiveCallPanel } from './components/active-call-panel.tsx';
export { IncomingCalls } from './components/incoming-calls.tsx';
export { MissedCallsCard } from './components/missed-calls-card.tsx';
export { SimulateIncomingCall } from './components/simulate-incoming-call.tsx';
export { BulkCallDialog } from './components/bulk-call-dialog.tsx';
export { CallSummary } from './components/call-summary.tsx';
export { ContactCallsCard } from './components/contact-calls-card.tsx';
export { DispositionForm } from './components/disposition-form.tsx';
export { PhoneSettingsCard } from './components/phone-settings-card.tsx';
export { phone, usePhone, type PhoneSnapshot } from './phone/browser-phone.ts';
export { useCallAction } from './use-call-action.ts';
export { useCallOutcomeToasts } from './use-call-outcome-toasts.ts';

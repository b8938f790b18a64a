/** The consent gate's screens as other features use them. Other features import this file only. */
export { ContactReachCard } from './components/contact-reach-card.tsx';
export { CallingHoursCard } from './components/calling-hours-card.tsx';

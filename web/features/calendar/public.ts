/** The callbacks calendar feed as other features use it. Other features import this file, never the feature's other files (decision 013). */
export { CalendarFeedCard } from './components/calendar-feed-card.tsx';

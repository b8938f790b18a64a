/** Notifications as other features use them: the header's bell and the Settings card. Other features import this file, never the feature's other files (decision 013). */
export { NotificationBell } from './components/notification-bell.tsx';
export { NotificationSettingsCard } from './components/notification-settings-card.tsx';

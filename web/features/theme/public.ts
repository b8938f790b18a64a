/** The light/dark theme as other features use it. Other features import this file, never the feature's other files (decision 013). */
export { useTheme } from './theme-provider.tsx';
export { ThemeToggle } from './theme-toggle.tsx';

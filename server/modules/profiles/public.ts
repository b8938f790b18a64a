/** Profiles as the auth, admin and access-control code reads them. Other modules import this file, never the module's other files (decision 013). */
export {
  deleteSessionsOf,
  ensureProfile,
  findProfile,
  PROFILE_COLUMNS,
  toProfile,
} from './profiles.repository.ts';

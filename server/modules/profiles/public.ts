/** Profiles as the auth, admin and access-control code reads them. Other modules import this file, never the module's other files (decision 013). */
export {
  ensureProfile,
  findProfile,
  localPresenceOf,
  setLocalPresence,
  phoneCountryOf,
  PROFILE_COLUMNS,
  toProfile,
  joinedProfile,
  type JoinedProfileColumns,
  updateOwnProfile,
} from './profiles.repository.ts';
export {
  countActiveAdminsForUpdate,
  lockAdminRoles,
  lockProfile,
  updateProfileAccess,
} from './profile-access.repository.ts';

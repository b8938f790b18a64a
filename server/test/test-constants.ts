export const TEST_APP_ROLE = 'callcrm_test_app';
export const TEST_APP_PASSWORD = 'callcrm_test_app_password';
export const TEST_PUBLIC_URL = 'http://localhost:3000';
export const TEST_ORIGIN = TEST_PUBLIC_URL;

/** Personal API keys as the app wires them: their routes, and who a key speaks for. Other modules import this file, never the module's other files (decision 013). */
export { registerApiKeyRoutes } from './api-keys.routes.ts';
export { resolveApiKeyViewer } from './api-key-viewer.ts';

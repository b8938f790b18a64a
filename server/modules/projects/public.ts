/** Projects as the other modules use them: whether a project is the user's (a queue joins only one's own). Other modules import this file, never the module's other files (decision 013). */
export { isOwnProject } from './projects.repository.ts';

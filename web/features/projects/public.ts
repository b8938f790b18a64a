/** Projects as other features use them: the cards, the create and edit dialog, and the list (a queue's project). Other features import this file, never the feature's other files (decision 013). */
export { useProjects } from './api/projects-queries.ts';
export { ProjectCards } from './components/project-cards.tsx';
export { ProjectFormDialog } from './components/project-form-dialog.tsx';

/** Projects as other features use them: the cards, the create and edit dialog, the list, and the Project field of a queue or campaign. Other features import this file, never the feature's other files (decision 013). */
export { useProjects } from './api/projects-queries.ts';
export { ProjectCards } from './components/project-cards.tsx';
export { ProjectFormDialog } from './components/project-form-dialog.tsx';
export { ProjectSelect } from './components/project-select.tsx';

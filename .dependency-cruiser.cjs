/**
 * Folder-level boundaries (decision 022), checked by `npm run lint`: no cycle between folders, so between two
 * features or two modules (or a module and the plumbing above it) dependencies run one way only. ESLint's
 * import-x/no-cycle sees file-level cycles; this sees the ones that pass through different files of two folders.
 */
// eslint-disable-next-line no-undef -- a CommonJS config file: dependency-cruiser reads module.exports
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Two folders import each other: one of them should depend on the other, not both.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(server|web|domain)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(\\.test\\.tsx?$|^server/test/|^e2e/|^bench/)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};

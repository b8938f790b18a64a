// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Feature boundaries (decision 013). A web feature reaches another only through that feature's `public.ts`, the
 * file that names what it offers; the rest of a feature is its own. The app's composition root (web/app) may
 * import any screen.
 */
const webFeatures = readdirSync(join(import.meta.dirname, 'web/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureZones = webFeatures.map((feature) => ({
  target: `./web/features/${feature}`,
  from: './web/features/**',
  except: [`**/web/features/${feature}/**`, '**/web/features/*/public.ts'],
  message: 'Another feature is reached through its public.ts only (decision 013).',
}));

/** The same on the server: a module reaches another only through its `public.ts`; server/app.ts wires them all. */
const serverModules = readdirSync(join(import.meta.dirname, 'server/modules'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const moduleZones = [
  ...serverModules.map((module) => ({
    target: `./server/modules/${module}`,
    from: './server/modules/**',
    except: [`**/server/modules/${module}/**`, '**/server/modules/*/public.ts'],
    message: 'Another module is reached through its public.ts only (decision 013).',
  })),
  {
    target: ['./server/plugins', './server/instance', './server/app-context.ts', './server/telephony'],
    from: './server/modules/**',
    except: ['**/server/modules/*/public.ts'],
    message: 'Plugins and instance code reach a module through its public.ts only (decision 013).',
  },
];

/** What starts a query in Kysely: outside repositories, none of these is called. */
const QUERY_STARTS = [
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
  'selectNoFrom',
  'with',
];
const SQL_IN_REPOSITORIES =
  'SQL lives in *.repository.ts files (decision 022): call a repository function instead.';

export default tseslint.config(
  {
    ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })] },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify hooks are async by contract even when their body awaits nothing.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // web → domain ← server; web and server never import each other.
            { target: './web', from: './server', message: 'web must not import server code' },
            { target: './server', from: './web', message: 'server must not import web code' },
            // domain is pure: it imports nothing of ours but itself.
            { target: './domain', from: './server', message: 'domain must stay pure' },
            { target: './domain', from: './web', message: 'domain must stay pure' },
            // production code never imports test code
            { target: './server', from: './e2e' },
            { target: './web', from: './e2e' },
            ...featureZones,
            ...moduleZones,
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/index', '**/index.ts'], message: 'No barrel files: import the module by name.' },
          ],
        },
      ],
    },
  },
  {
    // Repositories own SQL (decision 022): a query builder or the sql tag appears only in *.repository.ts files, the
    // database plumbing (server/db) and the job queue (server/jobs). Routes, services and tasks call repositories.
    files: ['server/**/*.ts'],
    ignores: [
      'server/**/*.repository.ts',
      'server/db/**',
      'server/jobs/**',
      'server/**/*.test.ts',
      'server/test/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', importNames: ['sql'], message: SQL_IN_REPOSITORIES }],
          patterns: [
            { group: ['**/index', '**/index.ts'], message: 'No barrel files: import the module by name.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=/^(${QUERY_STARTS.join('|')})$/]`,
          message: SQL_IN_REPOSITORIES,
        },
      ],
    },
  },
  {
    files: ['domain/**/*.ts'],
    ignores: ['domain/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|date-fns|@date-fns/tz$|libphonenumber-js$|\\.{1,2}/|#domain/).*',
              message:
                'domain imports only zod, date-fns (with @date-fns/tz), libphonenumber-js and itself (no I/O, no React, no database).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Tests read untyped JSON answers (inject's response.json()) and assert on them.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Playwright fixtures take their dependencies by destructuring, `{}` when there are none.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);

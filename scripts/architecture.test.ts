import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS, findTableWriters } from './table-writers.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Lints a text as if it were the file at `filePath`, with the project's rules (type-aware ones left out). */
async function lintAs(filePath: string, code: string) {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }],
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map((m) => m.ruleId);
}

describe('architecture rules, shown by deliberate violations', () => {
  const query = `import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';
export const names = (db: DbExecutor) => db.selectFrom('contacts').select(sql<string>\`first_name\`.as('n')).execute();
`;

  it('refuses SQL outside a repository: the sql tag and a query builder in a route or service', async () => {
    const found = await lintAs('server/modules/contacts/contact-names.service.ts', query);
    expect(found).toContain('no-restricted-imports');
    expect(found).toContain('no-restricted-syntax');
  });

  it('accepts the same SQL in a repository', async () => {
    const found = await lintAs('server/modules/contacts/contact-names.repository.ts', query);
    expect(found).not.toContain('no-restricted-imports');
    expect(found).not.toContain('no-restricted-syntax');
  });

  it('refuses a cycle between two folders, which file-by-file cycle checks cannot see', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'folder-cycle-'));
    try {
      for (const folder of ['server/modules/alpha', 'server/modules/beta'])
        mkdirSync(path.join(dir, folder), { recursive: true });
      // alpha/a.ts → beta/b.ts and beta/c.ts → alpha/d.ts: no file cycle, but the two folders need each other.
      writeFileSync(
        path.join(dir, 'server/modules/alpha/a.ts'),
        `import { b } from '../beta/b.ts';\nexport const a = b;\n`,
      );
      writeFileSync(path.join(dir, 'server/modules/alpha/d.ts'), `export const d = 1;\n`);
      writeFileSync(path.join(dir, 'server/modules/beta/b.ts'), `export const b = 2;\n`);
      writeFileSync(
        path.join(dir, 'server/modules/beta/c.ts'),
        `import { d } from '../alpha/d.ts';\nexport const c = d;\n`,
      );
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }),
      );
      const run = () =>
        execFileSync(
          path.join(root, 'node_modules/.bin/depcruise'),
          ['--config', path.join(root, '.dependency-cruiser.cjs'), 'server'],
          {
            cwd: dir,
            encoding: 'utf8',
            stdio: 'pipe',
          },
        );
      let report = '';
      try {
        run();
      } catch (error) {
        report = String((error as { stdout?: string }).stdout);
      }
      expect(report).toMatch(/no-folder-cycles: server\/modules\/(alpha|beta)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('table ownership', () => {
  const writers = findTableWriters(root);
  const schema = readFileSync(path.join(root, 'server/db/schema.ts'), 'utf8');
  const tables = [
    ...schema.slice(schema.indexOf('export type Database = {')).matchAll(/^ {2}([a-z_]+): /gm),
  ].map((m) => m[1]!);

  it('names an owner for every table of the schema', () => {
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('lets only its owner write a table: every other module goes through the owner’s public.ts', () => {
    // Tables outside the schema are the database plumbing's own (server/db) or a transaction's temporary ones.
    const strangers = Object.entries(writers)
      .filter(([table]) => tables.includes(table))
      .flatMap(([table, modules]) =>
        [...modules].filter((m) => m !== TABLE_OWNERS[table]).map((m) => `${table} written by ${m}`),
      );
    expect(strangers).toEqual([]);
  });

  it('finds the writes it checks (a statement of each kind, in a file of each kind)', () => {
    expect(writers.contacts).toEqual(new Set(['server/modules/contacts']));
    expect(writers.queue_members).toEqual(new Set(['server/modules/queues']));
    expect(writers.sms_campaign_recipients).toEqual(new Set(['server/modules/campaigns']));
    expect(writers.outbox_messages).toEqual(new Set(['server/mail']));
  });

  it('lets no code outside the consent module read or write the opt-out tables', () => {
    const optOutTables =
      /\b(do_not_call|sms_opt_outs|email_unsubscribes|consent_settings|consent_decisions|express_consents)\b/;
    const files = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
        const file = `${dir}/${entry.name}`;
        if (entry.isDirectory())
          return ['server/db/migrations', 'server/modules/consent', 'server/test'].includes(file)
            ? []
            : files(file);
        return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
      });
    const readers = files('server').filter(
      (file) =>
        file !== 'server/db/schema.ts' && optOutTables.test(readFileSync(path.join(root, file), 'utf8')),
    );
    expect(readers).toEqual([]);
    expect(files('server').length).toBeGreaterThan(100);
  });
});

describe('references in the code resolve', () => {
  const sourceOf = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceOf(file);
      return /\.(ts|tsx)$/.test(entry.name) ? [file] : [];
    });
  // This file's own fixtures name files that are made on the spot.
  const files = ['domain', 'server', 'web', 'e2e', 'bench', 'scripts']
    .flatMap(sourceOf)
    .filter((f) => f !== 'scripts/architecture.test.ts');
  const everyFile = [...files, ...sourceOf('docs'), 'README.md'];
  const names = new Set(
    ['domain', 'server', 'web', 'e2e', 'bench', 'scripts', 'docs']
      .flatMap((dir) =>
        readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }).map((e) => e.name),
      )
      .concat(['package.json', 'README.md', 'vite.config.ts', 'eslint.config.js', 'tsconfig.json']),
  );
  const decisions = readdirSync(path.join(root, 'docs/decisions')).map((f) => f.slice(0, 3));
  const readmeHeadings = [...readFileSync(path.join(root, 'README.md'), 'utf8').matchAll(/^#+ (.+)$/gm)].map(
    (m) => m[1]!,
  );
  const broken = (check: (text: string) => string[]) =>
    files.flatMap((file) =>
      check(readFileSync(path.join(root, file), 'utf8')).map((what) => `${file}: ${what}`),
    );

  it('names only files that exist', () => {
    expect(everyFile.length).toBeGreaterThan(100);
    const missing = broken((text) => [
      ...[
        ...text.matchAll(
          /(?<![\w/-])((?:domain|server|web|e2e|bench|scripts|docs)\/[\w./-]+\.(?:tsx?|md|cjs))\b/g,
        ),
      ]
        .map((m) => m[1]!)
        .filter((p) => !p.includes('*') && !existsSync(path.join(root, p))),
      ...[
        ...text.matchAll(
          /(?<![\w/-])([\w-]+\.(?:repository|routes|service|task|schema|channel|bench|spec)\.tsx?)\b/g,
        ),
      ]
        .map((m) => m[1]!)
        .filter((name) => !names.has(name)),
    ]);
    expect(missing).toEqual([]);
  });

  it('names only decisions that exist', () => {
    const missing = broken((text) =>
      [...text.matchAll(/\bdecisions? (\d{3})\b/g)].map((m) => m[1]!).filter((n) => !decisions.includes(n)),
    );
    expect(missing).toEqual([]);
  });

  it('names only README sections that exist', () => {
    const missing = broken((text) =>
      [...text.matchAll(/README "([^"]+)"/g)].map((m) => m[1]!).filter((h) => !readmeHeadings.includes(h)),
    );
    expect(missing).toEqual([]);
  });

  it('cites no specification section or issue number a reader of the repository cannot open', () => {
    const citations = broken((text) =>
      [...text.matchAll(/(?:part [12] )?§ ?\d+(?:\.\d+)*|\b[Ii]ssue \d+\b/g)].map((m) => m[0]),
    );
    expect(citations).toEqual([]);
  });
});

// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answerApi, renderWithApp } from '../../../test/render.tsx';
import { ImportContactsDialog } from './import-contacts-dialog.tsx';

const PREVIEW = {
  format: 'csv',
  header: ['Name', 'Surname', 'Tel'],
  rows: [
    ['Ada', 'Lovelace', '555-0100'],
    ['Alan', 'Turing', '555-0101'],
  ],
  columnCount: 3,
  mapping: ['firstName', 'lastName', 'phone'],
  ownExport: false,
};

const csv = (name = 'people.csv') =>
  new File(['Name,Surname,Tel\nAda,Lovelace,555-0100\nAlan,Turing,555-0101\n'], name, { type: 'text/csv' });

async function openWithFile(file: File) {
  renderWithApp(<ImportContactsDialog />);
  await userEvent.click(screen.getByRole('button', { name: 'Import' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import Contacts' });
  await userEvent.upload(await within(dialog).findByLabelText('File to import'), file);
  return dialog;
}

describe('the import dialog', () => {
  it('reads the first rows through the server and shows how each column will be read', async () => {
    const sent = answerApi({ 'POST /api/contacts/imports/preview': { body: PREVIEW } });
    const dialog = await openWithFile(csv());
    const table = await within(dialog).findByRole('table', { name: 'Column mapping' });
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/contacts/imports/preview']);
    expect(within(table).getByRole('combobox', { name: 'Column 1 (Name)' })).toHaveProperty(
      'value',
      'firstName',
    );
    expect(within(table).getByRole('combobox', { name: 'Column 3 (Tel)' })).toHaveProperty('value', 'phone');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(dialog).getByRole('button', { name: 'Import' })).toHaveProperty('disabled', false);
  });

  it('will not start without a first-name column, or with one field filled from two columns', async () => {
    answerApi({ 'POST /api/contacts/imports/preview': { body: PREVIEW } });
    const dialog = await openWithFile(csv());
    const first = await within(dialog).findByRole('combobox', { name: 'Column 1 (Name)' });
    await userEvent.selectOptions(first, '');
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose the column that holds the first name');
    expect(within(dialog).getByRole('button', { name: 'Import' })).toHaveProperty('disabled', true);

    await userEvent.selectOptions(first, 'firstName');
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Column 2 (Surname)' }),
      'firstName',
    );
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Each field can be filled from one column only',
    );
    expect(within(dialog).getByRole('button', { name: 'Import' })).toHaveProperty('disabled', true);
  });

  it('reads the first row as data when it does not name the columns, in the spec’s default column order', async () => {
    answerApi({ 'POST /api/contacts/imports/preview': { body: PREVIEW } });
    const dialog = await openWithFile(csv());
    await userEvent.click(
      await within(dialog).findByRole('checkbox', { name: 'First row names the columns' }),
    );
    const table = within(dialog).getByRole('table', { name: 'Column mapping' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByRole('combobox', { name: 'Column 3' })).toHaveProperty('value', 'phone');
    expect(within(table).getByRole('combobox', { name: 'Column 2' })).toHaveProperty('value', 'lastName');
  });

  it('goes back to choosing a file, and refuses a file it cannot read without sending it', async () => {
    const sent = answerApi({ 'POST /api/contacts/imports/preview': { body: PREVIEW } });
    const dialog = await openWithFile(csv());
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Choose another file' }));
    const input = within(dialog).getByLabelText('File to import');
    await userEvent.upload(input, new File(['%PDF-1.7'], 'contract.pdf', { type: 'application/pdf' }), {
      applyAccept: false,
    });
    expect(within(dialog).queryByRole('table', { name: 'Column mapping' })).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('stays on the choice of file when the server cannot read the file', async () => {
    answerApi({
      'POST /api/contacts/imports/preview': {
        status: 400,
        body: { code: 'VALIDATION_FAILED', message: 'This file is not text.' },
      },
    });
    const dialog = await openWithFile(csv('broken.csv'));
    expect(await within(dialog).findByLabelText('File to import')).toBeTruthy();
    expect(within(dialog).queryByRole('table', { name: 'Column mapping' })).toBeNull();
  });
});

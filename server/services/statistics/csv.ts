/**
 * CSV as Excel with Ukrainian regional settings reads it: `;` between cells (its list separator,
 * as the comma is the decimal one), CRLF between rows, and a UTF-8 byte order mark in front, without
 * which Excel takes the bytes for the system's ANSI code page and shows Cyrillic as mojibake.
 */
export const byteOrderMark = '\uFEFF';

/**
 * What a spreadsheet takes for the start of a formula (OWASP's CSV injection list): a cell from
 * user input such as a title `=HYPERLINK(…)` would run when opened, so it is prefixed with `'`,
 * which makes it text; LibreOffice shows that apostrophe (docs/screens.md).
 */
const formulaStart = /^[=+\-@\t\r]/;

/** A text cell: never read as a formula, quoted when it holds a separator, a quote or a line break. */
export function textCell(value: string): string {
  const text = formulaStart.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A number cell: the server's own integers, never user text, so a negative one stays a number. */
export function numberCell(value: number): string {
  return String(value);
}

export function csvRow(cells: string[]): string {
  return `${cells.join(';')}\r\n`;
}

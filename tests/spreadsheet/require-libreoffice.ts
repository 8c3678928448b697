import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** Refuses the run, in words, where LibreOffice is not installed: this test has nothing to test without it. */
export default async function requireLibreOffice() {
  try {
    await promisify(execFile)('soffice', ['--version'], { timeout: 60_000 });
  } catch (error) {
    throw new Error(
      'LibreOffice is not installed (no `soffice` on PATH): `npm run test:spreadsheet` opens the statistics export in it. ' +
        'Install Debian’s libreoffice-calc-nogui (`apt-get install libreoffice-calc-nogui`) and run it again.',
      { cause: error },
    );
  }
}

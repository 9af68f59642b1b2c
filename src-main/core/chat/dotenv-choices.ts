import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomicSync } from '../support/data-files';
import { withFileLockSync } from '../support/file-lock';

/*
 * A working folder's `.env` (a cloned repository's) may name the model and the endpoints the chat talks to. Those
 * choices redirect a person's conversations — and the tool results in them — so they are used only once the person
 * confirmed them. The confirmations live in `<dataDir>/dotenv-choices.json` (0600, atomic writes), per `.env` file
 * (its real path) and per name, with the value confirmed: a changed value asks again. A damaged file confirms
 * nothing.
 */

export const dotenvChoicesFileName = 'dotenv-choices.json';

const fileSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.record(z.string(), z.object({ value: z.string(), confirmedAt: z.string() }))),
});
type ChoicesFile = z.infer<typeof fileSchema>;

export class DotenvChoices {
  private data: ChoicesFile = { version: 1, files: {} };

  /** `file` undefined keeps the confirmations in memory (tests). */
  constructor(private readonly file: string | undefined) {
    if (file) this.data = readChoices(file);
  }

  /** Whether a person confirmed `name=value` of the `.env` file `dotenvFile` (its real path). */
  confirmed(dotenvFile: string, name: string, value: string): boolean {
    return this.data.files[dotenvFile]?.[name]?.value === value;
  }

  /** Records the values as confirmed (the file is rewritten at once). */
  confirm(dotenvFile: string, values: Readonly<Record<string, string>>, now: Date = new Date()): void {
    const entries = Object.entries(values);
    if (entries.length === 0) return;
    const record = (data: ChoicesFile): ChoicesFile => {
      const current = { ...data.files[dotenvFile] };
      for (const [name, value] of entries) current[name] = { value, confirmedAt: now.toISOString() };
      return { version: 1, files: { ...data.files, [dotenvFile]: current } };
    };
    const file = this.file;
    if (!file) {
      this.data = record(this.data);
      return;
    }
    // Like every data-folder file: read again under its lock, so another process's confirmations are kept.
    withFileLockSync(file, () => {
      this.data = record(readChoices(file));
      writeFileAtomicSync(file, `${JSON.stringify(this.data, null, 2)}\n`);
    });
  }
}

function readChoices(file: string): ChoicesFile {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // none yet, or unreadable: nothing is confirmed
  }
  return { version: 1, files: {} };
}

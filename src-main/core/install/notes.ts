import type { InstallNote, InstallNoteCode } from '../../../src-shared/contract/install';
import { bundleEn } from '../../../src-shared/i18n/bundle.en';

/*
 * Install notes and bundle refusals in words: the English text comes from the same catalogue section the UI and the
 * CLI word them with (bundle.note.<code>, bundle.refusal.<reason>), so the English a reader without a translator sees
 * is the English a translator starts from.
 */

const tones: Record<InstallNoteCode, InstallNote['tone']> = {
  unpackedTo: 'info',
  replaces: 'info',
  unsigned: 'warning',
  verified: 'ok',
  selfSigned: 'warning',
  untrusted: 'warning',
  expired: 'warning',
  notYetValid: 'warning',
  notForCode: 'warning',
  downloaded: 'info',
  customRegistry: 'warning',
  fromLink: 'warning',
};

/** `{{name}}` in `text` replaced by `data.name` (a missing one stays as it is, which a test would see). */
export function fill(text: string, data: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, key: string) => data[key] ?? whole);
}

export function installNote(code: InstallNoteCode, data: Record<string, string> = {}): InstallNote {
  return { code, data, text: fill(bundleEn.note[code], data), tone: tones[code] };
}

/** A plan's `notes` and `notices` fields from its notes. */
export function notesOf(notices: InstallNote[]): { notes: string[]; notices: InstallNote[] } {
  return { notes: notices.map((n) => n.text), notices };
}

export type RefusalReason = keyof typeof bundleEn.refusal;

/** Why a bundle is refused, in English (the CoreError's message; its data carries the reason and the placeholders). */
export function refusalText(reason: RefusalReason, data: Readonly<Record<string, string>>): string {
  return fill(bundleEn.refusal[reason], data);
}

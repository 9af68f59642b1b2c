// An install plan's notes as the CLI prints them: in English the host's text as it is; in Chinese worded from each
// note's code and data (bundle.note.*), a certificate's date in the Chinese form. In-process: the CLI's language is
// chosen on first use, so this file sets it before anything is translated.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { installNote, notesOf } from '../core/install/notes';
import { catalogues } from '../../src-shared/i18n';
import { planNotes } from './commands/install-run';

beforeAll(() => {
  vi.stubEnv('SWITCHBOARD_LANG', 'zh-CN');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('planNotes in Chinese', () => {
  it('words each note from its code and data, with the date as 2027年1月31日', () => {
    const plan = notesOf([
      installNote('expired', { signer: 'Example Ltd', date: '2027-01-31' }),
      installNote('unpackedTo', { folder: '/data/bundles/greeter' }),
      installNote('unsigned'),
    ]);
    expect(plan.notes[0]).toBe('Signed by Example Ltd with a certificate that expired on 2027-01-31: the publisher is not verified.');
    const zh = catalogues['zh-CN'].bundle.note;
    expect(planNotes(plan)).toEqual([
      zh.expired.replace('{{signer}}', 'Example Ltd').replace('{{date}}', '2027年1月31日'),
      zh.unpackedTo.replace('{{folder}}', '/data/bundles/greeter'),
      zh.unsigned,
    ]);
    expect(planNotes(plan).join('\n')).not.toMatch(/Signed by|Unpacked/);
  });
});

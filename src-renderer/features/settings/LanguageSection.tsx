import { languageNames, languages, type LanguageSetting } from '../../../src-shared/i18n';
import { setLanguage, systemLanguage, useLanguageSetting, useT } from '../../i18n/index';

/** Settings → Language: the system's (OS / browser locale), or one of ours; applied at once and remembered. */
export function LanguageSection() {
  const t = useT();
  const setting = useLanguageSetting();
  const options: LanguageSetting[] = ['system', ...languages];
  return (
    <section className="settings-section" aria-labelledby="settings-language">
      <h2 id="settings-language">{t('language.heading')}</h2>
      <label className="language-picker">
        <span className="muted">{t('language.label')}</span>{' '}
        <select value={setting} data-testid="language-select" onChange={(e) => setLanguage(e.target.value as LanguageSetting)}>
          {options.map((value) => (
            <option key={value} value={value} lang={value === 'system' ? undefined : value}>
              {value === 'system' ? t('language.system', { language: languageNames[systemLanguage()] }) : languageNames[value]}
            </option>
          ))}
        </select>
      </label>
      <p className="muted">{t('language.hint')}</p>
    </section>
  );
}

import { useEffect } from 'react';
import type { ServerView, SkillInfo } from '../../../src-shared/host-api';
import { revealHidden } from '../../../src-shared/hidden-text';
import { useT } from '../../i18n';
import { resourceKey } from '../../store/feature-types';
import { useApp } from '../../store/useApp';
import { ErrorNote, ReloadButton } from '../../ui/FeatureParts';
import { HiddenTextList } from '../trust/HiddenTextList';
import '../trust/trust.css';
import './skills-tab.css';

const needsReview = (skill: SkillInfo): boolean => skill.review !== undefined && skill.review.state !== 'trusted';

/** A server page's Skills tab (`io.modelcontextprotocol/skills`): each skill's name, description, review state and files. */
export function SkillsTab({ server }: { server: ServerView }) {
  const name = server.name;
  const t = useT();
  const list = useApp((s) => s.skillLists[name]);
  const load = useApp((s) => s.loadSkills);
  const selected = useApp((s) => (s.serverPage?.server === name ? s.serverPage.skill : undefined));
  const select = useApp((s) => s.selectSkill);
  const declared = server.capabilities?.skills === true;
  useEffect(() => {
    if (declared && list === undefined) void load(name);
  }, [declared, list, load, name]);
  if (!declared) return <p className="muted tab-note">{t('skills.notOffered', { server: name })}</p>;
  const skills = list?.value?.skills ?? [];
  const open = skills.find((s) => s.uri === selected);
  return (
    <div className="skills-tab" data-testid="skills-tab">
      <div className="skills-tab-toolbar">
        <p className="muted">{t('skills.intro', { server: name })}</p>
        <ReloadButton label={t('skills.refresh')} title={t('skills.refresh')} onClick={() => void load(name)} />
      </div>
      {list?.state === 'error' && <ErrorNote testId="skills-error">{t('skills.listFailed', { error: list.message })}</ErrorNote>}
      {list?.value?.error !== undefined && <ErrorNote testId="skills-error">{t('skills.listFailed', { error: list.value.error })}</ErrorNote>}
      {list?.state === 'loading' && skills.length === 0 && <p className="muted">{t('skills.loading')}</p>}
      {list?.state === 'ok' && skills.length === 0 && <p className="muted">{t('skills.none')}</p>}
      <ul className="skills-list" aria-label={t('skills.listLabel', { server: name })} data-testid="skills-list">
        {skills.map((skill) => (
          <li key={skill.uri} className={`skill-row${skill.uri === selected ? ' skill-selected' : ''}`} data-testid="skill-row" data-skill={skill.name}>
            <button
              type="button"
              className="skill-open"
              aria-expanded={skill.uri === selected}
              data-testid="skill-open"
              onClick={() => select(skill.uri === selected ? undefined : skill.uri)}
            >
              <span className="skill-name mono" data-testid="skill-name">
                {skill.name}
              </span>
              <SkillBadge skill={skill} />
              <span className="skill-description muted" data-testid="skill-description">
                {revealHidden(skill.description)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {open && <SkillDetail server={name} skill={open} />}
    </div>
  );
}

/** The review state as a badge: needs review (changed / new / hidden text), or a quieter note for accepted hidden text. */
function SkillBadge({ skill }: { skill: SkillInfo }) {
  const t = useT();
  const review = skill.review;
  if (!review) return null;
  if (review.state === 'trusted') {
    if (!review.hidden?.length) return null;
    return (
      <span className="tag trust-badge trust-hidden" data-testid="skill-review" data-state="trusted">
        {t('trust.hiddenText')}
      </span>
    );
  }
  return (
    <span className="tag trust-badge trust-needs-review" data-testid="skill-review" data-state={review.state} title={t('skills.reviewTitle')}>
      {t(`trust.label.${review.state}`)}
    </span>
  );
}

function SkillDetail({ server, skill }: { server: string; skill: SkillInfo }) {
  const t = useT();
  const files = useApp((s) => s.skillFiles);
  const read = useApp((s) => s.readSkillFile);
  const accept = useApp((s) => s.acceptSkill);
  const attach = useApp((s) => s.attachResource);
  const attached = useApp((s) => s.attachments.some((a) => a.server === server && a.uri === skill.uri));
  const key = resourceKey(server, skill.uri);
  const trusting = useApp((s) => s.trustingSkills[key] === true);
  const trustError = useApp((s) => s.skillTrustErrors[key]);
  const review = skill.review;
  const list = skill.files === 'dynamic' ? [] : skill.files;
  return (
    <section className="skill-detail" aria-label={t('skills.detailLabel', { skill: skill.name })} data-testid="skill-detail">
      <h3 className="mono">{skill.name}</h3>
      <p>{revealHidden(skill.description)}</p>
      <p className="muted skill-uri">
        <code>{skill.uri}</code> · <span data-testid="skill-digest">{skill.digest.slice(0, 19)}…</span>
      </p>
      {review && needsReview(skill) && (
        <div className="skill-review-note" role="note" data-testid="skill-review-note">
          <p>{t(`skills.review.${review.state === 'trusted' ? 'changed' : review.state}`, { skill: skill.name, fields: (review.changed ?? []).join(', ') })}</p>
          {review.pinned && review.pinned.description !== skill.description && (
            <p className="muted">{t('skills.wasDescription', { description: revealHidden(review.pinned.description) })}</p>
          )}
          <button type="button" className="btn btn-small" data-testid="skill-accept" disabled={trusting} onClick={() => void accept(server, skill.uri)}>
            {t('skills.accept')}
          </button>
          {trustError !== undefined && <ErrorNote testId="skill-accept-error">{trustError}</ErrorNote>}
        </div>
      )}
      {review?.hidden && review.hidden.length > 0 && <HiddenTextList findings={review.hidden} />}
      {!needsReview(skill) && (
        <button
          type="button"
          className="btn btn-small"
          data-testid="skill-attach"
          disabled={attached}
          title={t('skills.attachTitle')}
          onClick={() => attach({ server, uri: skill.uri })}
        >
          {attached ? t('skills.attached') : t('skills.attach')}
        </button>
      )}
      <h4>{t('skills.files')}</h4>
      {skill.files === 'dynamic' && <p className="muted">{t('skills.dynamic')}</p>}
      <ul className="skill-files" data-testid="skill-files">
        {list.map((file) => {
          const state = files[resourceKey(server, file.uri)];
          const path = file.uri.startsWith(skill.uri.replace(/SKILL\.md$/, '')) ? file.uri.slice(skill.uri.length - 'SKILL.md'.length) : file.uri;
          return (
            <li key={file.uri} className="skill-file" data-testid="skill-file" data-uri={file.uri}>
              <button type="button" className="btn btn-small btn-ghost" data-testid="skill-file-open" onClick={() => void read(server, skill.uri, file.uri)}>
                {path}
              </button>
              <span className="muted"> {t('skills.bytes', { count: file.size })}</span>
              {state?.state === 'loading' && <span className="muted"> {t('skills.reading')}</span>}
              {state?.state === 'error' && <ErrorNote testId="skill-file-error">{state.message}</ErrorNote>}
              {state?.value && (
                <pre className="block-text skill-file-text" data-testid="skill-file-text">
                  {state.value.text !== undefined ? revealHidden(state.value.text) : t('skills.binary', { count: state.value.size })}
                </pre>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

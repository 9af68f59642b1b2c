import { json } from '@codemirror/lang-json';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, RangeSetBuilder, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, type DecorationSet } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConfigText } from '../../../src-shared/host-api';
import { describeError } from '../../host/bridge-client';
import { useApp, useAppStore } from '../../store/useApp';
import { lintConfigText, mainProblem, offsetAt, type TextProblem } from './jsonc';
import { configDetailText, i18n, useT } from '../../i18n';
import './config-editor.css';

/** Marks whole lines that have a problem (so the place is visible without hovering). */
const setProblemLines = StateEffect.define<number[]>();
const problemLines = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    let next = value.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setProblemLines)) continue;
      const builder = new RangeSetBuilder<Decoration>();
      for (const line of [...new Set(effect.value)].sort((a, b) => a - b)) {
        if (line < 1 || line > tr.state.doc.lines) continue;
        const at = tr.state.doc.line(line);
        builder.add(at.from, at.from, Decoration.line({ class: 'cm-problem-line', attributes: { 'data-problem-line': String(line) } }));
      }
      next = builder.finish();
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'var(--panel)', color: 'var(--text)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--panel-2)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'transparent' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--accent-soft)' },
  '.cm-problem-line': { backgroundColor: 'var(--err-soft)' },
  '&.cm-focused': { outline: 'none' },
});

/** JSON token colours from CSS variables (config-editor.css), so light and dark themes both read well. */
const highlight = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--cm-property)' },
  { tag: tags.string, color: 'var(--cm-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--cm-literal)' },
  { tag: [tags.lineComment, tags.blockComment], color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.brace, tags.squareBracket, tags.separator, tags.punctuation], color: 'var(--muted)' },
]);

type Status = { tone: 'ok' | 'error' | 'info'; message: string } | undefined;

/**
 * The raw config editor (CodeMirror 6): JSON highlighting, problems underlined at their line as you type
 * (syntax and shape, locally) and main's own validation on save, also at its line. Follows the file on disk:
 * reloads when the editor is clean; when it has unsaved edits, asks.
 */
export function ConfigEditor() {
  const store = useAppStore();
  const t = useT();
  const disk = useApp((s) => s.configText);
  const diskError = useApp((s) => s.configTextError);
  const jump = useApp((s) => s.editorJump);
  const saveConfig = useApp((s) => s.saveConfig);
  const loadConfig = useApp((s) => s.loadConfig);

  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | undefined>(undefined);
  /** The file version the text in the editor is based on (its hash goes with a save). */
  const baseRef = useRef<ConfigText | undefined>(undefined);
  /** Main's refusal of the last save, for the exact text that was refused. */
  const refusedRef = useRef<{ text: string; line: number; column: number; message: string } | undefined>(undefined);
  const appliedJump = useRef(0);
  const lintTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saveRef = useRef<() => void>(() => undefined);

  const [loaded, setLoaded] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [problems, setProblems] = useState<TextProblem[]>([]);
  const [pending, setPending] = useState<ConfigText | undefined>(undefined);
  const [status, setStatus] = useState<Status>(undefined);
  const [saving, setSaving] = useState(false);

  const relint = useCallback((): void => {
    const view = viewRef.current;
    if (!view) return;
    const text = view.state.doc.toString();
    const base = baseRef.current;
    const fromMain: TextProblem[] = [];
    const refused = refusedRef.current;
    if (refused && refused.text === text) fromMain.push(mainProblem(text, refused.line, refused.column, refused.message));
    else if (base?.problem && base.text === text)
      fromMain.push(mainProblem(text, base.problem.line, base.problem.column, configDetailText(base.problem.message, base.problem.info)));
    const mainLines = new Set(fromMain.map((p) => p.line));
    const all = [...fromMain, ...lintConfigText(text).filter((p) => !mainLines.has(p.line))].sort((a, b) => a.from - b.from);
    const diagnostics: Diagnostic[] = all.map((p) => ({
      from: Math.min(p.from, text.length),
      to: Math.min(Math.max(p.to, p.from), text.length),
      severity: 'error',
      source: p.source === 'main' ? 'Switchboard' : i18n.t('editor.asYouType'),
      message: p.message,
    }));
    view.dispatch(setDiagnostics(view.state, diagnostics), { effects: setProblemLines.of(all.map((p) => p.line)) });
    setProblems(all);
  }, []);

  const scheduleLint = useCallback((): void => {
    clearTimeout(lintTimer.current);
    lintTimer.current = setTimeout(relint, 250);
  }, [relint]);

  /** Puts a file version into the editor (a reload), keeping the cursor near where it was. */
  const load = useCallback(
    (next: ConfigText): void => {
      const view = viewRef.current;
      if (!view) return;
      baseRef.current = next;
      refusedRef.current = undefined;
      const current = view.state.doc.toString();
      if (current !== next.text) {
        const head = Math.min(view.state.selection.main.head, next.text.length);
        view.dispatch({ changes: { from: 0, to: current.length, insert: next.text }, selection: { anchor: head } });
      }
      setDirty(false);
      setPending(undefined);
      setLoaded(true);
      relint();
    },
    [relint],
  );

  // The editor itself: created once; unsaved text survives leaving the screen (kept in the store as a draft).
  useEffect(() => {
    const parent = hostRef.current;
    if (!parent) return;
    const { editorDraft, configText } = store.getState();
    const base = editorDraft?.base ?? baseRef.current ?? configText;
    const doc = editorDraft?.text ?? base?.text ?? '';
    baseRef.current = base;
    const extensions: Extension[] = [
      basicSetup,
      json(),
      syntaxHighlighting(highlight),
      lintGutter(),
      problemLines,
      theme,
      EditorView.lineWrapping,
      keymap.of([
        {
          key: 'Mod-s',
          preventDefault: true,
          run: () => {
            saveRef.current();
            return true;
          },
        },
      ]),
      EditorView.contentAttributes.of({ 'aria-label': i18n.t('editor.contentLabel'), 'data-testid': 'config-editor-content' }),
      EditorState.phrases.of(editorPhrases()),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        setDirty(update.state.doc.toString() !== baseRef.current?.text);
        setStatus(undefined);
        scheduleLint();
      }),
    ];
    const view = new EditorView({ state: EditorState.create({ doc, extensions }), parent });
    viewRef.current = view;
    store.getState().setEditorDraft(undefined);
    if (base) {
      setLoaded(true);
      setDirty(doc !== base.text);
      relint();
    }
    return () => {
      clearTimeout(lintTimer.current);
      const text = view.state.doc.toString();
      const draftBase = baseRef.current;
      if (draftBase && text !== draftBase.text) store.getState().setEditorDraft({ text, base: draftBase });
      view.destroy();
      viewRef.current = undefined;
    };
  }, [store, relint, scheduleLint]);

  // The file on disk changed (or arrived): reload when clean, ask when there are unsaved edits.
  useEffect(() => {
    const view = viewRef.current;
    if (!view || !disk) return;
    const base = baseRef.current;
    const text = view.state.doc.toString();
    if (base === undefined || !loaded) {
      if (base === undefined || text === base.text) load(disk);
      else setLoaded(true);
      return;
    }
    if (disk.hash === base.hash) {
      baseRef.current = disk;
      relint();
      return;
    }
    if (text === disk.text) {
      baseRef.current = disk;
      setDirty(false);
      setPending(undefined);
      relint();
    } else if (text === base.text) load(disk);
    else setPending(disk);
  }, [disk, load, loaded, relint]);

  // "Open at line N" from the banner.
  useEffect(() => {
    const view = viewRef.current;
    if (!view || !jump || !loaded || appliedJump.current === jump.seq) return;
    appliedJump.current = jump.seq;
    const pos = offsetAt(view.state.doc.toString(), jump.line, jump.column);
    view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
    view.focus();
  }, [jump, loaded]);

  const goTo = (problem: TextProblem): void => {
    const view = viewRef.current;
    if (!view) return;
    const pos = Math.min(problem.from, view.state.doc.length);
    view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
    view.focus();
  };

  const save = async (): Promise<void> => {
    const view = viewRef.current;
    const base = baseRef.current;
    if (!view || !base || saving) return;
    const text = view.state.doc.toString();
    setSaving(true);
    setStatus(undefined);
    try {
      const saved = await saveConfig(text, base.hash);
      baseRef.current = saved;
      refusedRef.current = undefined;
      setPending(undefined);
      setDirty(view.state.doc.toString() !== saved.text);
      setStatus({ tone: 'ok', message: t('editor.savedRestarting') });
    } catch (error) {
      const { message, data } = describeError(error);
      // Main says where (HostError.data: file, line, column, detail); the message text is never parsed.
      const located =
        typeof data?.line === 'number' &&
        typeof data.column === 'number' &&
        typeof data.detail === 'string' &&
        (data.file === undefined || data.file === base.path)
          ? { line: data.line, column: data.column, message: configDetailText(data.detail, data.detailInfo) }
          : undefined;
      if (located) {
        refusedRef.current = { text, ...located };
        setStatus({ tone: 'error', message: t('editor.notSavedAt', { line: located.line, column: located.column, detail: located.message }) });
      } else {
        setStatus({ tone: 'error', message: t('editor.notSaved', { error: message }) });
        if (data?.reason === 'changed-on-disk') void loadConfig();
      }
    } finally {
      setSaving(false);
      relint();
    }
  };
  saveRef.current = () => void save();

  const revert = (): void => {
    const base = store.getState().configText ?? baseRef.current;
    if (base) load(base);
    setStatus(undefined);
  };

  const keepEditing = (): void => {
    // The user has seen the newer file and keeps their text: saving will replace what is on disk.
    if (pending) baseRef.current = pending;
    setPending(undefined);
    relint();
  };

  return (
    <section className="config-editor" aria-label={t('editor.label')} data-testid="config-editor" data-dirty={dirty ? 'true' : 'false'}>
      <div className="editor-toolbar">
        <code className="editor-path" title={disk?.path}>
          <bdi>{disk?.path ?? '…'}</bdi>
        </code>
        {dirty && (
          <span className="chip chip-dirty" data-testid="editor-dirty">
            {t('editor.unsaved')}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-small" data-testid="editor-revert" disabled={!dirty} onClick={revert}>
          {t('editor.revert')}
        </button>
        <button
          type="button"
          className="btn btn-small btn-primary"
          data-testid="editor-save"
          disabled={!loaded || saving || (!dirty && !pending)}
          onClick={() => void save()}
        >
          {saving ? t('editor.saving') : t('common.save')}
        </button>
      </div>
      {pending && (
        <div className="banner banner-warning editor-changed" role="alert" data-testid="editor-changed-on-disk">
          <strong>{t('editor.changedOnDisk')}</strong> <span>{t('editor.olderVersion')}</span>{' '}
          <button type="button" className="btn btn-small" data-testid="editor-reload" onClick={() => load(pending)}>
            {t('editor.reloadDiscard')}
          </button>{' '}
          <button type="button" className="btn btn-small" data-testid="editor-keep" onClick={keepEditing}>
            {t('editor.keepEditing')}
          </button>
        </div>
      )}
      {diskError && !loaded && (
        <p className="form-error" role="alert">
          {diskError}
        </p>
      )}
      <div className="editor-host" ref={hostRef} />
      <div className="editor-footer">
        {status && (
          <p className={`editor-status editor-status-${status.tone}`} role={status.tone === 'error' ? 'alert' : 'status'} data-testid="editor-status">
            {status.message}
          </p>
        )}
        {problems.length > 0 ? (
          <ul className="editor-problems" aria-label={t('editor.problems')} data-testid="editor-problems">
            {problems.map((p) => (
              <li key={`${p.source}-${p.from}-${p.message}`}>
                <button type="button" className="link-button" data-testid="editor-problem" data-line={p.line} data-source={p.source} onClick={() => goTo(p)}>
                  {t('editor.lineColumn', { line: p.line, column: p.column })}
                </button>{' '}
                <span>{p.message}</span> <span className="muted">({p.source === 'main' ? 'Switchboard' : t('editor.asYouType')})</span>
              </li>
            ))}
          </ul>
        ) : (
          loaded && (
            <p className="muted editor-ok" data-testid="editor-no-problems">
              {t('editor.noProblems')} {disk ? t('editor.backup', { path: disk.backupPath }) : ''}
            </p>
          )
        )}
      </div>
    </section>
  );
}

/** CodeMirror's phrases (its English words) in the UI's language, at the time the editor is made. */
function editorPhrases(): Record<string, string> {
  return {
    'Fold line': i18n.t('editor.cm.foldLine'),
    'Unfold line': i18n.t('editor.cm.unfoldLine'),
    'Folded lines': i18n.t('editor.cm.foldedLines'),
    'Unfolded lines': i18n.t('editor.cm.unfoldedLines'),
    'folded code': i18n.t('editor.cm.foldedCode'),
    unfold: i18n.t('editor.cm.unfold'),
    Find: i18n.t('editor.cm.find'),
    Replace: i18n.t('editor.cm.replace'),
    next: i18n.t('editor.cm.next'),
    previous: i18n.t('editor.cm.previous'),
    all: i18n.t('editor.cm.all'),
    'match case': i18n.t('editor.cm.matchCase'),
    regexp: i18n.t('editor.cm.regexp'),
    'by word': i18n.t('editor.cm.byWord'),
    replace: i18n.t('editor.cm.replaceOne'),
    'replace all': i18n.t('editor.cm.replaceAll'),
    close: i18n.t('editor.cm.close'),
    'Go to line': i18n.t('editor.cm.goToLine'),
    go: i18n.t('editor.cm.go'),
    Diagnostics: i18n.t('editor.cm.diagnostics'),
    'No diagnostics': i18n.t('editor.cm.noDiagnostics'),
    'Control character': i18n.t('editor.cm.controlCharacter'),
    'Selection deleted': i18n.t('editor.cm.selectionDeleted'),
  };
}

import { useRef, useState, type DragEvent } from 'react';
import { useApp } from '../../store/useApp';
import './install.css';
import { useT } from '../../i18n';

/** A File's bytes as base64 (for `install:prepare` over IPC or the bridge). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Drop an MCP Bundle (.mcpb) here, or pick one: the install dialog then shows its manifest's command and the values
 * it asks for before anything is unpacked or added.
 */
export function BundleDropZone() {
  const openInstall = useApp((s) => s.openInstall);
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const picker = useRef<HTMLInputElement>(null);
  const t = useT();

  const take = async (file: File | undefined): Promise<void> => {
    setError(undefined);
    if (!file) return;
    if (!file.name.toLowerCase().endsWith('.mcpb')) {
      setError(t('registry.notBundle', { file: file.name }));
      return;
    }
    openInstall({ kind: 'bundle', fileName: file.name, data: await base64Of(file) });
  };
  const onDrop = (event: DragEvent<HTMLDivElement>): void => {
    event.preventDefault();
    setOver(false);
    void take(event.dataTransfer.files[0]);
  };

  return (
    <div
      className={`bundle-drop${over ? ' over' : ''}`}
      data-testid="bundle-drop"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <span>{t('registry.drop')}</span>
      <button type="button" className="btn btn-small" data-testid="bundle-pick" onClick={() => picker.current?.click()}>
        {t('registry.choose')}
      </button>
      <input
        ref={picker}
        type="file"
        accept=".mcpb"
        hidden
        data-testid="bundle-file"
        onChange={(e) => {
          void take(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
